import { availableParallelism } from 'node:os'
import { Piscina } from 'piscina'
import { BusyError } from '../errors.ts'
import type { BillAnswer, BillTask } from './bill-tasks.ts'

/**
 * Threads for the work that grows with a bill (change bills, pricing, workbooks made again), so
 * that the thread answering requests only routes, checks and streams. A bounded queue: past it,
 * a 503 with Retry-After, never a queue that grows without end.
 */
export interface BillPool {
  run(task: BillTask): Promise<BillAnswer>
  close(): Promise<void>
}

/** Tasks waiting beyond the running ones before the pool says it is busy. */
const MAX_WAITING = 32
const RETRY_AFTER_S = 5

export function createBillPool(
  options: { threads?: number; idleTimeoutMs?: number; maxWaiting?: number } = {},
): BillPool {
  const threads = options.threads ?? Math.max(1, Math.min(2, availableParallelism() - 1))
  const pool = new Piscina({
    filename: new URL('./bill-worker.ts', import.meta.url).href,
    minThreads: 0,
    maxThreads: threads,
    maxQueue: options.maxWaiting ?? MAX_WAITING,
    // Its threads yield the processor to the one answering requests (where the system allows).
    niceIncrement: 10,
    // An idle pool holds no thread (nor the memory a large bill left in it).
    idleTimeout: options.idleTimeoutMs ?? 30_000,
  })
  return {
    async run(task) {
      // Bytes read for the task are handed over, not copied.
      const transferList = buffersOf(task)
      try {
        return (await pool.run(task, { transferList })) as BillAnswer
      } catch (error) {
        if (
          error instanceof Error &&
          /queue is at limit|no task queue available/i.test(error.message)
        ) {
          throw new BusyError(
            503,
            'The server is busy with other change bills and pricing. Try again in a moment.',
            RETRY_AFTER_S,
          )
        }
        throw error
      }
    },
    close: () => pool.destroy(),
  }
}

function buffersOf(task: BillTask): ArrayBuffer[] {
  const bytes =
    task.kind === 'change-bill'
      ? [task.before, task.after]
      : [task.bill, task.workbook?.earlier?.json]
  // Only whole buffers of their own can be moved (a view into a larger one is copied).
  return [
    ...new Set(
      bytes.flatMap((b) =>
        b && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength
          ? [b.buffer as ArrayBuffer]
          : [],
      ),
    ),
  ]
}
