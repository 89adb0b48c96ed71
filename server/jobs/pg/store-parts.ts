import { randomUUID } from 'node:crypto'
import type { JobAttempt, PgBoss } from 'pg-boss'
import { seal, unseal } from '../../auth/sealed.ts'
import type { CloudContext } from '../../cloud/types.ts'
import { AppError } from '../../errors.ts'
import { inTransaction, type Query, type QueueDb } from '../../lib/pg/transaction.ts'
import { retryWhileUnreachable } from '../../lib/pg/unreachable.ts'
import { isUuid } from '../../lib/pg/uuid.ts'
import { resultWithBill } from '../bill-of-record.ts'
import { SIGN_IN_AGAIN, workerStoppedMessage } from '../failure.ts'
import { newJobRecord, tooManyJobs } from '../new-job.ts'
import type { ClaimedJob, JobChange, JobRecord, JobStore, NewJob, ResultFiles } from '../types.ts'
import {
  activeJobsOf,
  dropResult,
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
import { jobOf, jobsOf, jobWithProgress, type warnOnce } from './job-rows.ts'
import { CRASH_RETRIES, EXTRACT_QUEUE, type QueueEntry } from './queue.ts'
import type { runningEntries } from './running-entries.ts'

/** What the PostgreSQL job store's parts share: the pool, the queue, and how they report. */
export interface StoreContext {
  db: QueueDb
  boss: PgBoss
  query: Query
  tokenKey: Uint8Array
  /** The queue entries this process runs, kept alive by their heartbeats. */
  running: ReturnType<typeof runningEntries>
  warn: ReturnType<typeof warnOnce>
  log: (message: string, error?: unknown) => void
  onChange: (change: JobChange) => void
  /** The channel every process listens on for new jobs. */
  queuedChannel: string
}

/**
 * Changing a job's row, told to the change listener when its status moved. With `attempt`, only
 * while that queue entry still runs the job.
 */
export function jobChanges(ctx: StoreContext) {
  const { db, warn, log } = ctx
  function changed(change: JobChange): void {
    try {
      ctx.onChange(change)
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
  return { changed, change }
}

/** Taking a queue entry's job for this process, and ending one it ran. */
export function jobTaking(ctx: StoreContext, changes: ReturnType<typeof jobChanges>) {
  const { db, boss, warn, running } = ctx
  const { changed, change } = changes
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
      const context = await unseal<CloudContext>(row.credentials ?? undefined, ctx.tokenKey)
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
  return { take, finish }
}

/** Jobs into the queue (one active job per drawing and user, in any process), out of it, and back. */
export function queueSide(
  ctx: StoreContext,
  changes: ReturnType<typeof jobChanges>,
  taking: ReturnType<typeof jobTaking>,
): Pick<JobStore, 'submit' | 'claim' | 'release'> {
  const { db, boss, warn, running } = ctx
  const { changed } = changes
  const { take } = taking
  return {
    async submit(input: NewJob, limits: { maxActivePerUser: number }) {
      const credentials = await seal(input.context, ctx.tokenKey)
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
        await notify(q, ctx.queuedChannel, job.id)
        return { job, created: true }
      })
      if (outcome.created) changed({ job: outcome.job })
      return { job: { ...outcome.job }, created: outcome.created }
    },

    async claim() {
      for (;;) {
        const [entry] = await boss.fetch<QueueEntry>(EXTRACT_QUEUE, { batchSize: 1 })
        if (!entry) return undefined
        const claimed = await take(entry)
        if (claimed) return claimed
      }
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
  }
}

type RecordSide = Omit<JobStore, 'submit' | 'claim' | 'release' | 'onQueued' | 'close'>

/** A job's row read, its progress and notes, its end, and its results. */
export function recordSide(
  ctx: StoreContext,
  changes: ReturnType<typeof jobChanges>,
  taking: ReturnType<typeof jobTaking>,
): RecordSide {
  const { query, warn } = ctx
  const { change } = changes
  const { finish } = taking
  return {
    async get(id) {
      if (!isUuid(id)) return undefined
      const row = await jobById(query, id)
      return row && jobWithProgress(row, warn)
    },

    async listByUser(userId) {
      return (await jobsOfUser(query, userId)).flatMap((row) => jobWithProgress(row, warn) ?? [])
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
        {
          also: async (q) => {
            await writeResults(q, id, bill.files)
            // The part of the bill it replaces is not its part.
            if (!bill.files.part) await dropResult(q, id, 'part')
          },
        },
      )
    },

    async succeed(id, result, files) {
      await finish(id, { status: 'succeeded', result }, files)
    },

    async fail(id, error) {
      await finish(id, { status: 'failed', error })
    },

    async readResult(id, format) {
      return isUuid(id) ? resultBytes(query, id, format) : undefined
    },

    async keepGeometry(id, geometry) {
      if (!isUuid(id)) return
      await keepLateGeometry(query, id, geometry)
    },
  }
}
