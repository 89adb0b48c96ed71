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
  clear(): void
}

export function createFaults(): Faults {
  let rules: { rule: FaultRule; left: number }[] = []
  return {
    pageDelayMs: 0,
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
      this.pageDelayMs = 0
    },
  }
}

/** The wait of one list page. */
export function pageDelay(faults: Faults, pageNumber: number): number {
  const delay = faults.pageDelayMs
  return typeof delay === 'function' ? delay(pageNumber) : delay
}
