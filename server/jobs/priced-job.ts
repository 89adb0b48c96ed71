import type { ClassificationEntry, TakeoffRule } from '../../contract/takeoff-rules.ts'
import type { PricedJob } from '../../contract/takeoff-rules-api.ts'
import { RulesError } from '../boq/rules/errors.ts'
import { compileClassification, compileRuleSet, priceBill } from '../boq/rules/price.ts'
import { BOQ_SCHEMA_VERSION, type Boq } from '../boq/schema.ts'
import { AppError } from '../errors.ts'
import type { JobRecord, JobStore } from './types.ts'

/** A table to price with, and its saved version (null: the request's own, unsaved). */
export interface PriceWith<T> {
  rows: T[]
  version: number | null
}

/**
 * A finished job's kept bill (keptBill) priced with the given rules and classification: no
 * drawing is read. Runs on the request's thread (a 10,000-line bill prices in about a tenth of a
 * second).
 */
export function priceJob(
  job: JobRecord,
  boq: Boq,
  rules: PriceWith<TakeoffRule>,
  classification: PriceWith<ClassificationEntry>,
): PricedJob {
  try {
    const priced = priceBill(
      boq,
      compileRuleSet(rules.rows),
      compileClassification(classification.rows),
    )
    return {
      jobId: job.id,
      rulesVersion: rules.version,
      classificationVersion: classification.version,
      priced,
    }
  } catch (error) {
    // Saved tables were checked when saved; an engine that checks more now says so here.
    if (error instanceof RulesError) throw new AppError(400, `The rules: ${error.message}.`)
    throw error
  }
}

/**
 * The bill a finished job kept, for pricing or comparing; 409 saying why when it has none (not
 * finished, failed, or kept before bills were).
 */
export async function keptBill(
  store: JobStore,
  job: JobRecord,
  purpose: 'price' | 'compare',
): Promise<Boq> {
  const what = `The extraction of ${job.fileName}`
  if (job.status !== 'succeeded') {
    throw new AppError(
      409,
      job.status === 'failed'
        ? `${what} failed, so it has no bill to ${purpose}.`
        : `${what} has not finished yet; ${purpose} once it has.`,
    )
  }
  const bytes = await store.readResult(job.id, 'json')
  // Our own output, read as it was written: its schema version says whether it is a bill of now.
  const bill = bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as Boq) : undefined
  if (bill?.schema !== 'boq' || bill.version !== BOQ_SCHEMA_VERSION) {
    throw new AppError(
      409,
      `${what} was made before bills were kept for ${purpose === 'price' ? 'pricing' : 'comparing'}; extract it again.`,
    )
  }
  return bill
}
