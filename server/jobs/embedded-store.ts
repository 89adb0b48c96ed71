import { randomUUID } from 'node:crypto'
import { mkdir, readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { CloudContext } from '../cloud/types.ts'
import { AppError } from '../errors.ts'
import { TEMP_SUFFIX, writeFileAtomic } from './atomic-write.ts'
import { createTokenBox } from './token-box.ts'
import type {
  ClaimedJob,
  JobRecord,
  JobResult,
  JobStore,
  NewJob,
  ResultFiles,
  ResultFormat,
} from './types.ts'

/** What one `<jobs>/<id>/job.json` holds. */
interface StoredJob {
  version: 1
  job: JobRecord
  /** Sealed CloudContext; present only while the job is queued or running. */
  credentials?: string
}

export interface EmbeddedStoreOptions {
  /** BOQ_DATA_DIR: the store keeps everything under `<dataDir>/jobs`. */
  dataDir: string
  sessionSecret?: string
  /** A job interrupted by a stop this many times is failed instead of run again. */
  maxAttempts?: number
  /** Finished jobs kept per user (older ones and their outputs are deleted). */
  keepPerUser?: number
  log?: (message: string) => void
}

export const SIGN_IN_AGAIN =
  'Your sign-in could not be used for this job any more. Sign in and extract again.'

const ID_PATTERN = /^[0-9a-f-]{36}$/

/**
 * The embedded job store and queue: one folder per job under BOQ_DATA_DIR/jobs, each with its
 * record (`job.json`, replaced atomically on every change) and, once succeeded, its outputs.
 * The in-memory map is the working copy; the files are the truth on start. Progress is kept in
 * memory only (a restart re-runs the job anyway). One server process owns the folder.
 */
export async function openEmbeddedJobStore(options: EmbeddedStoreOptions): Promise<JobStore> {
  const root = join(options.dataDir, 'jobs')
  const maxAttempts = options.maxAttempts ?? 2
  const keepPerUser = options.keepPerUser ?? 100
  const log = options.log ?? ((message: string) => console.warn(message))
  await mkdir(root, { recursive: true, mode: 0o700 })
  const box = await createTokenBox({ dir: root, sessionSecret: options.sessionSecret })

  const jobs = new Map<string, StoredJob>()
  const queue: string[] = []
  const writes = new Map<string, Promise<void>>()
  const listeners = new Set<() => void>()

  const dirOf = (id: string) => join(root, id)
  const resultPath = (id: string, format: ResultFormat) => join(dirOf(id), `result.${format}`)

  /** Writes the job's current state; writes of one job run one after another, in order. */
  function persist(id: string): Promise<void> {
    const previous = writes.get(id) ?? Promise.resolve()
    const next = previous
      .catch(() => {})
      .then(async () => {
        const stored = jobs.get(id)
        if (!stored) return
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

  function change(id: string, patch: Partial<JobRecord>, credentials?: 'drop'): StoredJob {
    const stored = jobs.get(id)
    if (!stored) throw new AppError(404, 'No such job.')
    stored.job = { ...stored.job, ...patch, updatedAt: new Date().toISOString() }
    if (credentials === 'drop') delete stored.credentials
    return stored
  }

  function notify(): void {
    for (const listener of listeners) {
      try {
        listener()
      } catch (error) {
        log(`jobs: a queue listener failed: ${String(error)}`)
      }
    }
  }

  async function prune(userId: string): Promise<void> {
    const finished = [...jobs.values()]
      .filter((s) => s.job.userId === userId && isFinished(s.job))
      .sort(newestFirst)
    for (const stale of finished.slice(keepPerUser)) {
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
    let stored: StoredJob
    try {
      stored = JSON.parse(await readFile(join(dir, 'job.json'), 'utf8')) as StoredJob
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        // Killed between creating the folder and the first record write: the POST never answered.
        await rm(dir, { recursive: true, force: true })
      } else {
        log(`jobs: skipped unreadable record ${entry.name}: ${String(error)}`)
      }
      continue
    }
    jobs.set(stored.job.id, stored)
  }
  const recovered: string[] = []
  for (const stored of [...jobs.values()].sort(oldestFirst)) {
    const { id, status, attempts } = stored.job
    if (status === 'running') {
      if (attempts >= maxAttempts) {
        change(
          id,
          {
            status: 'failed',
            error: `The server stopped while extracting this drawing (${attempts} times), so it was not tried again.`,
          },
          'drop',
        )
      } else {
        change(id, { status: 'queued' })
        queue.push(id)
      }
      recovered.push(id)
    } else if (status === 'queued') {
      queue.push(id)
    }
  }
  await Promise.all(recovered.map((id) => persist(id)))
  if (recovered.length > 0) log(`jobs: ${recovered.length} job(s) interrupted by a stop settled`)

  return {
    async submit(input: NewJob, limits: { maxActivePerUser: number }) {
      const userId = input.context.user.userId
      const active = [...jobs.values()].filter((s) => s.job.userId === userId && !isFinished(s.job))
      const same = active.find((s) => s.job.fileStorageId === input.fileStorageId)
      if (same) {
        await writes.get(same.job.id)
        return { job: { ...same.job }, created: false }
      }
      if (active.length >= limits.maxActivePerUser) {
        throw new AppError(
          429,
          `You already have ${active.length} extractions waiting or running (the limit is ${limits.maxActivePerUser}). Wait for one to finish, then extract again.`,
        )
      }
      const now = new Date().toISOString()
      const job: JobRecord = {
        id: randomUUID(),
        status: 'queued',
        userId,
        fileName: input.fileName,
        projectId: input.projectId,
        fileFolderId: input.fileFolderId,
        fileStorageId: input.fileStorageId,
        createdAt: now,
        updatedAt: now,
        attempts: 0,
      }
      jobs.set(job.id, { version: 1, job, credentials: box.seal(input.context) })
      try {
        await mkdir(dirOf(job.id), { mode: 0o700 })
        await persist(job.id)
      } catch (error) {
        jobs.delete(job.id)
        await rm(dirOf(job.id), { recursive: true, force: true }).catch(() => {})
        throw error
      }
      queue.push(job.id)
      notify()
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
        const context = stored.credentials ? box.open<CloudContext>(stored.credentials) : undefined
        if (!context) {
          change(id, { status: 'failed', error: SIGN_IN_AGAIN }, 'drop')
          await persist(id)
          continue
        }
        change(id, { status: 'running', attempts: stored.job.attempts + 1, progress: 0 })
        await persist(id)
        return { job: { ...stored.job }, context }
      }
      return undefined
    },

    async setProgress(id, progress) {
      const stored = jobs.get(id)
      if (stored?.job.status === 'running') change(id, { progress })
    },

    async succeed(id, result: JobResult, files: ResultFiles) {
      const stored = jobs.get(id)
      if (!stored) throw new AppError(404, 'No such job.')
      await writeFileAtomic(resultPath(id, 'xlsx'), files.xlsx)
      await writeFileAtomic(resultPath(id, 'csv'), files.csv)
      change(id, { status: 'succeeded', result, progress: undefined }, 'drop')
      await persist(id)
      await prune(stored.job.userId)
    },

    async fail(id, error) {
      const stored = jobs.get(id)
      if (!stored) throw new AppError(404, 'No such job.')
      change(id, { status: 'failed', error, progress: undefined }, 'drop')
      await persist(id)
      await prune(stored.job.userId)
    },

    async release(id) {
      const stored = jobs.get(id)
      if (stored?.job.status !== 'running') return
      change(id, { status: 'queued', attempts: stored.job.attempts - 1, progress: undefined })
      await persist(id)
      queue.unshift(id)
      notify()
    },

    async readResult(id, format) {
      if (jobs.get(id)?.job.status !== 'succeeded') return undefined
      try {
        return new Uint8Array(await readFile(resultPath(id, format)))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
        throw error
      }
    },

    onQueued(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },

    async close() {
      listeners.clear()
      await Promise.allSettled([...writes.values()])
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
