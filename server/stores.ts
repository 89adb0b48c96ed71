import type { Config } from './config.ts'
import { openEmbeddedJobStore } from './jobs/embedded-store.ts'
import { createJobLog } from './jobs/job-log.ts'
import { openPostgresJobStore } from './jobs/pg/postgres-store.ts'
import type { JobChange, JobStore } from './jobs/types.ts'
import { log } from './log.ts'
import { openEmbeddedWatchStore } from './watches/store/embedded-store.ts'
import { openPostgresWatchStore } from './watches/store/pg/postgres-store.ts'
import type { WatchStore } from './watches/store/types.ts'

/** The jobs' store and the watches', kept side by side. */
export interface Stores {
  jobs: JobStore
  watches: WatchStore
  /** Closes the watch store, then the job store (whose pool the watches may share). */
  close(): Promise<void>
}

/**
 * Opens the job store and the watch store in one place: on PostgreSQL when BOQ_DATABASE_URL names
 * one (the watches on the job store's pool, whose migrations make both's tables), else both in
 * the data folder. Every change of a job's status is logged, and `jobEnded` is told of each job
 * that ends in this process.
 */
export async function openStores(options: {
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 'jobRetentionDays' | 'jobRecoverySeconds'>
  /** Seals the access tokens kept with queued jobs, and the standing grants. */
  tokenKey: Uint8Array
  jobEnded: () => void
}): Promise<Stores> {
  const { config, tokenKey } = options
  const logChange = createJobLog(log)
  const onChange = (change: JobChange) => {
    logChange(change)
    if (change.job.status === 'succeeded' || change.job.status === 'failed') options.jobEnded()
  }
  if (config.databaseUrl) {
    const jobs = await openPostgresJobStore({
      url: config.databaseUrl,
      tokenKey,
      recoverySeconds: config.jobRecoverySeconds,
      retentionDays: config.jobRetentionDays,
      onChange,
    })
    return sideBySide(jobs, openPostgresWatchStore({ db: jobs.db, tokenKey }))
  }
  const jobs = await openEmbeddedJobStore({
    dataDir: config.dataDir,
    tokenKey,
    retentionDays: config.jobRetentionDays,
    onChange,
  })
  const watches = await openEmbeddedWatchStore({ dataDir: config.dataDir, tokenKey }).catch(
    async (error: unknown) => {
      await jobs.close()
      throw error
    },
  )
  return sideBySide(jobs, watches)
}

function sideBySide(jobs: JobStore, watches: WatchStore): Stores {
  return {
    jobs,
    watches,
    async close() {
      await watches.close()
      await jobs.close()
    },
  }
}
