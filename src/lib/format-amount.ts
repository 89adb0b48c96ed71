const money = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
const whole = new Intl.NumberFormat('en', { maximumFractionDigits: 0 })
const small = new Intl.NumberFormat('en', { maximumSignificantDigits: 2 })
const SMALLEST_SHOWN = 0.005

/** An amount, a rate or a total: two decimals, thousands separated (`12,480.50`). */
export function formatAmount(value: number): string {
  return money.format(value)
}

/**
 * A priced item's quantity: whole when it is whole (`8`), else two decimals (`12.64`); one too
 * small for them in figures that say it is not nothing, never as 0.00.
 */
export function formatItemQuantity(value: number): string {
  if (Number.isInteger(value)) return whole.format(value)
  if (Math.abs(value) < SMALLEST_SHOWN) return small.format(value)
  return money.format(value)
}
