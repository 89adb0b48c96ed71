import type { BillSettings } from '#contract/bill-settings.ts'
import type { ClassificationEntry, TakeoffRule } from '#contract/takeoff-rules.ts'
import type { ChangesFrom } from '../boq/write/files.ts'
import { AppError } from '../errors.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import type { RecordedFiles } from '../jobs/bill-tasks.ts'
import { keptBillBytes, staleBill } from '../jobs/kept-bill.ts'
import type { JobRecord, JobStore } from '../jobs/types.ts'

/** A table to price with, and its saved version (null: the request's own, unsaved). */
export interface PriceWith<T> {
  rows: T[]
  version: number | null
}

/** The project's bill settings a bill is priced with, and their version (0: none saved). */
export interface SettingsWith {
  settings: BillSettings
  version: number
}

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
  settings?: SettingsWith,
): Promise<{ json: Uint8Array; files?: RecordedFiles }> {
  const answer = await bills.run({
    kind: 'price',
    bill: await keptBillBytes(store, job, 'price'),
    jobId: job.id,
    rules: rules.rows,
    rulesVersion: rules.version,
    classification: classification.rows,
    classificationVersion: classification.version,
    ...(settings ? { settings: settings.settings, settingsVersion: settings.version } : {}),
    ...(files ? { workbook: files } : {}),
  })
  // Saved tables were checked when saved; an engine that checks more now says so here.
  if ('rulesError' in answer) throw new AppError(400, `The rules: ${answer.rulesError}.`)
  if ('stale' in answer) throw staleBill(job, 'price')
  if (!('bytes' in answer)) throw new Error('The priced bill was not written.')
  return { json: answer.bytes, ...(answer.files ? { files: answer.files } : {}) }
}
