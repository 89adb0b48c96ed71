/** Trouble the fake produces on demand, so tests can walk the unhappy paths. */
export interface FaultRule {
  /** Method (default any) and a path prefix or pattern the fault applies to. */
  method?: string
  path: string | RegExp
  status: number
  /** Seconds, sent as Retry-After (for 429 and 503). */
  retryAfter?: number
  /** How many matching requests fail (default 1; Infinity for all). */
  times?: number
  body?: unknown
}

export interface Faults {
  add(rule: FaultRule): void
  /** The fault for this request, counted down, or undefined. */
  take(method: string, path: string): FaultRule | undefined
  /** Every list page (contents, projects, versions, top folders) waits this long. */
  pageDelayMs: number
  clear(): void
}

export function createFaults(): Faults {
  let rules: { rule: FaultRule; left: number }[] = []
  return {
    pageDelayMs: 0,
    add(rule) {
      rules.push({ rule, left: rule.times ?? 1 })
    },
    take(method, path) {
      const hit = rules.find(
        ({ rule, left }) =>
          left > 0 &&
          (!rule.method || rule.method.toUpperCase() === method.toUpperCase()) &&
          (typeof rule.path === 'string' ? path.startsWith(rule.path) : rule.path.test(path)),
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
