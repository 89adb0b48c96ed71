/** The Prioritized Task Scheduling API's yield, where the browser has it (not in every type lib). */
type WithYield = { scheduler?: { yield?: () => Promise<void> } }

/**
 * Lets the page paint and take input, then goes on: with `scheduler.yield` ahead of the tasks
 * queued meanwhile (another answer's parsing would otherwise come first, and take its time),
 * else after them.
 */
export function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as WithYield).scheduler
  if (typeof scheduler?.yield === 'function') return scheduler.yield()
  return new Promise((resume) => setTimeout(resume, 0))
}
