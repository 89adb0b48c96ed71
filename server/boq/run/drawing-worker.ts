/**
 * A thread reads one drawing after another, each from the state of a fresh LibreDWG instance:
 * after a file the instance's memory is put back as it was when it was made (about 1 ms), and
 * after a failure inside the reader, or every so many files, a new instance replaces it and the
 * used one is dropped so its WebAssembly memory can be collected. The thread stays warm (its
 * JavaScript compiled and optimised); the pool replaces it after a crash, a timeout, or when it
 * holds too much memory.
 */
import { getHeapStatistics } from 'node:v8'
import type { MessagePort } from 'node:worker_threads'
import { gzipSync } from 'node:zlib'
import { encodeGeometry } from '#contract/drawing-geometry.ts'
import type { PricedBill } from '#contract/takeoff-rules.ts'
import type { RowFindings } from '../locations/row-problems.ts'
import { BoqError } from '../model/boq-error.ts'
import type { Drawing } from '../model/drawing.ts'
import type { Boq } from '../model/schema.ts'
import { RulesError } from '../price/errors.ts'
import { priceWithTables } from '../price/price.ts'
import { createResettableReader, type ResettableReader } from '../read/libredwg.ts'
import { buildGeometry } from '../view/build.ts'
import { type BoqFiles, renderFiles, type WrittenFormat } from '../write/files.ts'
import { locatedBillOf, readDrawing, wantsPicture } from './extract.ts'
import type { BoqInput } from './input.ts'

/**
 * A drawing to read, and the files to write here and answer instead of the Boq; `unpriced`: why
 * the bill is written measured only (a warning the engine gives when it read the drawing again
 * without the pricing that ran past its budget).
 */
export type WorkerJob = BoqInput & { formats?: WrittenFormat[]; unpriced?: string }

/** What the thread says about itself after each file (the engine's recycling decision, tests). */
export type WorkerFileInfo = {
  /** The worker's files counted from 1: each read from a fresh state, never the same for two. */
  reader: number
  /** JS heap in use after the file, in MB. */
  heapMb: number
  /** Reader instances made in this worker that the garbage collector has not released yet. */
  liveReaders: number
}

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'progress'; fraction: number }
  /** The drawing is read and its bill made: what follows is writing files. */
  | { type: 'read' }
  /** Pricing the bill with the job's tables begins, and has ended: its time is its own. */
  | { type: 'pricing' }
  | { type: 'priced' }
  | { type: 'result'; answer: Boq | BoqFiles; info: WorkerFileInfo }
  | { type: 'error'; kind: string; message: string; info: WorkerFileInfo }

/**
 * After this many files an instance is replaced all the same, so memory a large file left
 * resident (the reset puts back contents, it does not give pages back) does not stay for good.
 */
const FILES_PER_INSTANCE = 64

let made = 0
let live = 0
let files = 0
const released = new FinalizationRegistry<number>(() => {
  live--
})

async function makeReader(): Promise<ResettableReader> {
  const reader = await createResettableReader()
  live++
  released.register(reader, ++made)
  return reader
}

/** The instance for the next file, in a fresh state; taken (set to null) by exactly one file. */
let next: Promise<ResettableReader> | null = null
let usedByInstance = 0

/** Makes the reader ahead of the first file (and the DXF reader, so a DXF does not pay either). */
export async function prepareReader(): Promise<void> {
  next ??= makeReader()
  await import('../read/dxf-reader.ts')
  await next
}

