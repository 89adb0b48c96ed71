import { LRUCache } from 'lru-cache'
import type { ComparedBill } from '#contract/compare.ts'
import type { BillPool } from './bill-pool.ts'
import { keptBillBytes, staleBill } from './kept-bill.ts'
import { differentDrawings } from './same-drawing.ts'
import type { JobRecord, JobStore } from './types.ts'

/**
 * The change bill from one finished job to another, from the jobs' bills of record (the bills
 * they kept: neither drawing is read again), written as JSON, CSV or XLSX in the bill pool. Jobs of two different
 * drawings are said to be so. A job that is not finished, or whose bill was not kept, is a 409
 * saying why.
 */
export async function changeBillOf(
  bills: BillPool,
  store: JobStore,
  from: JobRecord,
  to: JobRecord,
  format: ChangeBillFormat,
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

export type ChangeBillFormat = 'json' | 'csv' | 'xlsx'

/**
 * Change bills made once and kept: a finished job's bill changes only when it is re-priced (its
 * record changes with it), so the same two jobs as they are in the same format give the same
 * bytes. Asked again while being made, the one being made is waited for. The newest are kept, up
 * to a bound on their bytes.
 */
export function changeBillCache(bills: BillPool, store: JobStore, maxBytes = 64 * 1024 * 1024) {
  type Asked = { from: JobRecord; to: JobRecord; format: ChangeBillFormat }
  const cache = new LRUCache<string, Uint8Array, Asked>({
    maxSize: maxBytes,
    sizeCalculation: (bytes) => Math.max(1, bytes.byteLength),
    fetchMethod: (_key, _stale, { context }) =>
      changeBillOf(bills, store, context.from, context.to, context.format),
  })
  return {
    async of(from: JobRecord, to: JobRecord, format: ChangeBillFormat): Promise<Uint8Array> {
      const key = [from.id, from.updatedAt, to.id, to.updatedAt, format].join('\n')
      const bytes = await cache.fetch(key, {
        context: { from, to, format },
      })
      if (!bytes) throw new Error('The change bill was not made.')
      return bytes
    },
  }
}

function compared(job: JobRecord): ComparedBill {
  return { jobId: job.id, fileName: job.fileName, versionNumber: job.fileVersionNumber ?? null }
}
