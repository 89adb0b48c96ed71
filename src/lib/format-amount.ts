import { formatCount, formatMeasure } from './format-quantity'

const money = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/** An amount, a rate or a total: two decimals, thousands separated (`12,480.50`). */
export function formatAmount(value: number): string {
  return money.format(value)
}

/**
 * A priced item's quantity: whole when it is whole (`8`), else as the bill shows a length or an
 * area (`12.64`; one too small for two decimals in figures that say it is not nothing).
 */
export function formatItemQuantity(value: number): string {
  return Number.isInteger(value) ? formatCount(value) : formatMeasure(value)
}

/** A billed figure with exactly the decimals it was billed to (`131.00` m², `8` nr). */
export function formatBilled(value: number, decimals: number): string {
  return value.toLocaleString('en', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  })
}

/** A rate as given: at least the amounts' decimals, all of its own (`7.125`). */
export function formatRate(value: number, amountDecimals = 2): string {
  return value.toLocaleString('en', {
    minimumFractionDigits: amountDecimals,
    maximumFractionDigits: Math.max(amountDecimals, 10),
  })
}
