import { randomUUID } from 'node:crypto'
import { mkdir, readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { seal, unseal } from '../auth/sealed.ts'
import type { CloudContext } from '../cloud/types.ts'
import { AppError } from '../errors.ts'
import { TEMP_SUFFIX, writeFileAtomic } from '../lib/atomic-write.ts'
import { log as serverLog } from '../log.ts'
import { resultWithBill } from './bill-of-record.ts'
import { SIGN_IN_AGAIN, STOPPED_WHILE_EXTRACTING } from './failure.ts'
import { newJobRecord, tooManyJobs } from './new-job.ts'
import { queueListeners } from './queue-listeners.ts'
import { parseStoredJob, type StoredJob } from './stored-job.ts'
import type {
  ClaimedJob,
  JobChange,
  JobRecord,
  JobResult,
  JobStore,
  NewJob,
  ResultFiles,
  ResultFormat,
} from './types.ts'

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

const ID_PATTERN = /^[0-9a-f-]{36}$/
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
  const keepPerUser = options.keepPerUser ?? 100
  const retentionMs = (options.retentionDays ?? 90) * DAY_MS
  const log = options.log ?? ((message: string) => serverLog.warn(message))
  const onChange = options.onChange ?? (() => {})
  await mkdir(root, { recursive: true, mode: 0o700 })

  const jobs = new Map<string, StoredJob>()
  const queue: string[] = []
  const writes = new Map<string, Promise<void>>()
  const queued = queueListeners((error) => log(`jobs: a queue listener failed: ${String(error)}`))

  /** Bills of record being kept, by job: one at a time per job. */
  const keeping = new Map<string, Promise<void>>()

  const dirOf = (id: string) => join(root, id)
  /**
   * A result's file. A re-priced bill of record is written beside the one it replaces
   * (`result-2.json`), and the record names it: the bill's three files change at once.
   */
  const resultPath = (id: string, format: ResultFormat, revision = 0) =>
    join(
      dirOf(id),
      revision === 0 || format === 'geometry' ? `result.${format}` : `result-${revision}.${format}`,
    )
  const revisionOf = (id: string) => jobs.get(id)?.billRevision ?? 0

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
      onChange({
        job: { ...change.job },
        ...(change.previous ? { previous: { ...change.previous } } : {}),
      })
    } catch (error) {
      log(`jobs: the change listener failed: ${String(error)}`)
    }
  }

  /** Deletes the user's finished jobs past the newest `keepPerUser`, and any past the retention. */
  async function prune(userId?: string): Promise<void> {
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
      await rm(dirOf(stale.job.id), { recursive: true, force: true })
    }
  }

  // Load what is on disk, then settle what a stop left behind.
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || !ID_PATTERN.test(entry.name)) continue
    const dir = dirOf(entry.name)
    for (const name of await readdir(dir)) {
      if (name.endsWith(TEMP_SUFFIX)) await rm(join(dir, name), { force: true })
    }
    const file = join(dir, 'job.json')
    let stored: StoredJob
    try {
      stored = parseStoredJob(await readFile(file, 'utf8'), entry.name)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        // Killed between creating the folder and the first record write: the POST never answered.
        await rm(dir, { recursive: true, force: true })
      } else {
        // Left as it is, for a person to look at: the server starts without it.
        log(`jobs: skipped the unreadable record ${file}: ${errorText(error)}`)
      }
      continue
    }
    jobs.set(stored.job.id, stored)
  }
  // A job still running on disk was under a process that ended without putting it back (kill,
  // crash, power loss, not a graceful stop). The drawing itself may have ended it: running it
  // again could end this process too, so it is failed at once. One that had begun writing its
  // BOQ back had read its drawing: it runs again, and its note keeps it to one written version.
  let interrupted = 0
  for (const stored of [...jobs.values()].sort(oldestFirst)) {
    const { id, status } = stored.job
    if (status === 'running' && stored.job.writeBack && stored.credentials) {
      await commit(id, { status: 'queued', progress: undefined })
      queue.push(id)
    } else if (status === 'running') {
      await commit(id, { status: 'failed', error: STOPPED_WHILE_EXTRACTING }, 'drop')
      interrupted++
    } else if (status === 'queued') {
      queue.push(id)
    }
  }
  if (interrupted > 0)
    log(`jobs: ${interrupted} job(s) running when the server stopped were failed`)
  await prune()
  // A server that runs for months still lets old jobs go.
  const retention = setInterval(() => void prune().catch(() => {}), PRUNE_EVERY_MS)
  retention.unref()

  return {
    async submit(input: NewJob, limits: { maxActivePerUser: number }) {
      // Sealed before the checks below, so nothing is awaited between them and the map's update.
      const credentials = await seal(input.context, options.tokenKey)
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
        await mkdir(dirOf(job.id), { mode: 0o700 })
        await persist(job.id, stored)
      } catch (error) {
        jobs.delete(job.id)
        await rm(dirOf(job.id), { recursive: true, force: true }).catch(() => {})
        throw error
      }
      queue.push(job.id)
      changed({ job })
      queued.notify()
      return { job: { ...job }, created: true }
    },

    async get(id) {
      const stored = jobs.get(id)
      return stored ? { ...stored.job } : undefined
    },

    async listByUser(userId) {
      return [...jobs.values()]
        .filter((s) => s.job.userId === userId)
        .sort(newestFirst)
        .map((s) => ({ ...s.job }))
    },

    async claim(): Promise<ClaimedJob | undefined> {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        const stored = jobs.get(id)
        if (stored?.job.status !== 'queued') continue
        const context = await unseal<CloudContext>(stored.credentials, options.tokenKey)
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

    async setProgress(id, progress) {
      const stored = jobs.get(id)
      // Memory only: progress is not worth a disk write, and a restart never resumes a job.
      if (stored?.job.status === 'running') stored.job = { ...stored.job, progress }
    },

    async setFileVersionNumber(id, versionNumber) {
      if (!jobs.has(id)) throw new AppError(404, 'No such job.')
      await commit(id, { fileVersionNumber: versionNumber })
    },

    async succeed(id, result: JobResult, files: ResultFiles) {
      const stored = jobs.get(id)
      if (!stored) throw new AppError(404, 'No such job.')
      await Promise.all([
        writeFileAtomic(resultPath(id, 'xlsx'), files.xlsx),
        writeFileAtomic(resultPath(id, 'csv'), files.csv),
        writeFileAtomic(resultPath(id, 'json'), files.json),
        files.geometry ? writeFileAtomic(resultPath(id, 'geometry'), files.geometry) : undefined,
      ])
      await commit(id, { status: 'succeeded', result, progress: undefined }, 'drop')
      await prune(stored.job.userId)
    },

    async fail(id, error) {
      const stored = jobs.get(id)
      if (!stored) throw new AppError(404, 'No such job.')
      await commit(id, { status: 'failed', error, progress: undefined }, 'drop')
      await prune(stored.job.userId)
    },

    async noteWriteBack(id, note) {
      if (!jobs.has(id)) throw new AppError(404, 'No such job.')
      await commit(id, { writeBack: { ...note } })
    },

    async notePricedWith(id, pricedWith) {
      if (!jobs.has(id)) throw new AppError(404, 'No such job.')
      await commit(id, { pricedWith: { ...pricedWith } })
    },

    keepBillOfRecord(id, bill) {
      const previous = keeping.get(id) ?? Promise.resolve()
      const next = previous
        .catch(() => {})
        .then(async () => {
          const stored = jobs.get(id)
          if (!stored) throw new AppError(404, 'No such job.')
          const result = resultWithBill(stored.job, bill)
          const before = stored.billRevision ?? 0
          const revision = before + 1
          // The new files first, under names of their own; the record then names them.
          await Promise.all(
            (['xlsx', 'csv', 'json'] as const).map((format) =>
              writeFileAtomic(resultPath(id, format, revision), bill.files[format]),
            ),
          )
          await commit(id, { result, pricedWith: { ...bill.pricedWith } }, undefined, revision)
          await Promise.all(
            (['xlsx', 'csv', 'json'] as const).map((format) =>
              rm(resultPath(id, format, before), { force: true }),
            ),
          )
        })
      keeping.set(id, next)
      void next
        .finally(() => {
          if (keeping.get(id) === next) keeping.delete(id)
        })
        .catch(() => {})
      return next
    },

    async release(id) {
      const stored = jobs.get(id)
      if (stored?.job.status !== 'running') return
      await commit(id, { status: 'queued', attempts: stored.job.attempts - 1, progress: undefined })
      queue.unshift(id)
      queued.notify()
    },

    async readResult(id, format) {
      for (;;) {
        if (jobs.get(id)?.job.status !== 'succeeded') return undefined
        const revision = revisionOf(id)
        try {
          // The file's own bytes, not a copy (a kept bill may be many megabytes).
          const bytes = await readFile(resultPath(id, format, revision))
          return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
          // Replaced by a newer bill of record while it was being read: that one is read.
          if (revisionOf(id) === revision) return undefined
        }
      }
    },

    async keepGeometry(id, geometry) {
      if (jobs.get(id)?.job.status !== 'succeeded') return
      await writeFileAtomic(resultPath(id, 'geometry'), geometry)
    },

    onQueued(listener) {
      return queued.add(listener)
    },

    async close() {
      clearInterval(retention)
      queued.clear()
      await Promise.allSettled([...keeping.values(), ...writes.values()])
    },
  }
}

function isFinished(job: JobRecord): boolean {
  return job.status === 'succeeded' || job.status === 'failed'
}

function oldestFirst(a: StoredJob, b: StoredJob): number {
  return a.job.createdAt.localeCompare(b.job.createdAt)
}

function newestFirst(a: StoredJob, b: StoredJob): number {
  return b.job.createdAt.localeCompare(a.job.createdAt)
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
