import { BoqError, isBoqErrorKind } from '../model/boq-error.ts'
import type { Boq } from '../model/schema.ts'
import type { BoqFiles, WrittenFormat } from '../write/files.ts'
import type { WorkerFileInfo, WorkerJob, WorkerMessage } from './drawing-worker.ts'
import type { BoqInput } from './input.ts'
import type { PoolTask, TaskControl } from './pool/pool.ts'
import { ThreadExited } from './pool/pool.ts'
import type { PoolMessage } from './worker.ts'

/** A drawing to read in a thread of the pool. */
export type DrawingJob = {
  input: BoqInput
  /** Files to write in the thread; absent: the Boq itself is the answer. */
  formats?: WrittenFormat[]
  /** Why the bill is written unpriced (its pricing ran past the budget before). */
  unpriced?: string
  onProgress?: (fraction: number) => void
}

/** How long a drawing may take, and when its thread is replaced after it. */
export type DrawingLimits = {
  timeoutMs: number
  pricingBudgetMs: number
  memoryLimitMb: number
  recycleAboveMb: number
}

/** A job's pricing ran past its budget: its thread is ended and the job read again, unpriced. */
export class PricingOverBudget extends Error {}

/**
 * Dropped reader instances (replaced after a failure inside the reader, after growing, or every
 * so many files) a thread may hold unreleased before it is replaced: the garbage collector frees
 * them with some lag; many more means they are not being freed.
 */
const MAX_LIVE_READERS = 16

/**
 * The pool's side of reading one drawing: its progress heard, a budget for reading and one for
 * writing the files (a long comparison is not a slow drawing), a shorter one for pricing, and
 * the thread retired after a file that left it holding too much memory.
 */
export function drawingTask(
  job: DrawingJob,
  limits: DrawingLimits,
  onFile: (info: WorkerFileInfo, thread: number) => void,
  signal?: AbortSignal,
): PoolTask<Boq | BoqFiles> {
  const seconds = Math.round(limits.timeoutMs / 1000)
  const overTime = (doing: string) => () =>
    new BoqError('timeout', `Took longer than ${seconds} s to ${doing}; stopped.`)
  const done = (info: WorkerFileInfo, control: TaskControl<Boq | BoqFiles>) => {
    onFile(info, control.thread)
    if (info.heapMb > limits.recycleAboveMb || info.liveReaders > MAX_LIVE_READERS) control.retire()
  }
  // One copy, handed over (not cloned) to the thread, which reads it in place. (A Buffer's own
  // slice() is a view: transferring it would empty the caller's bytes.)
  const bytes = Uint8Array.prototype.slice.call(job.input.bytes)
  const { input } = job
  const message: PoolMessage = {
    kind: 'drawing',
    job: {
      bytes,
      fileName: input.fileName,
      options: input.options,
      formats: job.formats,
      changesFrom: input.changesFrom,
      pricing: input.pricing,
      locations: input.locations,
      unpriced: job.unpriced,
    } satisfies WorkerJob,
  }
  return {
    message,
    transfer: [bytes.buffer],
    signal,
    onSent: (control) => control.budget(limits.timeoutMs, overTime('read')),
    onMessage(raw, control) {
      const message = raw as WorkerMessage
      if (message.type === 'progress') job.onProgress?.(message.fraction)
      else if (message.type === 'read' || message.type === 'priced') {
        control.budget(limits.timeoutMs, overTime('write the bill'))
      } else if (message.type === 'pricing') {
        // Pricing has a budget of its own, shorter: a rule set that prices slowly ends the thread
        // before it holds it (and everyone's jobs behind it) for the whole write budget.
        control.budget(limits.pricingBudgetMs, () => new PricingOverBudget())
      } else if (message.type === 'result') {
        done(message.info, control)
        control.resolve(message.answer)
      } else if (message.type === 'error') {
        done(message.info, control)
        const kind = isBoqErrorKind(message.kind) ? message.kind : 'crashed'
        control.reject(new BoqError(kind, message.message))
      }
    },
    onDeath: (error) => readerDeath(error, limits.memoryLimitMb),
  }
}

/** What a drawing fails with when its thread dies under it. */
export function readerDeath(error: unknown, memoryLimitMb: number): BoqError {
  if (error instanceof BoqError) return error
  if (error instanceof ThreadExited) {
    return new BoqError('crashed', 'The reader stopped without an answer.')
  }
  const { code, message } = error as Error & { code?: string }
  return code === 'ERR_WORKER_OUT_OF_MEMORY'
    ? new BoqError(
        'too-large',
        `The drawing needs more than ${memoryLimitMb} MB of memory to read.`,
      )
    : new BoqError('crashed', `The reader crashed (${message}).`)
}
