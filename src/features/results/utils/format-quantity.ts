const whole = new Intl.NumberFormat('en', { maximumFractionDigits: 0 })
const measure = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/** A count as the bill shows it: whole, with thousands separated (`1,204`). */
export function formatCount(value: number): string {
  return whole.format(value)
}

/** A length or an area as the bill shows it: two decimals (`4,451.93`). */
export function formatMeasure(value: number): string {
  return measure.format(value)
}

/** A bill quantity: counts whole, lengths and areas to two decimals. */
export function formatQuantity(kind: 'count' | 'length' | 'area', value: number): string {
  return kind === 'count' ? formatCount(value) : formatMeasure(value)
}
