import { rm } from 'node:fs/promises'
import { isFinished, type JobRecords, newestFirst } from './embedded-records.ts'

/** Deletes a user's finished jobs past the newest `keepPerUser`, and any past the retention. */
export function pruner(records: JobRecords, keepPerUser: number, retentionMs: number) {
  return async function prune(userId?: string): Promise<void> {
    const { jobs, writes } = records
    const oldest = new Date(Date.now() - retentionMs).toISOString()
    const finished = [...jobs.values()]
      .filter((s) => (userId === undefined || s.job.userId === userId) && isFinished(s.job))
      .sort(newestFirst)
    const perUser = new Map<string, number>()
    for (const stale of finished) {
      const rank = (perUser.get(stale.job.userId) ?? 0) + 1
      perUser.set(stale.job.userId, rank)
      if (rank <= keepPerUser && stale.job.createdAt >= oldest) continue
      jobs.delete(stale.job.id)
      await writes.get(stale.job.id)?.catch(() => {})
      await rm(records.dirOf(stale.job.id), { recursive: true, force: true })
    }
  }
}
