import { formatAmount } from '../../../lib/format-amount'
import type { ChangeLine } from '../api/compare-api'

const whole = new Intl.NumberFormat('en', { maximumFractionDigits: 0 })
const measure = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
const percent = new Intl.NumberFormat('en', { maximumFractionDigits: 1 })

/** A quantity as the bill shows it: counts whole, lengths and areas to two decimals. */
export function formatQuantity(line: ChangeLine, value: number): string {
  return (line.kind === 'count' ? whole : measure).format(value)
}

/** The change with its sign: `+2`, `−3`, `+7.50`; no sign for none. */
export function formatChange(line: ChangeLine): string {
  const text = formatQuantity(line, Math.abs(line.change))
  if (line.change > 0) return `+${text}`
  if (line.change < 0) return `−${text}`
  return text
}

/** The change in %, signed; a dash when there was nothing before. */
export function formatPercent(line: ChangeLine): string {
  if (line.changePercent === null) return '–'
  const text = `${percent.format(Math.abs(line.changePercent))}%`
  if (line.changePercent > 0) return `+${text}`
  if (line.changePercent < 0) return `−${text}`
  return text
}

/** `Door - Imperial: 12 → 14 nr, +2`: one line for a person. */
export function describeChange(line: ChangeLine): string {
  return `${line.description}: ${formatQuantity(line, line.before)} → ${formatQuantity(line, line.after)} ${line.unit}, ${formatChange(line)}`
}

/** An amount's change with its sign, two decimals: `+1,250.00`, `−300.00`; no sign for none. */
export function formatAmountChange(value: number): string {
  const text = formatAmount(Math.abs(value))
  if (value > 0) return `+${text}`
  if (value < 0) return `−${text}`
  return text
}
