import type { ChangeBill, ComparedBill } from '../../contract/compare.ts'
import { compareBills } from '../boq/compare.ts'
import { BOQ_SCHEMA_VERSION, type Boq } from '../boq/schema.ts'
import { AppError } from '../errors.ts'
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
  const [before, after] = await Promise.all([keptBill(store, from), keptBill(store, to)])
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

async function keptBill(store: JobStore, job: JobRecord): Promise<Boq> {
  if (job.status !== 'succeeded') {
    throw new AppError(
      409,
      job.status === 'failed'
        ? `The extraction of ${job.fileName} failed, so it has no bill to compare.`
        : `The extraction of ${job.fileName} has not finished yet; compare once it has.`,
    )
  }
  const bytes = await store.readResult(job.id, 'json')
  // Our own output, read as it was written: its schema version says whether it is a bill of now.
  const bill = bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as Boq) : undefined
  if (bill?.schema !== 'boq' || bill.version !== BOQ_SCHEMA_VERSION) {
    throw new AppError(
      409,
      `The extraction of ${job.fileName} was made before bills were kept for comparing; extract it again.`,
    )
  }
  return bill
}
