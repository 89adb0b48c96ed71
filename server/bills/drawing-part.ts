import { BOQ_SCHEMA_VERSION, type Boq } from '../boq/model/schema.ts'
import { RulesError } from '../boq/price/errors.ts'
import { type PricingTables, priceWithTables } from '../boq/price/price.ts'
import { type PartAnswer, partOf } from '../boq/write/part.ts'

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
