import { randomUUID } from 'node:crypto'
import type { JobAttempt } from 'pg-boss'
import { seal, unseal } from '../../auth/sealed.ts'
import type { CloudContext } from '../../cloud/types.ts'
import { AppError } from '../../errors.ts'
import { log as serverLog } from '../../log.ts'
import { SIGN_IN_AGAIN } from '../embedded-store.ts'
import { workerStoppedMessage } from '../failure.ts'
import { newJobRecord, tooManyJobs } from '../new-job.ts'
import { queueListeners } from '../queue-listeners.ts'
import type {
  ClaimedJob,
  JobChange,
  JobRecord,
  JobStore,
  NewJob,
  ResultFiles,
  ResultFormat,
} from '../types.ts'
import { CRASH_RETRIES, EXTRACT_QUEUE, type QueueEntry, queueTimings, startQueue } from './queue.ts'
import { rulesRows } from './rules-rows.ts'
import { migrate } from './schema.ts'
import { inTransaction, type Query } from './transaction.ts'
import { retryWhileUnreachable } from './unreachable.ts'

export interface PostgresStoreOptions {
  /** BOQ_DATABASE_URL. */
  url: string
  /** Seals the access token kept with a queued job; every process derives the same key. */
  tokenKey: Uint8Array
  /** BOQ_JOB_RECOVERY_SECONDS. */
  recoverySeconds: number
  /** BOQ_JOB_RETENTION_DAYS. */
  retentionDays: number
  log?: (message: string, error?: unknown) => void
  /** Told of every change of a job's status this process made (the job log). */
  onChange?: (change: JobChange) => void
}

const QUEUED_CHANNEL = 'boq_jobs_queued'
const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** The newest jobs a user sees. */
const LIST_LIMIT = 200
const PRUNE_EVERY_MS = 60 * 60 * 1000

type Row = Awaited<ReturnType<Query>>[number]

/**
 * Jobs on PostgreSQL, shared by any number of processes: BOQ's rows in `boq_jobs` (what the API
 * shows, written by whichever process changes the job) and pg-boss's queue, which hands each job
 * to one worker, notices a worker that stopped sending heartbeats and hands its job out again.
 * A job's row names the queue entry (`attempt`) that runs it, so a worker whose entry was given
 * to another worker can no longer change it.
 */
