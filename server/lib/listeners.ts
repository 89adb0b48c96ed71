/**
 * Who is told that something happened (a job queued, a job ended), with what happened. A
 * listener that throws is reported and does not stop the others.
 */
export function listeners<T = undefined>(onError: (error: unknown) => void) {
  const added = new Set<(event: T) => void>()
  return {
    /** Returns the unsubscribe. */
    add(listener: (event: T) => void): () => void {
      added.add(listener)
      return () => added.delete(listener)
    },
    /** With nothing when nothing is told but that it happened (`listeners()`). */
    notify(...told: [T] extends [undefined] ? [] : [event: T]): void {
      const event = told[0] as T
      for (const listener of added) {
        try {
          listener(event)
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
