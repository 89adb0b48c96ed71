/**
 * One wait shared by the requests of one listing: when Autodesk answers 429 to one of them, none
 * of the others sends anything until that Retry-After is over (a later, longer one extends it).
 */
export interface RateLimitPause {
  /** Resolves when no wait is running. */
  over(): Promise<void>
  /** Starts a wait of `ms` (unless a running one ends later) and resolves when it is over. */
  hold(ms: number): Promise<void>
}

export function createRateLimitPause(
  sleep: (ms: number) => Promise<void>,
  now: () => number,
): RateLimitPause {
  let current: { until: number; done: Promise<void> } | undefined
  async function over() {
    while (current) {
      const waiting = current
      await waiting.done
      if (current === waiting) current = undefined
    }
  }
  return {
    over,
    hold(ms) {
      const until = now() + ms
      if (!current || until > current.until) current = { until, done: sleep(ms) }
      return over()
    },
  }
}
