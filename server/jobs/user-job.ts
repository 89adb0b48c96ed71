import { AppError } from '../errors.ts'
import type { JobRecord, JobStore } from './types.ts'

/** The job when it belongs to the user; another user's job is as unknown as a missing one (404). */
export async function userJob(
  store: JobStore,
  userId: string,
  id: string | undefined,
): Promise<JobRecord> {
  const job = id ? await store.get(id) : undefined
  if (!job || job.userId !== userId) throw new AppError(404, 'There is no such job.')
  return job
}
