/**
 * A figure rounded as a spreadsheet's ROUND does it: half away from zero at the decimal digit,
 * reading the figure as its shortest decimal (1.005 → 1.01, though the double is 1.00499…), so
 * that the JSON and the workbook's formulas give the same billed figures.
 */
export function roundTo(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return value
  const shifted = Math.round(shift(Math.abs(value), decimals))
  if (shifted === 0) return 0
  return Math.sign(value) * shift(shifted, -decimals)
}

/** value × 10^by, moved in its decimal text, so that no binary error creeps in. */
function shift(value: number, by: number): number {
  const [digits, exponent = '0'] = String(value).split('e')
  return Number(`${digits}e${Number(exponent) + by}`)
}
