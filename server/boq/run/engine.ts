import { Worker } from 'node:worker_threads'
import { BoqError, isBoqErrorKind } from '../model/boq-error.ts'
import type { Boq } from '../model/schema.ts'
import { detect } from '../read/detect.ts'
import type { BoqFiles, OutputFormat } from '../write/files.ts'
import type { BoqInput } from './input.ts'
import { DEFAULT_MAX_FILE_MB } from './limits.ts'
import type { WorkerFileInfo, WorkerJob, WorkerMessage } from './worker.ts'

export type BoqEngineOptions = {
  /** Files read at the same time, each in its own worker (default 1). */
  workers?: number
  /** Larger files are refused before any parsing (default BOQ_MAX_FILE_MB's default, 200 MB). */
  maxFileBytes?: number
  /** A parse that takes longer is stopped (default 120 s); writing the files has as long again. */
  timeoutMs?: number
  /**
   * Pricing the bill with the job's tables that takes longer is stopped with its worker (default
   * 20 s): the drawing is read again in a fresh worker and its bill written unpriced, saying why.
   */
  pricingBudgetMs?: number
  /** A worker module in place of worker.ts that loads it (tests). */
  workerUrl?: URL
  /** Memory one parse may use: JS heap and WebAssembly memory each (default 2048 MB). */
  memoryLimitMb?: number
  /**
   * A worker whose JS heap is above this after a file is replaced by a fresh one (default 512 MB;
   * also replaced when its used reader instances are not being released).
   */
  recycleAboveMb?: number
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
    formats: OutputFormat[],
    onProgress?: (fraction: number) => void,
  ): Promise<BoqFiles>
  /** Resolves when every idle worker has its reader instance ready for the next file. */
  ready(): Promise<void>
  stats(): BoqEngineStats
  close(): Promise<void>
}

const WORKER_URL = new URL('./worker.ts', import.meta.url)
/**
 * Dropped reader instances (replaced after a failure inside the reader, after growing, or every
 * so many files) a worker may hold unreleased before it is replaced: the garbage collector frees
 * them with some lag; many more means they are not being freed.
 */
const MAX_LIVE_READERS = 16

type Job = {
  input: BoqInput
  /** Files to write in the worker; absent: the Boq itself is the answer. */
  formats?: OutputFormat[]
  /** Why the bill is written unpriced (its pricing ran past the budget before). */
  unpriced?: string
  onProgress?: (fraction: number) => void
  resolve: (answer: Boq | BoqFiles) => void
  reject: (error: unknown) => void
}

/** One worker thread and what it is doing. */
type Slot = {
  id: number
  worker: Worker
  /** Settles when the worker's reader is in a fresh state for the next file. */
  ready: Promise<void>
  /** The reader is ready: a file sent now starts at once. */
  isReady: boolean
  markReady: () => void
  failReady: (error: unknown) => void
  /** The file in progress: its message handler and how it ends when the worker dies. */
  onMessage: ((message: WorkerMessage) => void) | null
  onDeath: ((error: unknown) => void) | null
  dead: boolean
  /** Replace after the current file (crash, timeout or memory). */
  retire: boolean
}

