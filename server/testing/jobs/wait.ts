/** Polls until `check` returns a value other than undefined/false (tests only; no wall-clock asserts). */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what = 'condition',
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
