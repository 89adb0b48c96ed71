import { openEmbeddedBillStore } from './bills/embedded-bill-store.ts'
import { openPostgresBillStore } from './bills/pg/postgres-bill-store.ts'
import type { BillStore } from './bills/types.ts'
import type { Config } from './config.ts'
import { openEmbeddedJobStore } from './jobs/embedded-store.ts'
import { createJobLog } from './jobs/job-log.ts'
import { openPostgresJobStore } from './jobs/pg/postgres-store.ts'
import type { JobChange, JobRecord, JobStore } from './jobs/types.ts'
import { log } from './log.ts'
import { openEmbeddedRulesStore } from './rules/store/embedded-store.ts'
import { openPostgresRulesStore } from './rules/store/pg/postgres-store.ts'
import type { RulesStore } from './rules/store/types.ts'
import { openEmbeddedWatchStore } from './watches/store/embedded-store.ts'
import { openPostgresWatchStore } from './watches/store/pg/postgres-store.ts'
import type { WatchStore } from './watches/store/types.ts'

/** The jobs' store, the watches', the project bills' and the projects' rules', side by side. */
export interface Stores {
  jobs: JobStore
  watches: WatchStore
  bills: BillStore
  rules: RulesStore
  /** Closes the bill, watch and rules stores, then the job store (whose pool they may share). */
  close(): Promise<void>
}

/**
 * Opens the job store and the watch store in one place: on PostgreSQL when BOQ_DATABASE_URL names
 * one (the watches on the job store's pool, whose migrations make both's tables), else both in
 * the data folder. Every change of a job's status is logged, and `jobEnded` is told of each job
 * that ends in this process (the job as it ended).
 */
export async function openStores(options: {
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 'jobRetentionDays' | 'jobRecoverySeconds'>
  /** Seals the access tokens kept with queued jobs, and the standing grants. */
  tokenKey: Uint8Array
  jobEnded: (job: JobRecord) => void
}): Promise<Stores> {
  const { config, tokenKey } = options
  const logChange = createJobLog(log)
  const onChange = (change: JobChange) => {
    logChange(change)
    if (change.job.status === 'succeeded' || change.job.status === 'failed')
      options.jobEnded(change.job)
  }
  if (config.databaseUrl) {
    const jobs = await openPostgresJobStore({
      url: config.databaseUrl,
      tokenKey,
      recoverySeconds: config.jobRecoverySeconds,
      retentionDays: config.jobRetentionDays,
      onChange,
    })
    return sideBySide(
      jobs,
      openPostgresWatchStore({ db: jobs.db, tokenKey }),
      openPostgresBillStore({ db: jobs.db }),
      openPostgresRulesStore({ db: jobs.db }),
    )
  }
  const jobs = await openEmbeddedJobStore({
    dataDir: config.dataDir,
    tokenKey,
    retentionDays: config.jobRetentionDays,
    onChange,
  })
  const others = await Promise.all([
    openEmbeddedWatchStore({ dataDir: config.dataDir, tokenKey }),
    openEmbeddedBillStore({ dataDir: config.dataDir }),
  ]).catch(async (error: unknown) => {
    await jobs.close()
    throw error
  })
  return sideBySide(jobs, ...others, openEmbeddedRulesStore({ dataDir: config.dataDir }))
}

function sideBySide(
  jobs: JobStore,
  watches: WatchStore,
  bills: BillStore,
  rules: RulesStore,
): Stores {
  return {
    jobs,
    watches,
    bills,
    rules,
    async close() {
      await rules.close()
      await bills.close()
      await watches.close()
      await jobs.close()
    },
  }
}