/** A job's pricing ran past its budget: its worker is ended and the job read again, unpriced. */
class PricingOverBudget extends Error {}

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
  const timeoutMs = options.timeoutMs ?? 120_000
  const pricingBudgetMs = options.pricingBudgetMs ?? 20_000
  const workerUrl = options.workerUrl ?? WORKER_URL
  const memoryLimitMb = Math.max(64, options.memoryLimitMb ?? 2048)
  const recycleAboveMb = options.recycleAboveMb ?? 512
  const idle: Slot[] = []
  const busy = new Set<Slot>()
  const queue: Job[] = []
  const stats: BoqEngineStats = { workersStarted: 0, workersReplaced: 0, files: 0, last: null }
  let closed = false

  const expectReady = (slot: Slot) => {
    slot.isReady = false
    slot.ready = new Promise<void>((resolve, reject) => {
      slot.markReady = () => {
        slot.isReady = true
        resolve()
      }
      slot.failReady = reject
    })
    slot.ready.catch(() => {})
  }

  const spawn = (): Slot => {
    const worker = new Worker(workerUrl, {
      workerData: { memoryLimitMb },
      resourceLimits: { maxOldGenerationSizeMb: memoryLimitMb, maxYoungGenerationSizeMb: 32 },
      stdout: true,
      stderr: true,
    })
    stats.workersStarted++
    const slot: Slot = {
      id: stats.workersStarted,
      worker,
      ready: Promise.resolve(),
      isReady: false,
      markReady: () => {},
      failReady: () => {},
      onMessage: null,
      onDeath: null,
      dead: false,
      retire: false,
    }
    expectReady(slot)
    // LibreDWG's chatter is not the host's business.
    worker.stdout.resume()
    worker.stderr.resume()
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'ready') slot.markReady()
      else slot.onMessage?.(message)
    })
    const die = (error: unknown) => {
      slot.dead = true
      slot.failReady(error)
      slot.onDeath?.(error)
    }
    worker.on('error', die)
    worker.once('exit', () => die(new BoqError('crashed', 'The reader stopped without an answer.')))
    worker.unref() // an idle worker does not keep the process alive
    return slot
  }

  const replace = (slot: Slot) => {
    stats.workersReplaced++
    void slot.worker.terminate()
    if (!closed) idle.push(spawn())
  }

  /**
   * An idle worker with its instance ready (a worker that died while idle is replaced once).
   * One whose reader is ready goes first, so a file never waits on a worker that is still
   * putting its reader back (or making a new one) while another is free.
   */
  const acquire = async (): Promise<Slot> => {
    const readyNow = idle.findIndex((s) => s.isReady && !s.dead)
    let slot = (readyNow >= 0 ? idle.splice(readyNow, 1)[0] : idle.shift()) ?? spawn()
    // Busy from now on, so that closing the engine ends a worker a file is still waiting for.
    busy.add(slot)
    try {
      await slot.ready
      if (slot.dead) throw new Error('dead')
    } catch {
      busy.delete(slot)
      void slot.worker.terminate()
      // Closed while this file waited for its worker: no new worker outlives the engine.
      if (closed) throw new BoqError('crashed', 'The BOQ engine was closed.')
      stats.workersReplaced++
      slot = spawn()
      busy.add(slot)
      await slot.ready.catch((error: unknown) => {
        busy.delete(slot)
        throw error
      })
    }
    return slot
  }

  const readIn = (slot: Slot, job: Job): Promise<Boq | BoqFiles> =>
    new Promise<Boq | BoqFiles>((resolve, reject) => {
      let settled = false
      const finish = (fn: () => void) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        slot.onMessage = null
        slot.onDeath = null
        fn()
      }
      // Reading has its budget, and writing the files (the Changes sheet against an earlier
      // bill, the priced bill) a budget of its own: a long comparison is not a slow drawing.
      const budget = (doing: string) =>
        setTimeout(
          () =>
            finish(() => {
              slot.retire = true
              reject(
                new BoqError(
                  'timeout',
                  `Took longer than ${Math.round(timeoutMs / 1000)} s to ${doing}; stopped.`,
                ),
              )
            }),
          timeoutMs,
        )
      let timer = budget('read')
      // Pricing has a budget of its own, shorter: a rule set that prices slowly ends the worker
      // before it holds it (and everyone's jobs behind it) for the whole write budget.
      const pricingBudget = () =>
        setTimeout(
          () =>
            finish(() => {
              slot.retire = true
              reject(new PricingOverBudget())
            }),
          pricingBudgetMs,
        )
      const done = (info: WorkerFileInfo) => {
        stats.files++
        stats.last = { ...info, worker: slot.id }
        if (info.heapMb > recycleAboveMb || info.liveReaders > MAX_LIVE_READERS) slot.retire = true
      }
      slot.onMessage = (message) => {
        if (message.type === 'progress') job.onProgress?.(message.fraction)
        else if (message.type === 'read' || message.type === 'priced') {
          clearTimeout(timer)
          timer = budget('write the bill')
        } else if (message.type === 'pricing') {
          clearTimeout(timer)
          timer = pricingBudget()
        } else if (message.type === 'result') {
          done(message.info)
          finish(() => resolve(message.answer))
        } else if (message.type === 'error') {
          done(message.info)
          const kind = isBoqErrorKind(message.kind) ? message.kind : 'crashed'
          finish(() => reject(new BoqError(kind, message.message)))
        }
      }
      slot.onDeath = (error) =>
        finish(() => {
          slot.retire = true
          const { code, message } = error as Error & { code?: string }
          reject(
            error instanceof BoqError
              ? error
              : code === 'ERR_WORKER_OUT_OF_MEMORY'
                ? new BoqError(
                    'too-large',
                    `The drawing needs more than ${memoryLimitMb} MB of memory to read.`,
                  )
                : new BoqError('crashed', `The reader crashed (${message}).`),
          )
        })
      // The worker answers, then puts its reader back to a fresh state and says 'ready' again.
      expectReady(slot)
      // One copy, handed over (not cloned) to the worker, which reads it in place. (A Buffer's own
      // slice() is a view: transferring it would empty the caller's bytes.)
      const bytes = Uint8Array.prototype.slice.call(job.input.bytes)
      slot.worker.postMessage(
        {
          bytes,
          fileName: job.input.fileName,
          options: job.input.options,
          formats: job.formats,
          changesFrom: job.input.changesFrom,
          pricing: job.input.pricing,
          locations: job.input.locations,
          unpriced: job.unpriced,
        } satisfies WorkerJob,
        [bytes.buffer],
      )
    })

  /**
   * A job whose pricing ran past its budget is read again at once, in a fresh worker, without
   * its pricing: its bill is written measured only, saying why (as tables that do not apply).
   */
  const run = async (job: Job): Promise<Boq | BoqFiles> => {
    try {
      return await runOnce(job)
    } catch (error) {
      if (!(error instanceof PricingOverBudget)) throw error
      const { pricing: _slow, ...input } = job.input
      return runOnce({
        ...job,
        input,
        unpriced: `The bill is not priced: pricing it with the project's takeoff rules took longer than ${Math.round(pricingBudgetMs / 1000)} s, so it was stopped; the bill is measured only.`,
      })
    }
  }

  const runOnce = async (job: Job): Promise<Boq | BoqFiles> => {
    const slot = await acquire()
    slot.worker.ref() // a file in progress keeps the process alive
    try {
      return await readIn(slot, job)
    } finally {
      busy.delete(slot)
      slot.worker.unref()
      if (slot.retire || slot.dead) replace(slot)
      else if (closed) void slot.worker.terminate()
      else idle.push(slot)
    }
  }

  let active = 0
  const pump = () => {
    while (!closed && active < workers && queue.length > 0) {
      const job = queue.shift() as Job
      active++
      run(job)
        .then(job.resolve, job.reject)
        .finally(() => {
          active--
          pump()
        })
    }
  }

  // Start the workers now: their readers are ready before the first file arrives.
  for (let i = 0; i < workers; i++) idle.push(spawn())

  const submit = (
    input: BoqInput,
    formats: OutputFormat[] | undefined,
    onProgress?: (fraction: number) => void,
  ): Promise<Boq | BoqFiles> => {
    if (closed) return Promise.reject(new BoqError('crashed', 'The BOQ engine is closed.'))
    const size = input.bytes.length
    if (size > maxFileBytes) {
      return Promise.reject(
        new BoqError(
          'too-large',
          `Too large (limit ${megabytes(maxFileBytes)}; the file has ${megabytes(size)}).`,
        ),
      )
    }
    try {
      // Cheap checks here: an empty file or a PDF never costs a worker.
      detect(input.bytes, input.fileName)
    } catch (error) {
      return Promise.reject(error)
    }
    return new Promise<Boq | BoqFiles>((resolve, reject) => {
      queue.push({ input, formats, onProgress, resolve, reject })
      pump()
    })
  }

  return {
    extract: (input, onProgress) => submit(input, undefined, onProgress) as Promise<Boq>,
    extractFiles: (input, formats, onProgress) =>
      submit(input, formats, onProgress) as Promise<BoqFiles>,
    async ready() {
      await Promise.all(idle.map((slot) => slot.ready.catch(() => {})))
    },
    stats: () => ({ ...stats, last: stats.last && { ...stats.last } }),
    async close() {
      closed = true
      for (const job of queue.splice(0))
        job.reject(new BoqError('crashed', 'The BOQ engine was closed.'))
      const all = [...idle.splice(0), ...busy].map((slot) => slot.worker)
      await Promise.all(all.map((worker) => worker.terminate()))
    },
  }
}
