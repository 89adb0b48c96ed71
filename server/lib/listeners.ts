/**
 * Who is told that something happened (a job queued, a job ended). A listener that throws is
 * reported and does not stop the others.
 */
export function listeners(onError: (error: unknown) => void) {
  const added = new Set<() => void>()
  return {
    /** Returns the unsubscribe. */
    add(listener: () => void): () => void {
      added.add(listener)
      return () => added.delete(listener)
    },
    notify(): void {
      for (const listener of added) {
        try {
          listener()
        } catch (error) {
          onError(error)
        }
      }
    },
    clear(): void {
      added.clear()
    },
  }
}
