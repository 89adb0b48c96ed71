const whole = new Intl.NumberFormat('en', { maximumFractionDigits: 0 })
const measure = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
/** Two significant figures, for a measure that two decimals would show as 0.00. */
const small = new Intl.NumberFormat('en', { maximumSignificantDigits: 2 })
const SMALLEST_SHOWN = 0.005

/** A count as the bill shows it: whole, with thousands separated (`1,204`). */
export function formatCount(value: number): string {
  return whole.format(value)
}

/**
 * A length or an area as the bill shows it: two decimals (`4,451.93`); one too small for them in
 * figures that say it is not nothing (`0.0000032`), never as 0.00.
 */
export function formatMeasure(value: number): string {
  if (value !== 0 && Math.abs(value) < SMALLEST_SHOWN) return small.format(value)
  return measure.format(value)
}

/** A bill quantity: counts whole, lengths and areas to two decimals. */
export function formatQuantity(kind: 'count' | 'length' | 'area', value: number): string {
  return kind === 'count' ? formatCount(value) : formatMeasure(value)
}
