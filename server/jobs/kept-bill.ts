import { AppError } from '../errors.ts'
import type { JobRecord, JobStore } from './types.ts'

/** Why a kept bill is wanted: said in the 409 when the job has none. */
export type BillPurpose = 'price' | 'compare'

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
