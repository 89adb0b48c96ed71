import { randomUUID } from 'node:crypto'
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { seal, unseal } from '../auth/sealed.ts'
import type { CloudContext } from '../cloud/types.ts'
import { log as serverLog } from '../log.ts'
import { loadJobRecords } from './embedded-load.ts'
import { pruner } from './embedded-prune.ts'
import { isFinished, type JobRecords, jobRecords, newestFirst } from './embedded-records.ts'
import { resultFiles } from './embedded-results.ts'
import { SIGN_IN_AGAIN } from './failure.ts'
import { newJobRecord, tooManyJobs } from './new-job.ts'
import { queueListeners } from './queue-listeners.ts'
import type { StoredJob } from './stored-job.ts'
import type { ClaimedJob, JobChange, JobStore, NewJob } from './types.ts'

export interface EmbeddedStoreOptions {
  /** BOQ_DATA_DIR: the store keeps everything under `<dataDir>/jobs`. */
  dataDir: string
  /**
   * Seals the access token kept with a queued job, so a record copied without the key reveals
   * nothing. Derived from the server's master secret: every process that shares it opens it.
   */
  tokenKey: Uint8Array
  /** Finished jobs kept per user (older ones and their outputs are deleted). */
  keepPerUser?: number
  /** BOQ_JOB_RETENTION_DAYS: finished jobs older than this are deleted with their outputs. */
  retentionDays?: number
  log?: (message: string) => void
  /** Told of every change of a job's status, once it is on disk (the job log). */
  onChange?: (change: JobChange) => void
}

const DAY_MS = 24 * 60 * 60 * 1000
const PRUNE_EVERY_MS = 60 * 60 * 1000

/**
 * The embedded job store and queue: one folder per job under BOQ_DATA_DIR/jobs, each with its
 * record (`job.json`, replaced atomically on every change) and, once succeeded, its outputs.
 * The in-memory map is the working copy; the files are the truth on start. Progress is kept in
 * memory only (a restart never resumes a job). One server process owns the folder.
 */
export async function openEmbeddedJobStore(options: EmbeddedStoreOptions): Promise<JobStore> {
  const root = join(options.dataDir, 'jobs')
  const log = options.log ?? ((message: string) => serverLog.warn(message))
  await mkdir(root, { recursive: true, mode: 0o700 })
  const records = jobRecords(root, { log, onChange: options.onChange ?? (() => {}) })
  const queue = await loadJobRecords(root, records, log)
  const prune = pruner(records, options.keepPerUser ?? 100, (options.retentionDays ?? 90) * DAY_MS)
  await prune()
  // A server that runs for months still lets old jobs go.
  const retention = setInterval(() => void prune().catch(() => {}), PRUNE_EVERY_MS)
  retention.unref()
  const queued = queueListeners((error) => log(`jobs: a queue listener failed: ${String(error)}`))
  const results = resultFiles(records)
  const { keeping, write: _write, ...kept } = results

  return {
    ...jobQueue(records, queue, queued, options.tokenKey),
    ...jobEnds(records, results, prune),
    ...kept,
    async get(id) {
      const stored = records.jobs.get(id)
      return stored ? { ...stored.job } : undefined
    },
    async listByUser(userId) {
      return [...records.jobs.values()]
        .filter((s) => s.job.userId === userId)
        .sort(newestFirst)
        .map((s) => ({ ...s.job }))
    },
    async close() {
      clearInterval(retention)
      queued.clear()
      await Promise.allSettled([...keeping.values(), ...records.writes.values()])
    },
  }
}

type QueueSide = Pick<JobStore, 'submit' | 'claim' | 'release' | 'onQueued'>

/** Jobs in and out of the queue: submitted (one active job per drawing), claimed, put back. */
export function jobQueue(
  records: JobRecords,
  queue: string[],
  queued: ReturnType<typeof queueListeners>,
  tokenKey: Uint8Array,
): QueueSide {
  const { jobs, writes, commit } = records
  return {
    async submit(input: NewJob, limits: { maxActivePerUser: number }) {
      // Sealed before the checks below, so nothing is awaited between them and the map's update.
      const credentials = await seal(input.context, tokenKey)
      const userId = input.context.user.userId
      const active = [...jobs.values()].filter((s) => s.job.userId === userId && !isFinished(s.job))
      const same = active.find((s) => s.job.fileStorageId === input.fileStorageId)
      if (same) {
        await writes.get(same.job.id)
        return { job: { ...same.job }, created: false }
      }
      if (active.length >= limits.maxActivePerUser) {
        throw tooManyJobs(active.length, limits.maxActivePerUser)
      }
      const job = newJobRecord(randomUUID(), userId, input)
      const stored: StoredJob = { version: 1, job, credentials }
      // In the map at once, so that a duplicate arriving meanwhile finds it (and waits for the write).
      jobs.set(job.id, stored)
      try {
        await mkdir(records.dirOf(job.id), { mode: 0o700 })
        await records.persist(job.id, stored)
      } catch (error) {
        jobs.delete(job.id)
        await rm(records.dirOf(job.id), { recursive: true, force: true }).catch(() => {})
        throw error
      }
      queue.push(job.id)
      records.changed({ job })
      queued.notify()
      return { job: { ...job }, created: true }
    },

    async claim(): Promise<ClaimedJob | undefined> {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        const stored = jobs.get(id)
        if (stored?.job.status !== 'queued') continue
        const context = await unseal<CloudContext>(stored.credentials, tokenKey)
        if (!context) {
          await commit(id, { status: 'failed', error: SIGN_IN_AGAIN }, 'drop')
          continue
        }
        await commit(id, { status: 'running', attempts: stored.job.attempts + 1, progress: 0 })
        const running = jobs.get(id) as StoredJob
        return { job: { ...running.job }, context }
      }
      return undefined
    },

    async release(id) {
      const stored = jobs.get(id)
      if (stored?.job.status !== 'running') return
      await commit(id, { status: 'queued', attempts: stored.job.attempts - 1, progress: undefined })
      queue.unshift(id)
      queued.notify()
    },

    onQueued(listener) {
      return queued.add(listener)
    },
  }
}

type EndsSide = Pick<
  JobStore,
  'setProgress' | 'setFileVersionNumber' | 'succeed' | 'fail' | 'noteWriteBack' | 'notePricedWith'
>

/** A running job's progress and notes, and its end: succeeded with its files, or failed. */
export function jobEnds(
  records: JobRecords,
  results: ReturnType<typeof resultFiles>,
  prune: (userId?: string) => Promise<void>,
): EndsSide {
  const { jobs, commit } = records
  return {
    async setProgress(id, progress) {
      const stored = jobs.get(id)
      // Memory only: progress is not worth a disk write, and a restart never resumes a job.
      if (stored?.job.status === 'running') stored.job = { ...stored.job, progress }
    },

    async setFileVersionNumber(id, versionNumber) {
      records.existing(id)
      await commit(id, { fileVersionNumber: versionNumber })
    },

    async succeed(id, result, files) {
      const stored = records.existing(id)
      await results.write(id, files)
      await commit(id, { status: 'succeeded', result, progress: undefined }, 'drop')
      await prune(stored.job.userId)
    },

    async fail(id, error) {
      const stored = records.existing(id)
      await commit(id, { status: 'failed', error, progress: undefined }, 'drop')
      await prune(stored.job.userId)
    },

    async noteWriteBack(id, note) {
      records.existing(id)
      await commit(id, { writeBack: { ...note } })
    },

    async notePricedWith(id, pricedWith) {
      records.existing(id)
      await commit(id, { pricedWith: { ...pricedWith } })
    },
  }
}
