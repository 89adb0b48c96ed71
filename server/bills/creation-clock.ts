/**
 * When each new bill is made, as ISO text, never the same or earlier than the one before in this
 * process: bills are listed oldest first, and two made within one millisecond must still list in
 * the order they were made.
 */
export function creationClock(now: () => number = Date.now): () => string {
  let last = 0
  return () => {
    last = Math.max(now(), last + 1)
    return new Date(last).toISOString()
  }
}
