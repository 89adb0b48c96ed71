import type { ComparedBill } from '../../contract/compare.ts'
import type { BillPool } from './bill-pool.ts'
import { keptBillBytes, staleBill } from './priced-job.ts'
import { differentDrawings } from './same-drawing.ts'
import type { JobRecord, JobStore } from './types.ts'

/**
 * The change bill from one finished job to another, from the bills the jobs kept (neither
 * drawing is read again), written as JSON, CSV or XLSX in the bill pool. Jobs of two different
 * drawings are said to be so. A job that is not finished, or whose bill was not kept, is a 409
 * saying why.
 */
export async function changeBillOf(
  bills: BillPool,
  store: JobStore,
  from: JobRecord,
  to: JobRecord,
  format: 'json' | 'csv' | 'xlsx',
): Promise<Uint8Array> {
  const [before, after] = await Promise.all([
    keptBillBytes(store, from, 'compare'),
    keptBillBytes(store, to, 'compare'),
  ])
  const notice = differentDrawings(from, to)
  const answer = await bills.run({
    kind: 'change-bill',
    before,
    after,
    from: compared(from),
    to: compared(to),
    ...(notice === undefined ? {} : { differentDrawings: notice }),
    format,
  })
  if ('stale' in answer) throw staleBill(answer.stale === 0 ? from : to, 'compare')
  if (!('bytes' in answer)) throw new Error('The change bill was not written.')
  return answer.bytes
}

function compared(job: JobRecord): ComparedBill {
  return { jobId: job.id, fileName: job.fileName, versionNumber: job.fileVersionNumber ?? null }
}
