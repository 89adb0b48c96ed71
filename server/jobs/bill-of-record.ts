import { AppError } from '../errors.ts'
import type { BillOfRecord, JobRecord, JobResult } from './types.ts'

/**
 * What a succeeded job says of its results once `bill` is its bill of record: the bill's
 * warnings and Changes sheet in place of the earlier ones, and the workbook written back, if
 * any, as the result beside the drawing. 409 for a job that has no result to replace.
 */
export function resultWithBill(job: JobRecord, bill: BillOfRecord): JobResult {
  if (job.status !== 'succeeded' || !job.result) {
    throw new AppError(409, `The extraction of ${job.fileName} has no bill to replace.`)
  }
  const { comparedWith: _compared, changedLines: _changed, ...kept } = job.result
  const { comparedWith, changedLines, ...said } = bill.result
  return {
    ...kept,
    ...said,
    ...(comparedWith ? { comparedWith } : {}),
    ...(changedLines === undefined ? {} : { changedLines }),
    ...(bill.written ?? {}),
  }
}