/** Reads one drawing and answers it on `port`, then puts the reader back and says ready. */
export async function readDrawingJob(port: MessagePort, job: WorkerJob): Promise<void> {
  const pending = next ?? makeReader()
  next = null
  let reader: ResettableReader | null = await pending
  const serial = ++files
  usedByInstance++
  // A failure inside the WebAssembly code (not a BoqError) may leave the instance in any state.
  let trapped = false
  let answer!: WorkerMessage
  const transfer: ArrayBuffer[] = []
  let boq: Boq | null = null
  let byRow: RowFindings | null = null
  let drawing: Drawing | null = null
  try {
    drawing = readDrawing(
      job.bytes,
      reader.lib,
      (fraction) => port.postMessage({ type: 'progress', fraction } satisfies WorkerMessage),
      { picture: wantsGeometry(job) || wantsPicture(job) },
    )
    const located = locatedBillOf(job, drawing)
    boq = located.boq
    byRow = located.byRow
  } catch (error) {
    trapped = !(error instanceof BoqError)
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
  if (boq && job.formats) {
    // Writing the files is not reading the drawing: its time and its failure are its own.
    port.postMessage({ type: 'read' } satisfies WorkerMessage)
    try {
      if (job.unpriced) boq.warnings.push(job.unpriced)
      const priced = pricedOf(port, boq, job)
      const written = await renderFiles(
        boq,
        job.formats,
        job.changesFrom,
        priced,
        byRow ?? undefined,
      )
      if (drawing && wantsGeometry(job)) addGeometry(written, drawing)
      drawing = null
      for (const file of Object.values(written.files)) transfer.push(file.buffer as ArrayBuffer)
      answer = { type: 'result', answer: written, info: info(serial) }
    } catch (error) {
      answer = {
        type: 'error',
        kind: 'crashed',
        message: `The bill was read but could not be written (${error instanceof Error ? error.message : String(error)}).`,
        info: info(serial),
      }
    }
  } else if (boq) {
    answer = { type: 'result', answer: boq, info: info(serial) }
  }
  // The files' bytes are handed over, not copied.
  port.postMessage(answer, transfer)
  if (!trapped && !reader.grown() && usedByInstance < FILES_PER_INSTANCE) {
    reader.reset()
    next = Promise.resolve(reader)
  } else {
    // Nothing may keep a dropped instance: its memory goes with the next garbage collection.
    reader = null
    usedByInstance = 0
    next = makeReader()
  }
  next.then(
    () => port.postMessage({ type: 'ready' } satisfies WorkerMessage),
    () => process.exit(1), // no new instance, no more files here: the pool starts a new thread
  )
}

/**
 * The bill priced with the job's tables, when it has some. Tables that no longer check (saved
 * under an engine that checked less) leave the bill measured only, with a warning saying why.
 */
function pricedOf(port: MessagePort, boq: Boq, job: WorkerJob): PricedBill | undefined {
  if (!job.pricing) return undefined
  // The engine gives pricing a budget of its own, and ends this thread past it.
  port.postMessage({ type: 'pricing' } satisfies WorkerMessage)
  try {
    return priceWithTables(boq, job.pricing)
  } catch (error) {
    if (!(error instanceof RulesError)) throw error
    boq.warnings.push(
      `The bill is not priced: the project's takeoff rules could not be applied (${error.message.replace(/\s+/g, ' ')}).`,
    )
    return undefined
  } finally {
    port.postMessage({ type: 'priced' } satisfies WorkerMessage)
  }
}

/** Only a job that asks for the geometry has the picture read: the bill alone does without. */
function wantsGeometry(job: WorkerJob): boolean {
  return job.formats?.includes('geometry') ?? false
}

function info(serial: number): WorkerFileInfo {
  return {
    reader: serial,
    heapMb: Math.round(getHeapStatistics().used_heap_size / 1024 / 1024),
    liveReaders: live,
  }
}

/**
 * The drawing's geometry for the drawing view, built from the same read as the bill (the view
 * never reads the drawing again). Failing, the bill stands and the job is kept without geometry:
 * the job's first request for it builds it again (server/jobs/geometry-builds.ts), and says why
 * when it still cannot be drawn.
 */
function addGeometry(written: BoqFiles, drawing: Drawing): void {
  try {
    const { geometry, warnings } = buildGeometry(drawing.picture)
    // Compressed once here, as it is kept and sent: not again at every view.
    written.files.geometry = gzipSync(encodeGeometry(geometry))
    written.warnings.push(...warnings)
  } catch (error) {
    written.warnings.push(
      `The drawing could not be prepared for the drawing view (${error instanceof Error ? error.message : String(error)}); it is built again when the drawing view is first opened, which says so if it still cannot be drawn.`,
    )
  }
}
