import type { BillKind } from '#contract/bill-kinds.ts'
import type { PricedItem } from '#contract/takeoff-rules.ts'
import type { Boq } from '../model/schema.ts'

/**
 * A measured line of a drawing's bill, as a project bill sums it: kind, description, unit and
 * quantity (a tuple: a part is kept and read often, and a drawing may have thousands of lines).
 */
export type MeasuredFigure = [kind: BillKind, description: string, unit: string, quantity: number]

export type PartItem = Pick<
  PricedItem,
  'section' | 'code' | 'description' | 'unit' | 'rate' | 'quantity' | 'amount'
>

/**
 * What a project bill takes of a drawing's bill: its units, its measured lines, and its priced
 * items and total (`items` null: not priced, the bill stays measured), with its warnings. A few
 * kilobytes where the bill's JSON is megabytes (breakdowns, handles, references).
 */
export interface DrawingPart {
  units: { length: string; area: string }
  lines: MeasuredFigure[]
  items: PartItem[] | null
  total: number
  warnings: string[]
}

/** A part as made: with why it is measured only when the rules could not price it. */
export interface PartAnswer {
  part: DrawingPart
  rulesProblem?: string
}

/** A drawing's warnings a part carries at most (its job keeps as many). */
const MAX_WARNINGS = 20

/** The part of `boq` priced as `bill` (none: measured only). */
export function partOf(boq: Boq, bill: Boq['priced']): DrawingPart {
  const warnings = [...new Set([...boq.warnings, ...(bill?.warnings ?? [])])]
  return {
    units: { length: boq.units.length, area: boq.units.area },
    lines: boq.bill.map(({ kind, description, unit, quantity }) => [
      kind,
      description,
      unit,
      quantity,
    ]),
    items: bill
      ? bill.items.map(({ section, code, description, unit, rate, quantity, amount }) => ({
          section,
          code,
          description,
          unit,
          rate,
          quantity,
          amount,
        }))
      : null,
    total: bill?.total ?? 0,
    warnings: warnings.slice(0, MAX_WARNINGS),
  }
}
