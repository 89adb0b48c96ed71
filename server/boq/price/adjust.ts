import type { Adjustment } from '#contract/bill-settings.ts'
import { unitDecimals } from '#contract/figures.ts'
import type { PricedAdjustment } from '#contract/takeoff-rules.ts'
import { figureProblem } from './figures.ts'
import { roundTo } from './rounding.ts'

/**
 * The bill settings' adjustments below the items, in order, each billed as the workbook's
 * formulas bill it: a percentage of the running total (rounded to the currency's decimals, as the
 * total it is of), a fixed sum, a manual item (its quantity to its unit's decimals × its rate), a
 * tax of the total before tax. An amount past the largest figure, or one that would take the
 * total past it, is left out (0) and said in `warnings`.
 */
export function adjust(
  itemsTotal: number,
  adjustments: Adjustment[],
  billing: { amountDecimals: number; unitDecimals: Record<string, number> },
): { adjustments: PricedAdjustment[]; total: number; warnings: string[] } {
  const billed = (figure: number) => roundTo(figure, billing.amountDecimals)
  const said = (figure: number) =>
    figure.toLocaleString('en-US', {
      minimumFractionDigits: billing.amountDecimals,
      maximumFractionDigits: billing.amountDecimals,
    })
  const priced: PricedAdjustment[] = []
  const warnings: string[] = []
  let total = itemsTotal
  let beforeTax: number | null = null
  for (const adjustment of adjustments) {
    let line: PricedAdjustment
    if (adjustment.kind === 'percent' || adjustment.kind === 'tax') {
      const tax = adjustment.kind === 'tax'
      beforeTax = tax ? (beforeTax ?? total) : null
      const of = tax ? (beforeTax as number) : total
      line = {
        kind: adjustment.kind,
        name: adjustment.name,
        basis: `${adjustment.percent}% of ${said(of)}${tax ? ' (the total before tax)' : ''}`,
        percent: adjustment.percent,
        of,
        amount: billed((adjustment.percent * of) / 100),
      }
    } else if (adjustment.kind === 'sum') {
      line = {
        kind: 'sum',
        name: adjustment.name,
        basis: 'fixed sum',
        amount: billed(adjustment.amount),
      }
    } else {
      const decimals = unitDecimals(adjustment.unit, billing.unitDecimals)
      const quantity = roundTo(adjustment.quantity, decimals)
      const amount = billed(quantity * adjustment.rate)
      const omit = adjustment.omit === true
      line = {
        kind: 'item',
        name: adjustment.name,
        basis: `${omit ? 'omit' : 'add'} ${quantity.toLocaleString('en-US', { maximumFractionDigits: decimals })} ${adjustment.unit} × ${adjustment.rate.toLocaleString('en-US', { minimumFractionDigits: billing.amountDecimals, maximumFractionDigits: 10 })}`,
        quantity,
        unit: adjustment.unit,
        decimals,
        rate: adjustment.rate,
        ...(omit ? { omit } : {}),
        amount: omit && amount !== 0 ? -amount : amount,
      }
    }
    const problem = figureProblem(line.amount) ?? figureProblem(total + line.amount)
    if (problem) {
      warnings.push(
        `The adjustment ${line.name} (${line.basis}) would take the bill past the largest figure; it is left out.`,
      )
      line.amount = 0
    }
    total = billed(total + line.amount)
    priced.push(line)
  }
  return { adjustments: priced, total, warnings }
}
