/**
 * A small in-memory cache of recent answers (Autodesk allows only 50 hub/project calls a
 * minute). Concurrent asks for one key share one upstream call; failures are not kept.
 */
export interface TtlCache<T> {
  get(key: string, load: () => Promise<T>): Promise<T>
  clear(): void
}

export function createTtlCache<T>(options: {
  ttlMs: number
  maxEntries?: number
  now?: () => number
}): TtlCache<T> {
  const maxEntries = options.maxEntries ?? 1000
  const now = options.now ?? Date.now
  const entries = new Map<string, { expires: number; value: Promise<T> }>()

  return {
    get(key, load) {
      const hit = entries.get(key)
      if (hit && hit.expires > now()) return hit.value
      entries.delete(key)
      const value = load()
      entries.set(key, { expires: now() + options.ttlMs, value })
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key)
      })
      // Oldest first out when full (Map keeps insertion order).
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value
        if (oldest === undefined) break
        entries.delete(oldest)
      }
      return value
    },
    clear() {
      entries.clear()
    },
  }
}
