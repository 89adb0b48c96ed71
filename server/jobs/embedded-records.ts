import { join } from 'node:path'
import { AppError } from '../errors.ts'
import { writeFileAtomic } from '../lib/atomic-write.ts'
import type { StoredJob } from './stored-job.ts'
import type { JobChange, JobRecord, ResultFormat } from './types.ts'

/**
 * The embedded store's records: the in-memory map (the working copy) and each job's `job.json`
 * under `root` (the truth on start), written in order per job, a change shown to readers only
 * once it is on disk.
 */
export type JobRecords = ReturnType<typeof jobRecords>

export function jobRecords(
  root: string,
  options: { log: (message: string) => void; onChange: (change: JobChange) => void },
) {
  const jobs = new Map<string, StoredJob>()
  const writes = new Map<string, Promise<void>>()
  const dirOf = (id: string) => join(root, id)

  /** Writes one state of a job; writes of one job run one after another, in order. */
  function persist(id: string, stored: StoredJob): Promise<void> {
    const previous = writes.get(id) ?? Promise.resolve()
    const next = previous
      .catch(() => {})
      .then(async () => {
        const { progress: _progress, ...job } = stored.job
        await writeFileAtomic(join(dirOf(id), 'job.json'), JSON.stringify({ ...stored, job }))
      })
    writes.set(id, next)
    void next
      .finally(() => {
        if (writes.get(id) === next) writes.delete(id)
      })
      .catch(() => {})
    return next
  }

  /**
   * Changes a job: the new state is written first and shown to readers only once it is on disk,
   * so what the API has answered survives a kill -9.
   */
  async function commit(
    id: string,
    patch: Partial<JobRecord>,
    credentials?: 'drop',
    billRevision?: number,
  ): Promise<void> {
    const current = jobs.get(id)
    if (!current) throw new AppError(404, 'No such job.')
    const next: StoredJob = {
      ...current,
      job: { ...current.job, ...patch, updatedAt: new Date().toISOString() },
    }
    if (credentials === 'drop') delete next.credentials
    if (billRevision !== undefined) next.billRevision = billRevision
    await persist(id, next)
    if (jobs.has(id)) jobs.set(id, next)
    if (next.job.status !== current.job.status) changed({ job: next.job, previous: current.job })
  }

  function changed(change: JobChange): void {
    try {
      options.onChange({
        job: { ...change.job },
        ...(change.previous ? { previous: { ...change.previous } } : {}),
      })
    } catch (error) {
      options.log(`jobs: the change listener failed: ${String(error)}`)
    }
  }

  return {
    jobs,
    writes,
    dirOf,
    /**
     * A result's file. A re-priced bill of record is written beside the one it replaces
     * (`result-2.json`), and the record names it: the bill's three files change at once.
     */
    resultPath: (id: string, format: ResultFormat, revision = 0) =>
      join(
        dirOf(id),
        revision === 0 || format === 'geometry'
          ? `result.${format}`
          : `result-${revision}.${format}`,
      ),
    revisionOf: (id: string) => jobs.get(id)?.billRevision ?? 0,
    persist,
    commit,
    changed,
    /** The job, or 404. */
    existing(id: string): StoredJob {
      const stored = jobs.get(id)
      if (!stored) throw new AppError(404, 'No such job.')
      return stored
    },
  }
}

export function isFinished(job: JobRecord): boolean {
  return job.status === 'succeeded' || job.status === 'failed'
}

export function oldestFirst(a: StoredJob, b: StoredJob): number {
  return a.job.createdAt.localeCompare(b.job.createdAt)
}

export function newestFirst(a: StoredJob, b: StoredJob): number {
  return b.job.createdAt.localeCompare(a.job.createdAt)
}
