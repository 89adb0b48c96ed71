type Client = (path: string, init?: RequestInit) => Promise<Response>

/**
 * Asks GET `path` again and again, one request at a time (`pauseMs` apart, as a person's app
 * polls), until `done()` says so (after the first answer) or `max` answers came, and gives each
 * answer's time in milliseconds (a non-2xx answer throws).
 */
export async function timeAnswers(
  client: Client,
  path: string,
  options: { max: number; done: () => boolean; pauseMs?: number },
): Promise<number[]> {
  const times: number[] = []
  while (times.length < options.max && (times.length === 0 || !options.done())) {
    const started = performance.now()
    const response = await client(path)
    await response.arrayBuffer()
    times.push(performance.now() - started)
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`)
    if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs))
  }
  return times
}

/** The largest and the 95th percentile (nearest rank) of answer times. */
export function answerSummary(times: number[]): { count: number; max: number; p95: number } {
  const sorted = [...times].sort((a, b) => a - b)
  const rank = Math.max(0, Math.ceil(0.95 * sorted.length) - 1)
  return { count: sorted.length, max: sorted.at(-1) ?? 0, p95: sorted[rank] ?? 0 }
}
