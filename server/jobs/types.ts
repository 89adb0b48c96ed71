import type { CloudContext } from '../cloud/types.ts'
import type { ExtractUnits } from './extract-units.ts'

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed'

/** What a succeeded job wrote back, and where its outputs can be downloaded. */
export interface JobResult {
  fileName: string
  itemId: string
  versionNumber: number
}

/** A job as the store keeps it (no credentials: those only leave the store through `claim`). */
export interface JobRecord {
  id: string
  status: JobStatus
  userId: string
  fileName: string
  projectId: string
  fileFolderId: string
  fileStorageId: string
  /** The bill's units the person chose; absent: by the drawing. */
  units?: ExtractUnits
  createdAt: string
  updatedAt: string
  /** How many times a worker has started it (a restart in the middle re-runs it). */
  attempts: number
  progress?: number
  error?: string
  result?: JobResult
}

/**
 * The job as the API answers it: the record without owner and attempts; `units` always present
 * (null when the bill follows the drawing).
 */
export type JobJson = Omit<JobRecord, 'userId' | 'attempts' | 'result' | 'units'> & {
  units: ExtractUnits | null
  result?: JobResult & { xlsxUrl: string; csvUrl: string }
}

export interface NewJob {
  fileName: string
  projectId: string
  fileFolderId: string
  fileStorageId: string
  units?: ExtractUnits
  /** Captured at submit time: the job runs after the request has ended. */
  context: CloudContext
}

/** A job a worker has taken, with the credentials captured when it was submitted. */
export interface ClaimedJob {
  job: JobRecord
  context: CloudContext
}

export interface ResultFiles {
  xlsx: Uint8Array
  csv: Uint8Array
}

export type ResultFormat = keyof ResultFiles

/**
 * The job store and queue behind one seam. The embedded implementation keeps everything in
 * BOQ_DATA_DIR; a shared one (Redis, Postgres) for several server processes implements the same
 * methods, and neither the routes nor the runner change. Every method that changes a job is
 * atomic with respect to the others (e.g. `submit` checks duplicates and limits and inserts in one
 * step; `claim` hands a queued job to exactly one worker).
 */
export interface JobStore {
  /**
   * Queues a job, or answers the user's queued/running job for the same storage id
   * (`created: false`, whatever units that one was asked with). Throws AppError 429 when the
   * user already has `maxActivePerUser` jobs queued or running.
   */
  submit(
    job: NewJob,
    limits: { maxActivePerUser: number },
  ): Promise<{ job: JobRecord; created: boolean }>
  get(id: string): Promise<JobRecord | undefined>
  /** The user's jobs, newest first. */
  listByUser(userId: string): Promise<JobRecord[]>
  /** Marks the oldest queued job running and hands it out; undefined when none is queued. */
  claim(): Promise<ClaimedJob | undefined>
  setProgress(id: string, progress: number): Promise<void>
  /** Stores the outputs, then marks the job succeeded (outputs first: a crash between loses nothing). */
  succeed(id: string, result: JobResult, files: ResultFiles): Promise<void>
  fail(id: string, error: string): Promise<void>
  /** Puts a running job back in the queue without counting the attempt (graceful shutdown). */
  release(id: string): Promise<void>
  readResult(id: string, format: ResultFormat): Promise<Uint8Array | undefined>
  /** Called whenever a job is queued, so idle workers start without polling. Returns unsubscribe. */
  onQueued(listener: () => void): () => void
  close(): Promise<void>
}
