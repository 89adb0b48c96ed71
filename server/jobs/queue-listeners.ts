/**
 * Who is told that a job was queued (the runner, so idle workers start without polling). A
 * listener that throws is reported and does not stop the others.
 */
export function queueListeners(onError: (error: unknown) => void) {
  const listeners = new Set<() => void>()
  return {
    /** Returns the unsubscribe. */
    add(listener: () => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    notify(): void {
      for (const listener of listeners) {
        try {
          listener()
        } catch (error) {
          onError(error)
        }
      }
    },
    clear(): void {
      listeners.clear()
    },
  }
}
