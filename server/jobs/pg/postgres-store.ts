import { randomUUID } from 'node:crypto'
import type { JobAttempt } from 'pg-boss'
import { seal, unseal } from '../../auth/sealed.ts'
import type { CloudContext } from '../../cloud/types.ts'
import { AppError } from '../../errors.ts'
import { inTransaction, type Query, type QueueDb } from '../../lib/pg/transaction.ts'
import { retryWhileUnreachable } from '../../lib/pg/unreachable.ts'
import { isUuid } from '../../lib/pg/uuid.ts'
import { log as serverLog } from '../../log.ts'
import { resultWithBill } from '../bill-of-record.ts'
import { SIGN_IN_AGAIN, workerStoppedMessage } from '../failure.ts'
import { newJobRecord, tooManyJobs } from '../new-job.ts'
import { queueListeners } from '../queue-listeners.ts'
import type { ClaimedJob, JobChange, JobRecord, JobStore, NewJob, ResultFiles } from '../types.ts'
import {
  activeJobsOf,
  deleteFinishedJobs,
  insertQueuedJob,
  jobById,
  jobForUpdate,
  jobsOfUser,
  keepLateGeometry,
  lockUserSubmissions,
  notify,
  requeueJob,
  resultBytes,
  setJobProgress,
  startJob,
  updateJob,
  writeResults,
} from './job-queries.ts'
import { jobOf, jobsOf, jobWithProgress, warnOnce } from './job-rows.ts'
import { migrate } from './migrate.ts'
import { CRASH_RETRIES, EXTRACT_QUEUE, type QueueEntry, queueTimings, startQueue } from './queue.ts'
import { runningEntries } from './running-entries.ts'

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

  function changed(change: JobChange): void {
    try {
      onChange(change)
    } catch (error) {
      log('jobs: the change listener failed', error)
    }
  }

  /**
   * Changes a job's row (its record first read under a row lock). With `attempt`, only while
   * that queue entry still runs the job.
   */
  async function change(
    id: string,
    patch: (job: JobRecord) => Partial<JobRecord>,
    options: {
      attempt?: string
      dropCredentials?: boolean
      also?: (q: Query) => Promise<void>
    } = {},
  ): Promise<JobChange | undefined> {
    const outcome = await inTransaction(db, async (q) => {
      const row = await jobForUpdate(q, id)
      const previous = row && jobOf(row, warn)
      if (!previous) throw new AppError(404, 'No such job.')
      if (options.attempt !== undefined && row.attempt !== options.attempt) return undefined
      const job: JobRecord = {
        ...previous,
        ...patch(previous),
        updatedAt: new Date().toISOString(),
      }
      await options.also?.(q)
      await updateJob(q, job, options)
      return { job, previous }
    })
    if (outcome && outcome.job.status !== outcome.previous.status) changed(outcome)
    return outcome
  }

  /** Takes one queue entry's job for this process, or settles an entry with nothing left to run. */
  async function take(entry: JobAttempt & { data: QueueEntry }): Promise<ClaimedJob | undefined> {
    const attempt = `${entry.id}:${entry.retryCount}`
    const taken = await inTransaction(db, async (q) => {
      const row = await jobForUpdate(q, entry.data.jobId)
      const job = row && jobOf(row, warn)
      // A retry of the entry whose worker stopped: the row still says running under it.
      const resumed = job?.status === 'running' && String(row?.attempt).startsWith(`${entry.id}:`)
      if (!row || !job || (job.status !== 'queued' && !resumed)) {
        return { outcome: 'nothing' as const }
      }
      if (entry.retryCount > CRASH_RETRIES) return { outcome: 'crashed' as const, job }
      const context = await unseal<CloudContext>(row.credentials ?? undefined, options.tokenKey)
      if (!context) return { outcome: 'unsealed' as const, job }
      const next: JobRecord = {
        ...job,
        status: 'running',
        attempts: job.attempts + 1,
        updatedAt: new Date().toISOString(),
      }
      await startJob(q, next, attempt)
      return { outcome: 'running' as const, job: next, previous: job, context }
    })
    if (taken.outcome === 'running') {
      running.add(taken.job.id, entry, attempt)
      // Also for a job taken over from a worker that died: the log says it runs again.
      changed({ job: taken.job, previous: taken.previous })
      return { job: { ...taken.job, progress: 0 }, context: taken.context }
    }
    if (taken.outcome !== 'nothing') {
      const error =
        taken.outcome === 'crashed' ? workerStoppedMessage(CRASH_RETRIES + 1) : SIGN_IN_AGAIN
      await change(taken.job.id, () => ({ status: 'failed', error }), { dropCredentials: true })
    }
    await boss.complete(EXTRACT_QUEUE, entry)
    return undefined
  }

  /** A finished job's row, with its results written in the same transaction. */
  async function finish(id: string, patch: Partial<JobRecord>, files?: ResultFiles): Promise<void> {
    const attempt = running.attemptOf(id)
    try {
      await retryWhileUnreachable(() =>
        change(id, () => ({ ...patch, progress: undefined }), {
          ...(attempt === undefined ? {} : { attempt }),
          dropCredentials: true,
          ...(files ? { also: (q) => writeResults(q, id, files) } : {}),
        }),
      )
    } finally {
      // Whatever happened, this process stops vouching for the job: if the row could not be
      // written, the queue hands the job to a worker again once the heartbeats stop.
      await running.settle(id)
    }
  }

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

    async submit(input: NewJob, limits: { maxActivePerUser: number }) {
      const credentials = await seal(input.context, options.tokenKey)
      const userId = input.context.user.userId
      const outcome = await inTransaction(db, async (q, tx) => {
        // One submission per user at a time, in any process: the checks below see every other.
        await lockUserSubmissions(q, userId)
        const active = jobsOf(await activeJobsOf(q, userId), warn)
        const same = active.find((job) => job.fileStorageId === input.fileStorageId)
        if (same) return { job: same, created: false }
        if (active.length >= limits.maxActivePerUser) {
          throw tooManyJobs(active.length, limits.maxActivePerUser)
        }
        const job = newJobRecord(randomUUID(), userId, input)
        await insertQueuedJob(q, job, credentials)
        await boss.send(EXTRACT_QUEUE, { jobId: job.id } satisfies QueueEntry, { db: tx })
        // Delivered at commit to every process listening, this one included.
        await notify(q, QUEUED_CHANNEL, job.id)
        return { job, created: true }
      })
      if (outcome.created) changed({ job: outcome.job })
      return { job: { ...outcome.job }, created: outcome.created }
    },

    async get(id) {
      if (!isUuid(id)) return undefined
      const row = await jobById(query, id)
      return row && jobWithProgress(row, warn)
    },

    async listByUser(userId) {
      return (await jobsOfUser(query, userId)).flatMap((row) => jobWithProgress(row, warn) ?? [])
    },

    async claim() {
      for (;;) {
        const [entry] = await boss.fetch<QueueEntry>(EXTRACT_QUEUE, { batchSize: 1 })
        if (!entry) return undefined
        const claimed = await take(entry)
        if (claimed) return claimed
      }
    },

    async setProgress(id, progress) {
      await setJobProgress(query, id, progress)
    },

    async setFileVersionNumber(id, versionNumber) {
      await change(id, () => ({ fileVersionNumber: versionNumber }))
    },

    async noteWriteBack(id, note) {
      await retryWhileUnreachable(() => change(id, () => ({ writeBack: { ...note } })))
    },

    async notePricedWith(id, pricedWith) {
      await change(id, () => ({ pricedWith: { ...pricedWith } }))
    },

    async keepBillOfRecord(id, bill) {
      if (!isUuid(id)) throw new AppError(404, 'No such job.')
      // The files and the record in one transaction, the row locked meanwhile.
      await change(
        id,
        (job) => ({ result: resultWithBill(job, bill), pricedWith: { ...bill.pricedWith } }),
        { also: (q) => writeResults(q, id, bill.files) },
      )
    },

    async succeed(id, result, files) {
      await finish(id, { status: 'succeeded', result }, files)
    },

    async fail(id, error) {
      await finish(id, { status: 'failed', error })
    },

    async release(id) {
      const entry = running.letGo(id)
      if (!entry) return
      // A fresh queue entry for the job, the old one done, in one step: the stop is not counted
      // as one of the job's crashes.
      await inTransaction(db, async (q, tx) => {
        const row = await jobForUpdate(q, id)
        const job = row && jobOf(row, warn)
        if (job?.status !== 'running') return
        await requeueJob(q, { ...job, status: 'queued', attempts: job.attempts - 1 })
        await boss.send(EXTRACT_QUEUE, { jobId: id } satisfies QueueEntry, { db: tx })
        await boss.complete(EXTRACT_QUEUE, entry, null, { db: tx })
      })
    },

    async readResult(id, format) {
      return isUuid(id) ? resultBytes(query, id, format) : undefined
    },

    async keepGeometry(id, geometry) {
      if (!isUuid(id)) return
      await keepLateGeometry(query, id, geometry)
    },

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
