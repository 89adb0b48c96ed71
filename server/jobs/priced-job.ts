import type { ClassificationEntry, TakeoffRule } from '../../contract/takeoff-rules.ts'
import type { ChangesFrom } from '../boq/write/files.ts'
import { AppError } from '../errors.ts'
import type { BillPool } from './bill-pool.ts'
import type { RecordedFiles } from './bill-tasks.ts'
import type { JobRecord, JobStore } from './types.ts'

/** A table to price with, and its saved version (null: the request's own, unsaved). */
export interface PriceWith<T> {
  rows: T[]
  version: number | null
}

/** Why a kept bill is wanted: said in the 409 when the job has none. */
export type BillPurpose = 'price' | 'compare'

/**
 * A finished job's kept bill priced with the given rules and classification, in the bill pool:
 * no drawing is read. The answer is the PricedJob's JSON; with `files`, also the job's files
 * made again with the priced bill (a new bill of record, its Changes sheet against `earlier`).
 */
export async function priceJob(
  bills: BillPool,
  store: JobStore,
  job: JobRecord,
  rules: PriceWith<TakeoffRule>,
  classification: PriceWith<ClassificationEntry>,
  files?: { earlier?: ChangesFrom },
): Promise<{ json: Uint8Array; files?: RecordedFiles }> {
  const answer = await bills.run({
    kind: 'price',
    bill: await keptBillBytes(store, job, 'price'),
    jobId: job.id,
    rules: rules.rows,
    rulesVersion: rules.version,
    classification: classification.rows,
    classificationVersion: classification.version,
    ...(files ? { workbook: files } : {}),
  })
  // Saved tables were checked when saved; an engine that checks more now says so here.
  if ('rulesError' in answer) throw new AppError(400, `The rules: ${answer.rulesError}.`)
  if ('stale' in answer) throw staleBill(job, 'price')
  if (!('bytes' in answer)) throw new Error('The priced bill was not written.')
  return { json: answer.bytes, ...(answer.files ? { files: answer.files } : {}) }
}

/**
 * The bytes of the bill a finished job kept, for pricing or comparing; 409 saying why when it
 * has none (not finished, failed, or kept before bills were). Read here, parsed in the bill pool.
 */
export async function keptBillBytes(
  store: JobStore,
  job: JobRecord,
  purpose: BillPurpose,
): Promise<Uint8Array> {
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
  if (!bytes) throw staleBill(job, purpose)
  return bytes
}

/** The 409 of a job whose kept bill is not a bill of this version of BOQ. */
export function staleBill(job: JobRecord, purpose: BillPurpose): AppError {
  return new AppError(
    409,
    `The extraction of ${job.fileName} was made before bills were kept for ${purpose === 'price' ? 'pricing' : 'comparing'}; extract it again.`,
  )
}
