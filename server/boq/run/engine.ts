import { BoqError } from '../model/boq-error.ts'
import type { Boq } from '../model/schema.ts'
import { detect } from '../read/detect.ts'
import type { BoqFiles, WrittenFormat } from '../write/files.ts'
import { type DrawingJob, drawingTask, PricingOverBudget } from './drawing-task.ts'
import type { WorkerFileInfo } from './drawing-worker.ts'
import type { BoqInput } from './input.ts'
import { DEFAULT_MAX_FILE_MB } from './limits.ts'
import { createWorkerPool, type WorkerPool } from './pool/pool.ts'

export type BoqEngineOptions = {
  /** Files read at the same time, each in its own thread (default 1). */
  workers?: number
  /** Larger files are refused before any parsing (default BOQ_MAX_FILE_MB's default, 200 MB). */
  maxFileBytes?: number
  /** A parse that takes longer is stopped (default 120 s); writing the files has as long again. */
  timeoutMs?: number
  /**
   * Pricing the bill with the job's tables that takes longer is stopped with its thread (default
   * 20 s): the drawing is read again in a fresh thread and its bill written unpriced, saying why.
   */
  pricingBudgetMs?: number
  /** A worker module in place of worker.ts that loads it (tests); the engine's own pool only. */
  workerUrl?: URL
  /** Memory one parse may use: JS heap and WebAssembly memory each (default 2048 MB). */
  memoryLimitMb?: number
  /**
   * A thread whose JS heap is above this after a file is replaced by a fresh one (default 512 MB;
   * also replaced when its used reader instances are not being released).
   */
  recycleAboveMb?: number
  /**
   * The server's pool, whose lane `lane` reads the drawings (`workers` of its threads kept with
   * their readers ready); closing the engine leaves it open. Default: a pool of the engine's own.
   */
  pool?: { pool: WorkerPool; lane: string }
}

/** What the engine has done, for tests and benchmarks. */
export type BoqEngineStats = {
  workersStarted: number
  /** Workers replaced after a crash, a timeout or too much memory. */
  workersReplaced: number
  files: number
  /** The last file: which worker read it, with which of that worker's instances, memory after. */
  last: (WorkerFileInfo & { worker: number }) | null
}

export type BoqEngine = {
  extract(input: BoqInput, onProgress?: (fraction: number) => void): Promise<Boq>
  /**
   * The bill written as files (XLSX, CSV, JSON) in the worker, so a large bill costs the host
   * nothing but the bytes; the Boq itself stays in the worker.
   */
  extractFiles(
    input: BoqInput,
    formats: WrittenFormat[],
    onProgress?: (fraction: number) => void,
  ): Promise<BoqFiles>
  /** Resolves when every idle worker has its reader instance ready for the next file. */
  ready(): Promise<void>
  stats(): BoqEngineStats
  close(): Promise<void>
}

/** The lane of the engine's own pool. */
const DRAWINGS = 'drawings'

const closedError = () => new BoqError('crashed', 'The BOQ engine was closed.')

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`
}

/**
 * Reads drawings in long-lived worker threads, each file from the state of a fresh LibreDWG
 * instance (put back before the file arrives); a memory cap and a time limit per file; a crash
 * ends the worker only.
 */
export function createBoqEngine(options: BoqEngineOptions = {}): BoqEngine {
  const workers = Math.max(1, Math.floor(options.workers ?? 1))
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_MB * 1024 * 1024
  const limits = {
    timeoutMs: options.timeoutMs ?? 120_000,
    pricingBudgetMs: options.pricingBudgetMs ?? 20_000,
    memoryLimitMb: Math.max(64, options.memoryLimitMb ?? 2048),
    recycleAboveMb: options.recycleAboveMb ?? 512,
  }
  const own = !options.pool
  const { pool, lane } = options.pool ?? {
    pool: createWorkerPool({
      lanes: { [DRAWINGS]: { threads: workers, warm: true } },
      workerUrl: options.workerUrl,
      memoryLimitMb: limits.memoryLimitMb,
      closedError,
    }),
    lane: DRAWINGS,
  }
  limits.memoryLimitMb = pool.memoryLimitMb
  // Start the workers now: their readers are ready before the first file arrives.
  pool.keep(workers)
  const files = { count: 0, last: null as BoqEngineStats['last'] }
  const onFile = (info: WorkerFileInfo, worker: number) => {
    files.count++
    files.last = { ...info, worker }
  }
  // Closing ends this engine's files, also in a pool it shares.
  const closing = new AbortController()
  let closed = false

  const readOnce = (job: DrawingJob, first = false) =>
    pool.run(lane, { ...drawingTask(job, limits, onFile, closing.signal), first })

  /**
   * A job whose pricing ran past its budget is read again at once, in a fresh thread, without
   * its pricing: its bill is written measured only, saying why (as tables that do not apply).
   */
  const read = async (job: DrawingJob): Promise<Boq | BoqFiles> => {
    try {
      return await readOnce(job)
    } catch (error) {
      if (!(error instanceof PricingOverBudget)) throw error
      const { pricing: _slow, ...input } = job.input
      const unpriced = `The bill is not priced: pricing it with the project's takeoff rules took longer than ${Math.round(limits.pricingBudgetMs / 1000)} s, so it was stopped; the bill is measured only.`
      return readOnce({ ...job, input, unpriced }, true)
    }
  }

  const submit = async (job: DrawingJob): Promise<Boq | BoqFiles> => {
    if (closed) throw new BoqError('crashed', 'The BOQ engine is closed.')
    checkInput(job.input, maxFileBytes)
    return read(job)
  }

  return {
    extract: (input, onProgress) => submit({ input, onProgress }) as Promise<Boq>,
    extractFiles: (input, formats, onProgress) =>
      submit({ input, formats, onProgress }) as Promise<BoqFiles>,
    ready: () => pool.ready(),
    stats() {
      const { threadsStarted, threadsReplaced } = pool.stats()
      return {
        workersStarted: threadsStarted,
        workersReplaced: threadsReplaced,
        files: files.count,
        last: files.last && { ...files.last },
      }
    },
    async close() {
      closed = true
      if (own) await pool.close()
      else closing.abort(closedError())
    },
  }
}

/** Cheap checks on the request thread: a file too large, empty or a PDF never costs a worker. */
export function checkInput(input: BoqInput, maxFileBytes: number): void {
  const size = input.bytes.length
  if (size > maxFileBytes) {
    throw new BoqError(
      'too-large',
      `Too large (limit ${megabytes(maxFileBytes)}; the file has ${megabytes(size)}).`,
    )
  }
  detect(input.bytes, input.fileName)
}
