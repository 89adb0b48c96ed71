/**
 * A worker reads one file after another, each with its own fresh LibreDWG instance: the next
 * instance is made as soon as a file is answered (before the next file arrives), and the used one
 * is dropped so its WebAssembly memory can be collected. The worker stays warm (its JavaScript
 * compiled and optimised); the engine replaces it after a crash, a timeout, or when it holds too
 * much memory.
 */
import { getHeapStatistics } from 'node:v8'
import { parentPort, workerData } from 'node:worker_threads'
import type { LibreDwgEx } from '@mlightcad/libredwg-web'
import { BoqError } from './errors.ts'
import { extractBoq } from './extract.ts'
import { type BoqFiles, type OutputFormat, renderFiles } from './files.ts'
import { createReader } from './read/libredwg.ts'
import type { BillOptions, Boq } from './schema.ts'

export type WorkerJob = {
  bytes: Uint8Array
  fileName: string
  options?: BillOptions
  /** Write these files here and answer them instead of the Boq. */
  formats?: OutputFormat[]
}

/** What the worker says about itself after each file (the engine's recycling decision, tests). */
export type WorkerFileInfo = {
  /** 1 for the worker's first instance, 2 for the next…: never the same for two files. */
  reader: number
  /** JS heap in use after the file, in MB. */
  heapMb: number
  /** Reader instances made in this worker that the garbage collector has not released yet. */
  liveReaders: number
}

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'progress'; fraction: number }
  | { type: 'result'; answer: Boq | BoqFiles; info: WorkerFileInfo }
  | { type: 'error'; kind: string; message: string; info: WorkerFileInfo }

const port = parentPort
if (!port) throw new Error('worker.ts runs as a worker thread')

// WebAssembly memory lives outside the JS heap that resourceLimits caps: refuse growth past the
// limit, so LibreDWG's allocation fails (it reports "out of memory") instead of the machine's.
const limitBytes = Math.max(1, Number(workerData?.memoryLimitMb) || 2048) * 1024 * 1024
const grow = WebAssembly.Memory.prototype.grow
WebAssembly.Memory.prototype.grow = function (this: WebAssembly.Memory, delta: number): number {
  if (this.buffer.byteLength + delta * 65536 > limitBytes) throw new RangeError('memory limit')
  return grow.call(this, delta)
}

type Reader = { lib: LibreDwgEx; serial: number }

let made = 0
let live = 0
const released = new FinalizationRegistry<number>(() => {
  live--
})

async function makeReader(): Promise<Reader> {
  const lib = await createReader()
  live++
  released.register(lib, ++made)
  return { lib, serial: made }
}

/** The instance for the next file; taken (set to null) by exactly one file. */
let next: Promise<Reader> | null = makeReader()
// The DXF reader is loaded ahead too, so a DXF does not pay for it either.
await import('./read/dxf-reader.ts')
await next
port.postMessage({ type: 'ready' } satisfies WorkerMessage)

port.on('message', (job: WorkerJob) => {
  void read(job)
})

async function read(job: WorkerJob): Promise<void> {
  const pending = next ?? makeReader()
  next = null
  let reader: Reader | null = await pending
  const serial = reader.serial
  let answer: WorkerMessage
  const transfer: ArrayBuffer[] = []
  try {
    const boq = extractBoq(job, reader.lib, (fraction) =>
      port?.postMessage({ type: 'progress', fraction } satisfies WorkerMessage),
    )
    reader = null
    if (job.formats) {
      const written = await renderFiles(boq, job.formats)
      for (const file of Object.values(written.files)) transfer.push(file.buffer as ArrayBuffer)
      answer = { type: 'result', answer: written, info: info(serial) }
    } else {
      answer = { type: 'result', answer: boq, info: info(serial) }
    }
  } catch (error) {
    answer =
      error instanceof BoqError
        ? { type: 'error', kind: error.kind, message: error.message, info: info(serial) }
        : {
            type: 'error',
            kind: 'corrupt',
            message: `Truncated or corrupt (the reader failed: ${error instanceof Error ? error.message : String(error)}).`,
            info: info(serial),
          }
  }
  // Nothing may keep the used instance: its memory goes with the next garbage collection.
  reader = null
  // The files' bytes are handed over, not copied.
  port?.postMessage(answer, transfer)
  next = makeReader()
  next.then(
    () => port?.postMessage({ type: 'ready' } satisfies WorkerMessage),
    () => process.exit(1), // no new instance, no more files here: the engine starts a new worker
  )
}

function info(serial: number): WorkerFileInfo {
  return {
    reader: serial,
    heapMb: Math.round(getHeapStatistics().used_heap_size / 1024 / 1024),
    liveReaders: live,
  }
}