export async function openPostgresJobStore(options: PostgresStoreOptions): Promise<JobStore> {
  const log =
    options.log ??
    ((message, error) => serverLog.warn(message, error === undefined ? {} : { err: error }))
  const onChange = options.onChange ?? (() => {})
  const timings = queueTimings(options.recoverySeconds)
  const { boss, db } = await startQueue({
    url: options.url,
    timings,
    retentionDays: options.retentionDays,
    onError: (error) => log('jobs: the PostgreSQL queue reported an error', error),
  })
  try {
    await migrate(db)
  } catch (error) {
    await boss.stop({ graceful: false }).catch(() => {})
    throw error
  }

  const query: Query = async (text, values) => (await db.executeSql(text, values)).rows
  /**
   * The queue entries this process runs: the entry, its key as the job's row names it, and the
   * timer that keeps its heartbeats going.
   */
  const running = new Map<
    string,
    { entry: JobAttempt; attempt: string; heartbeat: NodeJS.Timeout }
  >()

  /** This process stops sending the job's heartbeats; the entry it ran, if it ran one. */
  function letGo(id: string): JobAttempt | undefined {
    const mine = running.get(id)
    if (!mine) return undefined
    clearInterval(mine.heartbeat)
    running.delete(id)
    return mine.entry
  }
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
      const [row] = await q('SELECT record, attempt FROM boq_jobs WHERE id = $1 FOR UPDATE', [id])
      if (!row) throw new AppError(404, 'No such job.')
      if (options.attempt !== undefined && row.attempt !== options.attempt) return undefined
      const previous = row.record as JobRecord
      const job: JobRecord = {
        ...previous,
        ...patch(previous),
        updatedAt: new Date().toISOString(),
      }
      await options.also?.(q)
      await q(
        `UPDATE boq_jobs SET status = $2, record = $3::jsonb,
          progress = CASE WHEN $2 = 'running' THEN progress END
          ${options.dropCredentials ? ', credentials = NULL, attempt = NULL' : ''}
         WHERE id = $1`,
        [id, job.status, JSON.stringify(stripProgress(job))],
      )
      return { job, previous }
    })
    if (outcome && outcome.job.status !== outcome.previous.status) changed(outcome)
    return outcome
  }

  /** Ends this process's part in a job: no more heartbeats, and the queue entry done. */
  async function settle(id: string): Promise<void> {
    const entry = letGo(id)
    if (!entry) return
    await boss
      .complete(EXTRACT_QUEUE, entry)
      .catch((error) => log(`jobs: could not mark the queue entry of ${id} done`, error))
  }

  /** Takes one queue entry's job for this process, or settles an entry with nothing left to run. */
  async function take(entry: JobAttempt & { data: QueueEntry }): Promise<ClaimedJob | undefined> {
    const attempt = `${entry.id}:${entry.retryCount}`
    const taken = await inTransaction(db, async (q) => {
      const [row] = await q(
        'SELECT record, credentials, attempt FROM boq_jobs WHERE id = $1 FOR UPDATE',
        [entry.data.jobId],
      )
      const job = row?.record as JobRecord | undefined
      // A retry of the entry whose worker stopped: the row still says running under it.
      const resumed = job?.status === 'running' && String(row?.attempt).startsWith(`${entry.id}:`)
      if (!job || (job.status !== 'queued' && !resumed)) return { outcome: 'nothing' as const }
      if (entry.retryCount > CRASH_RETRIES) return { outcome: 'crashed' as const, job }
      const context = await unseal<CloudContext>(row?.credentials, options.tokenKey)
      if (!context) return { outcome: 'unsealed' as const, job }
      const next: JobRecord = {
        ...job,
        status: 'running',
        attempts: job.attempts + 1,
        updatedAt: new Date().toISOString(),
      }
      await q(
        `UPDATE boq_jobs SET status = 'running', record = $2::jsonb, progress = 0, attempt = $3
         WHERE id = $1`,
        [job.id, JSON.stringify(next), attempt],
      )
      return { outcome: 'running' as const, job: next, previous: job, context }
    })
    if (taken.outcome === 'running') {
      const heartbeat = setInterval(
        () => {
          boss
            .touch(EXTRACT_QUEUE, entry)
            .catch((error) => log(`jobs: a heartbeat of ${taken.job.id} was lost`, error))
        },
        (timings.heartbeatSeconds * 1000) / 2,
      )
      heartbeat.unref()
      running.set(taken.job.id, { entry, attempt, heartbeat })
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

  async function prune(): Promise<void> {
    await query(
      `DELETE FROM boq_jobs WHERE status IN ('succeeded', 'failed')
        AND created_at < now() - make_interval(days => $1)`,
      [options.retentionDays],
    )
  }

  const rules = rulesRows(query)
  const listening = await db.listen(QUEUED_CHANNEL, queued.notify, queued.notify)
  await prune()
  const pruning = setInterval(
    () => void prune().catch((error) => log('jobs: could not delete old jobs', error)),
    PRUNE_EVERY_MS,
  )
  pruning.unref()

  /** A finished job's row, with its results written in the same transaction. */
  async function finish(id: string, patch: Partial<JobRecord>, files?: ResultFiles): Promise<void> {
    const key = running.get(id)?.attempt
    try {
      await retryWhileUnreachable(() =>
        change(id, () => ({ ...patch, progress: undefined }), {
          ...(key === undefined ? {} : { attempt: key }),
          dropCredentials: true,
          ...(files ? { also: (q) => writeResults(q, id, files) } : {}),
        }),
      )
    } finally {
      // Whatever happened, this process stops vouching for the job: if the row could not be
      // written, the queue hands the job to a worker again once the heartbeats stop.
      await settle(id)
    }
  }

  return {
    async submit(input: NewJob, limits: { maxActivePerUser: number }) {
      const credentials = await seal(input.context, options.tokenKey)
      const userId = input.context.user.userId
      const outcome = await inTransaction(db, async (q, tx) => {
        // One submission per user at a time, in any process: the checks below see every other.
        await q('SELECT pg_advisory_xact_lock(hashtext($1))', [`boq-user:${userId}`])
        const active = await q(
          `SELECT record FROM boq_jobs WHERE user_id = $1 AND status IN ('queued', 'running')`,
          [userId],
        )
        const same = active.find((r) => r.record.fileStorageId === input.fileStorageId)
        if (same) return { job: same.record as JobRecord, created: false }
        if (active.length >= limits.maxActivePerUser) {
          throw tooManyJobs(active.length, limits.maxActivePerUser)
        }
        const job = newJobRecord(randomUUID(), userId, input)
        await q(
          `INSERT INTO boq_jobs (id, user_id, status, file_storage_id, created_at, record, credentials)
           VALUES ($1, $2, 'queued', $3, $4, $5::jsonb, $6)`,
          [job.id, userId, job.fileStorageId, job.createdAt, JSON.stringify(job), credentials],
        )
        await boss.send(EXTRACT_QUEUE, { jobId: job.id } satisfies QueueEntry, { db: tx })
        // Delivered at commit to every process listening, this one included.
        await q('SELECT pg_notify($1, $2)', [QUEUED_CHANNEL, job.id])
        return { job, created: true }
      })
      if (outcome.created) changed({ job: outcome.job })
      return { job: { ...outcome.job }, created: outcome.created }
    },

    async get(id) {
      if (!ID_PATTERN.test(id)) return undefined
      const [row] = await query('SELECT record, progress FROM boq_jobs WHERE id = $1', [id])
      return row ? withProgress(row) : undefined
    },

    async listByUser(userId) {
      const rows = await query(
        `SELECT record, progress FROM boq_jobs WHERE user_id = $1
         ORDER BY created_at DESC LIMIT ${LIST_LIMIT}`,
        [userId],
      )
      return rows.map(withProgress)
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
      await query(`UPDATE boq_jobs SET progress = $2 WHERE id = $1 AND status = 'running'`, [
        id,
        progress,
      ])
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

    rules: rules.rules,
    rulesHistory: rules.rulesHistory,
    saveRules: rules.saveRules,

    async succeed(id, result, files) {
      await finish(id, { status: 'succeeded', result }, files)
    },

    async fail(id, error) {
      await finish(id, { status: 'failed', error })
    },

    async release(id) {
      const entry = letGo(id)
      if (!entry) return
      // A fresh queue entry for the job, the old one done, in one step: the stop is not counted
      // as one of the job's crashes.
      await inTransaction(db, async (q, tx) => {
        const [row] = await q('SELECT record FROM boq_jobs WHERE id = $1 FOR UPDATE', [id])
        if (row?.record.status !== 'running') return
        const job = row.record as JobRecord
        const back = { ...job, status: 'queued', attempts: job.attempts - 1 }
        await q(
          `UPDATE boq_jobs SET status = 'queued', record = $2::jsonb, progress = NULL, attempt = NULL
           WHERE id = $1`,
          [id, JSON.stringify(back)],
        )
        await boss.send(EXTRACT_QUEUE, { jobId: id } satisfies QueueEntry, { db: tx })
        await boss.complete(EXTRACT_QUEUE, entry, null, { db: tx })
      })
    },

    async readResult(id, format: ResultFormat) {
      if (!ID_PATTERN.test(id)) return undefined
      const [row] = await query(
        `SELECT r.bytes FROM boq_results r JOIN boq_jobs j ON j.id = r.job_id
         WHERE j.id = $1 AND j.status = 'succeeded' AND r.format = $2`,
        [id, format],
      )
      return row ? new Uint8Array(row.bytes as Buffer) : undefined
    },

    onQueued(listener) {
      return queued.add(listener)
    },

    async close() {
      clearInterval(pruning)
      queued.clear()
      for (const { heartbeat } of running.values()) clearInterval(heartbeat)
      running.clear()
      await listening.close().catch(() => {})
      await boss.stop({ graceful: false })
    },
  }
}

async function writeResults(q: Query, id: string, files: ResultFiles): Promise<void> {
  for (const [format, bytes] of Object.entries(files)) {
    await q(
      `INSERT INTO boq_results (job_id, format, bytes) VALUES ($1, $2, $3)
       ON CONFLICT (job_id, format) DO UPDATE SET bytes = EXCLUDED.bytes`,
      [id, format, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)],
    )
  }
}

/** The record as stored: progress lives in its own column, written often and alone. */
function stripProgress(job: JobRecord): JobRecord {
  const { progress: _progress, ...rest } = job
  return rest
}

function withProgress(row: Row): JobRecord {
  const job = row.record as JobRecord
  return job.status === 'running' && row.progress !== null
    ? { ...job, progress: Number(row.progress) }
    : { ...job }
}
