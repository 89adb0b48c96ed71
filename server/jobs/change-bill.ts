import type { ChangeBill, ComparedBill } from '../../contract/compare.ts'
import { compareBills } from '../boq/compare.ts'
import { keptBill } from './priced-job.ts'
import { differentDrawings } from './same-drawing.ts'
import type { JobRecord, JobStore } from './types.ts'

/**
 * The change bill from one finished job to another, from the bills the jobs kept: neither
 * drawing is read again. Jobs of two different drawings are said to be so. A job that is not
 * finished, or whose bill was not kept, is a 409 saying why.
 */
export async function changeBillOf(
  store: JobStore,
  from: JobRecord,
  to: JobRecord,
): Promise<ChangeBill> {
  const [before, after] = await Promise.all([
    keptBill(store, from, 'compare'),
    keptBill(store, to, 'compare'),
  ])
  const notice = differentDrawings(from, to)
  return {
    from: compared(from),
    to: compared(to),
    ...(notice === undefined ? {} : { differentDrawings: notice }),
    ...compareBills(before, after),
  }
}

function compared(job: JobRecord): ComparedBill {
  return { jobId: job.id, fileName: job.fileName, versionNumber: job.fileVersionNumber ?? null }
}
