/** Small statistics for benches: a machine shared by others is noisy, so print median and spread. */

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** `median 12.3 ms (min 11.9, max 15.0, n=5)` */
export function describeMs(values: number[]): string {
  const fixed = (value: number) => value.toFixed(1)
  return `median ${fixed(median(values))} ms (min ${fixed(Math.min(...values))}, max ${fixed(Math.max(...values))}, n=${values.length})`
}

/** `0.87x of target 100 (ok)` — a figure against a ceiling. */
export function versusTarget(value: number, target: number, unit = ''): string {
  const verdict = value <= target ? 'ok' : 'OVER TARGET'
  return `${(value / target).toFixed(3)}x of target ${target}${unit} (${verdict})`
}
