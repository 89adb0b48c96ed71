import type { BillKind } from '#contract/bill-kinds.ts'
import type { PricedItem } from '#contract/takeoff-rules.ts'
import { BOQ_SCHEMA_VERSION, type Boq } from '../boq/model/schema.ts'
import { RulesError } from '../boq/price/errors.ts'
import { type PricingTables, priceWithTables } from '../boq/price/price.ts'
import type { KeptUnits } from './kept-units.ts'

/**
 * A measured line of a drawing's bill, as the project bill sums it: kind, description, unit and
 * quantity (a tuple: a part is kept and read often, and a drawing may have thousands of lines).
 */
export type MeasuredFigure = [kind: BillKind, description: string, unit: string, quantity: number]

export type PartItem = Pick<
  PricedItem,
  'section' | 'code' | 'description' | 'unit' | 'rate' | 'quantity' | 'amount'
>

/**
 * What a project bill takes of a drawing's kept bill: its units, its measured lines, and its
 * priced items and total (`items` null: not priced, the bill stays measured), with its warnings.
 * A few kilobytes where the kept bill is megabytes (breakdowns, handles, references).
 */
export interface DrawingPart {
  units: KeptUnits
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

/** A drawing's warnings the bill carries at most (its job keeps as many). */
const MAX_WARNINGS = 20

/**
 * The part of a kept BOQ JSON, made in the bill pool's thread: its own priced bill taken, or
 * with `price` the bill priced with those tables (a priced bill it keeps is of others); tables
 * that do not check leave it measured. Null when it is not a bill of this version of BOQ.
 */
export function drawingPartOf(json: Uint8Array, price?: PricingTables): PartAnswer | null {
  let boq: Boq
  try {
    boq = JSON.parse(new TextDecoder().decode(json)) as Boq
  } catch {
    return null
  }
  if (boq?.schema !== 'boq' || boq.version !== BOQ_SCHEMA_VERSION) return null
  if (!price) return { part: partOf(boq, boq.priced) }
  try {
    return { part: partOf(boq, priceWithTables(boq, price)) }
  } catch (error) {
    if (!(error instanceof RulesError)) throw error
    return { part: partOf(boq, undefined), rulesProblem: error.message }
  }
}

function partOf(boq: Boq, bill: Boq['priced']): DrawingPart {
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
