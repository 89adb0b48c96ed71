import type { Query, QueueDb } from '../../lib/pg/transaction.ts'
import { log as serverLog } from '../../log.ts'
import { queueListeners } from '../queue-listeners.ts'
import type { JobChange, JobStore } from '../types.ts'
import { deleteFinishedJobs } from './job-queries.ts'
import { warnOnce } from './job-rows.ts'
import { migrate } from './migrate.ts'
import { queueTimings, startQueue } from './queue.ts'
import { runningEntries } from './running-entries.ts'
import { jobChanges, jobTaking, queueSide, recordSide, type StoreContext } from './store-parts.ts'

export interface PostgresStoreOptions {
  /** BOQ_DATABASE_URL. */
  url: string
  /**
   * Seals the access token kept with a queued job, and the standing grants; every process derives
   * the same key.
   */
  tokenKey: Uint8Array
  /** BOQ_JOB_RECOVERY_SECONDS. */
  recoverySeconds: number
  /** BOQ_JOB_RETENTION_DAYS. */
  retentionDays: number
  log?: (message: string, error?: unknown) => void
  /** Told of every change of a job's status this process made (the job log). */
  onChange?: (change: JobChange) => void
}

/** The PostgreSQL job store, with the pool it runs on: the watch and rules stores share it. */
export interface PostgresJobStore extends JobStore {
  /** pg-boss's pool, BOQ's migrations applied (those of the watches' tables too). */
  db: QueueDb
}

const QUEUED_CHANNEL = 'boq_jobs_queued'
const PRUNE_EVERY_MS = 60 * 60 * 1000

/**
 * Jobs on PostgreSQL, shared by any number of processes: BOQ's rows in `boq_jobs` (what the API
 * shows, written by whichever process changes the job) and pg-boss's queue, which hands each job
 * to one worker, notices a worker that stopped sending heartbeats and hands its job out again.
 * A job's row names the queue entry (`attempt`) that runs it, so a worker whose entry was given
 * to another worker can no longer change it. The SQL is in `job-queries.ts`;
 * a row whose record does not check is skipped with a warning (`job-rows.ts`). The watch and
 * rules stores run on the same pool (`db`).
 */
export async function openPostgresJobStore(
  options: PostgresStoreOptions,
): Promise<PostgresJobStore> {
  const log =
    options.log ??
    ((message, error) => serverLog.warn(message, error === undefined ? {} : { err: error }))
  const warn = warnOnce((message) => log(message))
  const onChange = options.onChange ?? (() => {})
  const timings = queueTimings(options.recoverySeconds)
  const { boss, db } = await startQueue({
    url: options.url,
    timings,
    retentionDays: options.retentionDays,
    onError: (error) => log('jobs: the PostgreSQL queue reported an error', error),
  })
  try {
    for (const { version, name } of await migrate(db)) {
      serverLog.info('jobs: applied a database migration', { version, name })
    }
  } catch (error) {
    await boss.stop({ graceful: false }).catch(() => {})
    throw error
  }

  const query: Query = async (text, values) => (await db.executeSql(text, values)).rows
  const running = runningEntries(boss, timings.heartbeatSeconds, log)
  const queued = queueListeners((error) => log('jobs: a queue listener failed', error))

  const ctx: StoreContext = {
    db,
    boss,
    query,
    tokenKey: options.tokenKey,
    running,
    warn,
    log,
    onChange,
    queuedChannel: QUEUED_CHANNEL,
  }
  const changes = jobChanges(ctx)
  const taking = jobTaking(ctx, changes)

  const prune = () => deleteFinishedJobs(query, options.retentionDays)
  const listening = await db.listen(QUEUED_CHANNEL, queued.notify, queued.notify)
  await prune()
  const pruning = setInterval(
    () => void prune().catch((error) => log('jobs: could not delete old jobs', error)),
    PRUNE_EVERY_MS,
  )
  pruning.unref()

  return {
    db,
    ...queueSide(ctx, changes, taking),
    ...recordSide(ctx, changes, taking),

    onQueued(listener) {
      return queued.add(listener)
    },

    async close() {
      clearInterval(pruning)
      queued.clear()
      running.clear()
      await listening.close().catch(() => {})
      await boss.stop({ graceful: false })
    },
  }
}
