/** Trouble the fake produces on demand, so tests can walk the unhappy paths. */
export interface FaultRule {
  /** Method (default any) and a path prefix or pattern the fault applies to. */
  method?: string
  path: string | RegExp
  /** Text the decoded query must contain, to hit one page of a list ('page[number]=7'). */
  query?: string
  status: number
  /** Seconds, sent as Retry-After (for 429 and 503). */
  retryAfter?: number
  /** How many matching requests fail (default 1; Infinity for all). */
  times?: number
  body?: unknown
}

export interface Faults {
  add(rule: FaultRule): void
  /** The fault for this request (decoded path and query), counted down, or undefined. */
  take(method: string, path: string, query?: string): FaultRule | undefined
  /**
   * Every list page (contents, projects, versions, top folders) waits this long; a function gives
   * each page number its own wait (later pages answering first, say).
   */
  pageDelayMs: number | ((pageNumber: number) => number)
  /**
   * The next this many list pages after a list's first wait until all of them have arrived (at
   * most HOLD_MS), then answer together: pages asked for at once are at the fake at once, however
   * busy the machine. (A list's first page is asked for alone: it is never held.)
   */
  holdPages(count: number): void
  /** Waits while the page is held (holdPages); at once when none is. */
  held(pageNumber: number): Promise<void>
  clear(): void
}

/** The longest a held page waits for the others: a client that never asks them all fails its test. */
const HOLD_MS = 10_000

export function createFaults(): Faults {
  let rules: { rule: FaultRule; left: number }[] = []
  let hold: { left: number; release: () => void; released: Promise<void> } | null = null
  return {
    pageDelayMs: 0,
    holdPages(count) {
      let release = () => {}
      const released = new Promise<void>((resolve) => {
        release = resolve
      })
      hold = count > 0 ? { left: count, release, released } : null
    },
    async held(pageNumber) {
      if (!hold || hold.left === 0 || pageNumber === 0) return
      const gate = hold
      gate.left -= 1
      if (gate.left === 0) gate.release()
      let timer: NodeJS.Timeout | undefined
      await Promise.race([
        gate.released,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, HOLD_MS)
        }),
      ])
      clearTimeout(timer)
    },
    add(rule) {
      rules.push({ rule, left: rule.times ?? 1 })
    },
    take(method, path, query = '') {
      const hit = rules.find(
        ({ rule, left }) =>
          left > 0 &&
          (!rule.method || rule.method.toUpperCase() === method.toUpperCase()) &&
          (typeof rule.path === 'string' ? path.startsWith(rule.path) : rule.path.test(path)) &&
          (rule.query === undefined || query.includes(rule.query)),
      )
      if (!hit) return undefined
      hit.left -= 1
      rules = rules.filter((r) => r.left > 0)
      return hit.rule
    },
    clear() {
      rules = []
      hold = null
      this.pageDelayMs = 0
    },
  }
}

/** The wait of one list page. */
export function pageDelay(faults: Faults, pageNumber: number): number {
  const delay = faults.pageDelayMs
  return typeof delay === 'function' ? delay(pageNumber) : delay
}
