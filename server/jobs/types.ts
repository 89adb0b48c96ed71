import type { ComparedBill } from '#contract/compare.ts'
import type { JobStatus, PricedWith } from '#contract/jobs.ts'
import type { ExtractUnits } from '#contract/units.ts'
import type { BoqFiles, OutputFormat } from '../boq/write/files.ts'
import type { CloudContext, FolderPlace } from '../cloud/types.ts'

/** What a succeeded job wrote back, and what the bill warns about. */
export interface JobResult {
  fileName: string
  itemId: string
  versionNumber: number
  /** The bill's first warnings (runner.ts's MAX_KEPT_WARNINGS; all are in the XLSX and CSV). */
  warnings?: string[]
  /** How many warnings the bill has in all. */
  warningCount?: number
  /** The earlier job whose bill the written workbook's Changes sheet compares with. */
  comparedWith?: ComparedBill
  /** How many of the bill's lines differ from that earlier bill. */
  changedLines?: number
  /** The BOQ JSON is kept (jobs recorded before it was have only the XLSX and the CSV). */
  jsonKept?: boolean
  /**
   * The extraction kept the drawing's geometry with the bill (jobs recorded before it was, or
   * whose geometry could not be made then, have it built on their first view).
   */
  geometryKept?: boolean
}

/** Where the drawing's folder sits, as the cloud told it when the job was submitted. */
export type JobFolder = FolderPlace

/**
 * The job's write-back, noted before and after the upload, so that a job run again after its
 * worker died never writes a second version: `before` is the result item's newest version number
 * before writing (0: no such item), `written` what the upload made.
 */
export interface WriteBackNote {
  fileName: string
  before: number
  written?: { itemId: string; versionNumber: number }
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
  /** The number of the version read (the storage id's version); absent until known. */
  fileVersionNumber?: number
  folder?: JobFolder
  /** The bill's units the person chose; absent: by the drawing. */
  units?: ExtractUnits
  createdAt: string
  updatedAt: string
  /** How many times a worker has started it (a graceful stop puts it back without counting). */
  attempts: number
  progress?: number
  error?: string
  result?: JobResult
  /** Where the written XLSX went, or was going when a worker stopped (not shown to the user). */
  writeBack?: WriteBackNote
  /**
   * The saved rules and classification versions its bill of record (the bill its results hold)
   * was priced with: at extraction, or by the last re-pricing.
   */
  pricedWith?: PricedWith
  /** The watch that started it by itself; absent: a person did. */
  watchId?: string
}

/** One change of a job's status, as the store made it (what the job log writes a line for). */
export interface JobChange {
  /** The job after the change. */
  job: JobRecord
  /** The job before it; absent for a new job. */
  previous?: JobRecord
}

export interface NewJob {
  fileName: string
  projectId: string
  fileFolderId: string
  fileStorageId: string
  /** What the cloud told cheaply at submit time (see locate.ts). */
  fileVersionNumber?: number
  folder?: JobFolder
  units?: ExtractUnits
  /** The watch that starts it (absent: the person asked). */
  watchId?: string
  /** Captured at submit time: the job runs after the request has ended. */
  context: CloudContext
}

/** A job a worker has taken, with the credentials captured when it was submitted. */
export interface ClaimedJob {
  job: JobRecord
  context: CloudContext
}

/**
 * What a succeeded job keeps, in the engine's formats: the bill's files, and the drawing's
 * geometry gzip-compressed as it is sent (jobs recorded before it was kept have none; jobs
 * recorded before the JSON was kept have no JSON to read, though a new one always has it), and
 * the bill's part of a project bill (the figures a project bill sums, read instead of the whole
 * JSON: jobs recorded before parts were kept have none).
 */
export type ResultFiles = Required<Pick<BoqFiles['files'], 'xlsx' | 'csv' | 'json'>> &
  Pick<BoqFiles['files'], 'geometry' | 'part'>

export type ResultFormat = OutputFormat

/**
 * A job's bill priced again, to be kept as its bill of record: its files replace the ones the
 * job kept, and the job says what they are (the versions they were priced with, their warnings,
 * the earlier bill their Changes sheet compares with, and the workbook written back, if any).
 */
export interface BillOfRecord {
  pricedWith: PricedWith
  files: Pick<ResultFiles, 'xlsx' | 'csv' | 'json' | 'part'>
  result: Pick<JobResult, 'warnings' | 'warningCount' | 'comparedWith' | 'changedLines'>
  /** The workbook written back beside the drawing as the result's next version; absent: none. */
  written?: { itemId: string; versionNumber: number }
}

/**
 * The job store and queue behind one seam. The embedded implementation keeps everything in
 * BOQ_DATA_DIR for one process; the PostgreSQL one (server/jobs/pg) is shared by any number of
 * processes, and neither the routes nor the runner know which one they use. Every method that changes a job is
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
  /** Records the number of the version read, when it was learnt only while running. */
  setFileVersionNumber(id: string, versionNumber: number): Promise<void>
  /** Stores the outputs, then marks the job succeeded (outputs first: a crash between loses nothing). */
  succeed(id: string, result: JobResult, files: ResultFiles): Promise<void>
  fail(id: string, error: string): Promise<void>
  /** Records the write-back before and after the upload (see WriteBackNote). */
  noteWriteBack(id: string, note: WriteBackNote): Promise<void>
  /** Puts a running job back in the queue without counting the attempt (graceful shutdown). */
  release(id: string): Promise<void>
  readResult(id: string, format: ResultFormat): Promise<Uint8Array | undefined>
  /**
   * Keeps a geometry built after the job succeeded (gzip-compressed, as `succeed` keeps one) with
   * its results, for `readResult` to answer; nothing for a job that has not succeeded. Kept
   * twice (two processes built it at once), the job keeps one of them: both are the same.
   */
  keepGeometry(id: string, geometry: Uint8Array): Promise<void>
  /** Records the saved rules and classification versions a job's bill was priced with. */
  notePricedWith(id: string, pricedWith: PricedWith): Promise<void>
  /**
   * Keeps a succeeded job's re-priced bill as its bill of record: its files and what the job says
   * of them change together (a reader gets the old bill or the new one, never a mix, and a crash
   * leaves one or the other). 404 for an unknown job; 409 for one that has not succeeded.
   */
  keepBillOfRecord(id: string, bill: BillOfRecord): Promise<void>
  /** Called whenever a job is queued, so idle workers start without polling. Returns unsubscribe. */
  onQueued(listener: () => void): () => void
  close(): Promise<void>
}
