import { availableParallelism } from 'node:os'
import { MessageChannel } from 'node:worker_threads'
import { Piscina } from 'piscina'
import { AppError, BusyError } from '../errors.ts'
import type { BillAnswer, BillTask } from './bill-tasks.ts'
import type { BillMessage } from './bill-worker.ts'

/**
 * Threads for the work that grows with a bill (change bills, pricing, workbooks made again) or
 * with a file a person sends (tables read and checked), so that the thread answering requests
 * only routes, checks and streams. A bounded queue: past it, a 503 with Retry-After, never a
 * queue that grows without end. Each task has a time budget: past it, its thread is ended (and
 * another started for the next task) and the request is answered 422 saying what took too long.
 */
export interface BillPool {
  run(task: BillTask): Promise<BillAnswer>
  close(): Promise<void>
}

/** What a task is, for its budget and its words. */
export type BillWork = 'price' | 'workbook' | 'change-bill' | 'table' | 'project-bill'

/** How long each work may run once a thread has taken it, in milliseconds. */
export const BILL_BUDGETS_MS: Record<BillWork, number> = {
  price: 20_000,
  // Pricing, then the job's workbook written again (with its Changes sheet).
  workbook: 60_000,
  'change-bill': 60_000,
  table: 20_000,
  // A project bill's workbook: a sheet per drawing.
  'project-bill': 120_000,
}

/** Tasks waiting beyond the running ones before the pool says it is busy. */
const MAX_WAITING = 32
const RETRY_AFTER_S = 5

export function createBillPool(
  options: {
    threads?: number
    idleTimeoutMs?: number
    maxWaiting?: number
    /** Budgets in place of BILL_BUDGETS_MS (tests). */
    budgetsMs?: Partial<Record<BillWork, number>>
    /** A worker module in place of bill-worker.ts that hands its tasks on to it (tests). */
    workerUrl?: URL
  } = {},
): BillPool {
  const threads = options.threads ?? Math.max(1, Math.min(2, availableParallelism() - 1))
  const budgets = { ...BILL_BUDGETS_MS, ...options.budgetsMs }
  const maxWaiting = options.maxWaiting ?? MAX_WAITING
  const pool = new Piscina({
    filename: (options.workerUrl ?? new URL('./bill-worker.ts', import.meta.url)).href,
    minThreads: 0,
    maxThreads: threads,
    // Its threads yield the processor to the one answering requests (where the system allows).
    niceIncrement: 10,
    // An idle pool holds no thread (nor the memory a large bill left in it).
    idleTimeout: options.idleTimeoutMs ?? 30_000,
  })
  // Tasks wait here, not in Piscina: it neither bounds the queue of tasks that can be stopped
  // nor starts a thread for them when a stopped task's thread is ended. Handed over one per
  // thread, each finds a thread free or has one started.
  const waiting: (() => void)[] = []
  let running = 0
  const turn = (): Promise<void> | undefined => {
    if (running < threads) {
      running++
      return undefined
    }
    if (waiting.length >= maxWaiting) {
      throw new BusyError(
        503,
        'The server is busy with other change bills and pricing. Try again in a moment.',
        RETRY_AFTER_S,
      )
    }
    return new Promise((resolve) => waiting.push(resolve))
  }
  const done = () => {
    const next = waiting.shift()
    if (next) next()
    else running--
  }

  const runInThread = async (task: BillTask): Promise<BillAnswer> => {
    const work = workOf(task)
    const budgetMs = budgets[work]
    // The thread says when it takes the task: the budget is of its running (a thread started
    // for it first is not counted).
    const { port1: taken, port2: started } = new MessageChannel()
    const stop = new AbortController()
    let settled = false
    let timer: NodeJS.Timeout | undefined
    taken.once('message', () => {
      if (!settled) timer = setTimeout(() => stop.abort(), budgetMs)
    })
    // Bytes read for the task are handed over, not copied.
    const transferList = [...buffersOf(task), started]
    try {
      const message: BillMessage = { task, started }
      return (await pool.run(message, { transferList, signal: stop.signal })) as BillAnswer
    } catch (error) {
      // Piscina has ended the task's thread.
      if (stop.signal.aborted) throw new AppError(422, overBudget(task, work, budgetMs))
      throw error
    } finally {
      settled = true
      clearTimeout(timer)
      taken.close()
    }
  }

  return {
    async run(task) {
      await turn()
      try {
        return await runInThread(task)
      } finally {
        done()
      }
    },
    async close() {
      await pool.destroy()
    },
  }
}

function workOf(task: BillTask): BillWork {
  if (task.kind === 'price') return task.workbook ? 'workbook' : 'price'
  return task.kind
}

/** What took too long, in words: the person knows it was stopped, and why. */
function overBudget(task: BillTask, work: BillWork, budgetMs: number): string {
  const doing = {
    price: 'Pricing this bill',
    workbook: 'Pricing this bill and writing its workbook',
    'change-bill': 'Making this change bill',
    table: `Reading this ${task.kind === 'table' ? task.table : ''} table`,
    'project-bill': 'Writing this project bill',
  }[work]
  return `${doing} took longer than ${Math.round(budgetMs / 1000)} s; stopped.`
}

function buffersOf(task: BillTask): ArrayBuffer[] {
  const bytes =
    task.kind === 'change-bill'
      ? [task.before, task.after]
      : task.kind === 'table'
        ? [task.bytes]
        : task.kind === 'project-bill'
          ? // Copied: the drawings' bills may be written again (an issue's workbook and CSV).
            []
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
