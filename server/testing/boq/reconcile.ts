import { expect } from 'vitest'

/*
 * A bill checked as a person checks it by hand: every line's printed quantity × printed rate is
 * its printed amount to the cent, and the printed amounts add up to the printed sums. Figures are
 * worked out in whole cents and thousandths, never in floating point.
 */

/** A figure printed with at most two decimals, in cents. */
export function cents(figure: number): number {
  return Math.round(figure * 100)
}

/**
 * quantity × rate ÷ per in cents, rounded half away from zero (rates of at most three decimals;
 * per 100 for a percentage).
 */
export function byHand(quantity: number, rate: number, per = 1): number {
  const product = cents(quantity) * Math.round(rate * 1000)
  const divisor = 1000 * per
  const whole = Math.floor(Math.abs(product) / divisor)
  const rest = Math.abs(product) % divisor
  return Math.sign(product) * (rest * 2 >= divisor ? whole + 1 : whole)
}

/** A printed line: quantity × rate (÷ `per`, 100 for a percentage) should be its amount. */
export type PrintedLine = {
  what: string
  quantity: number
  rate: number
  amount: number
  per?: number
}

/** Each line multiplies out, to the cent, as printed (an omission's amount taken off). */
export function expectMultipliesOut(lines: PrintedLine[]): void {
  expect(lines.length).toBeGreaterThan(0)
  for (const line of lines) {
    expect(
      Math.abs(cents(line.amount)),
      `${line.what}: ${line.quantity} × ${line.rate}${line.per ? ` ÷ ${line.per}` : ''}`,
    ).toBe(byHand(line.quantity, line.rate, line.per))
  }
}

/** The amounts printed above a sum add up to it, to the cent. */
export function expectAddsUp(what: string, amounts: number[], sum: number): void {
  const added = amounts.reduce((total, amount) => total + cents(amount), 0)
  expect(cents(sum), what).toBe(added)
}

/** A figure as a spreadsheet prints it (`1,004.80`, `€1,004.80`, `-600.00`), as a number. */
export function printedFigure(text: string | undefined): number {
  const figure = Number((text ?? '').replace(/[^\d.-]/g, ''))
  if ((text ?? '').trim() === '' || Number.isNaN(figure)) throw new Error(`not a figure: ${text}`)
  return figure
}
