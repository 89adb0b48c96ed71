import { Worker } from 'node:worker_threads'
import { BoqError, isBoqErrorKind } from './errors.ts'
import { detect } from './read/detect.ts'
import type { Boq } from './schema.ts'
import type { WorkerJob, WorkerMessage } from './worker.ts'

export type BoqEngineOptions = {
  /** Files read at the same time, each in its own worker (default 1). */
  workers?: number
  /** Larger files are refused before any parsing (default 64 MB). */
  maxFileBytes?: number
  /** A parse that takes longer is stopped (default 120 s). */
  timeoutMs?: number
  /** Memory one parse may use: JS heap and WebAssembly memory each (default 2048 MB). */
  memoryLimitMb?: number
}

export type BoqEngine = {
  extract(
    input: { bytes: Uint8Array; fileName: string },
    onProgress?: (fraction: number) => void,
  ): Promise<Boq>
  /** Resolves when a worker with its reader instance is ready for the next file. */
  ready(): Promise<void>
  close(): Promise<void>
}

const WORKER_URL = new URL('./worker.ts', import.meta.url)

type Warm = { worker: Worker; ready: Promise<void> }
type Pending = {
  input: { bytes: Uint8Array; fileName: string }
  onProgress?: (fraction: number) => void
  resolve: (boq: Boq) => void
  reject: (error: unknown) => void
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`
}

/**
 * Reads drawings in worker threads: one worker and one fresh LibreDWG instance per file, made
 * before the file arrives; a memory cap and a time limit per file; a crash ends the worker only.
 */
export function createBoqEngine(options: BoqEngineOptions = {}): BoqEngine {
  const workers = Math.max(1, Math.floor(options.workers ?? 1))
  const maxFileBytes = options.maxFileBytes ?? 64 * 1024 * 1024
  const timeoutMs = options.timeoutMs ?? 120_000
  const memoryLimitMb = Math.max(64, options.memoryLimitMb ?? 2048)
  const warm: Warm[] = []
  const queue: Pending[] = []
  const busy = new Set<Worker>()
  let closed = false

  const spawn = (): Warm => {
    const worker = new Worker(WORKER_URL, {
      workerData: { memoryLimitMb },
      resourceLimits: { maxOldGenerationSizeMb: memoryLimitMb, maxYoungGenerationSizeMb: 32 },
      stdout: true,
      stderr: true,
    })
    // LibreDWG's chatter is not the host's business.
    worker.stdout.resume()
    worker.stderr.resume()
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: WorkerMessage) => {
        if (message.type !== 'ready') return
        worker.off('message', onMessage)
        worker.off('error', reject)
        resolve()
      }
      worker.on('message', onMessage)
      worker.once('error', reject)
      worker.once('exit', () =>
        reject(new BoqError('crashed', 'The reader stopped before it was ready.')),
      )
    })
    ready.catch(() => {})
    worker.unref()
    return { worker, ready }
  }

  // Keep one ready worker per slot, so reader creation is off every file's critical path.
  const refill = () => {
    while (!closed && warm.length < workers) warm.push(spawn())
  }

  const run = async (job: Pending): Promise<Boq> => {
    let slot = warm.shift() ?? spawn()
    refill()
    try {
      await slot.ready
    } catch {
      // A worker that died while warming is replaced once.
      slot = spawn()
      await slot.ready
    }
    const { worker } = slot
    busy.add(worker)
    worker.ref() // a file in progress keeps the process alive (idle workers do not)
    try {
      return await new Promise<Boq>((resolve, reject) => {
        let settled = false
        const finish = (fn: () => void) => {
          if (settled) return
          settled = true
          clearTimeout(timer)
          fn()
          void worker.terminate()
        }
        const timer = setTimeout(
          () =>
            finish(() =>
              reject(
                new BoqError(
                  'timeout',
                  `Took longer than ${Math.round(timeoutMs / 1000)} s to read; stopped.`,
                ),
              ),
            ),
          timeoutMs,
        )
        worker.on('message', (message: WorkerMessage) => {
          if (message.type === 'progress') job.onProgress?.(message.fraction)
          else if (message.type === 'result') finish(() => resolve(message.boq))
          else if (message.type === 'error') {
            const kind = isBoqErrorKind(message.kind) ? message.kind : 'crashed'
            finish(() => reject(new BoqError(kind, message.message)))
          }
        })
        worker.once('error', (error: Error & { code?: string }) =>
          finish(() =>
            reject(
              error.code === 'ERR_WORKER_OUT_OF_MEMORY'
                ? new BoqError(
                    'too-large',
                    `The drawing needs more than ${memoryLimitMb} MB of memory to read.`,
                  )
                : new BoqError('crashed', `The reader crashed (${error.message}).`),
            ),
          ),
        )
        worker.once('exit', () =>
          finish(() => reject(new BoqError('crashed', 'The reader stopped without an answer.'))),
        )
        const bytes = job.input.bytes.slice()
        worker.postMessage({ bytes, fileName: job.input.fileName } satisfies WorkerJob, [
          bytes.buffer,
        ])
      })
    } finally {
      busy.delete(worker)
    }
  }

  let active = 0
  const pump = () => {
    while (!closed && active < workers && queue.length > 0) {
      const job = queue.shift() as Pending
      active++
      run(job)
        .then(job.resolve, job.reject)
        .finally(() => {
          active--
          pump()
        })
    }
  }

  refill()

  return {
    extract(input, onProgress) {
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
        detect(input.bytes)
      } catch (error) {
        return Promise.reject(error)
      }
      return new Promise<Boq>((resolve, reject) => {
        queue.push({ input, onProgress, resolve, reject })
        pump()
      })
    },
    async ready() {
      refill()
      await Promise.all(warm.map((w) => w.ready.catch(() => {})))
    },
    async close() {
      closed = true
      for (const job of queue.splice(0))
        job.reject(new BoqError('crashed', 'The BOQ engine was closed.'))
      const all = [...warm.splice(0).map((w) => w.worker), ...busy]
      await Promise.all(all.map((w) => w.terminate()))
    },
  }
}
