import { availableParallelism } from 'node:os'
import { createWorkerPool, type PoolTask, type WorkerPool } from '../boq/run/pool/pool.ts'
import type { TaskMessage } from '../boq/run/pool/task-worker.ts'
import type { PoolMessage } from '../boq/run/worker.ts'
import { AppError, BusyError } from '../errors.ts'
import type { BillAnswer, BillTask } from './bill-tasks.ts'

/**
 * Where the work that grows with a bill (change bills, pricing, workbooks made again) or with a
 * file a person sends (tables read and checked) runs, so that the thread answering requests only
 * routes, checks and streams: a lane of the worker pool. A bounded wait: past it, a 503 with
 * Retry-After, never a queue that grows without end. Each task has a time budget: past it, its
 * thread is ended (and another started for the next task) and the request is answered 422 saying
 * what took too long.
 */
export interface BillPool {
  run(task: BillTask): Promise<BillAnswer>
  /** Closes the pool this one made for itself (createBillPool); a lane of the server's: nothing. */
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
export const MAX_WAITING = 32
const RETRY_AFTER_S = 5

/** The module the pool's threads run bill tasks with. */
export const BILL_TASKS_URL = new URL('./bill-worker.ts', import.meta.url)

/** Threads for a person's bills: two at most, leaving a core to the requests where there are few. */
export function billThreads(): number {
  return Math.max(1, Math.min(2, availableParallelism() - 1))
}

/** A lane past its bounded wait. */
export function billsBusy(): BusyError {
  return new BusyError(
    503,
    'The server is busy with other change bills and pricing. Try again in a moment.',
    RETRY_AFTER_S,
  )
}

/** The bill tasks run in lane `lane` of `pool`, each within its budget. */
export function billLane(
  pool: WorkerPool,
  lane: string,
  budgetsMs: Partial<Record<BillWork, number>> = {},
): BillPool {
  const budgets = { ...BILL_BUDGETS_MS, ...budgetsMs }
  return {
    run: (task) => pool.run(lane, billTask(task, budgets)),
    async close() {},
  }
}

/**
 * A bill pool of its own: one lane of `threads` (default billThreads()), threads started on
 * the first task and ended after a while idle (benches, tests, a server's parts on their own).
 */
export function createBillPool(
  options: {
    threads?: number
    idleTimeoutMs?: number
    maxWaiting?: number
    /** Budgets in place of BILL_BUDGETS_MS (tests). */
    budgetsMs?: Partial<Record<BillWork, number>>
    /** A task module in place of bill-worker.ts that hands its tasks on to it (tests). */
    tasksUrl?: URL
  } = {},
): BillPool {
  const pool = createWorkerPool({
    lanes: {
      bills: {
        threads: options.threads ?? billThreads(),
        maxWaiting: options.maxWaiting ?? MAX_WAITING,
        busy: billsBusy,
      },
    },
    tasksUrl: options.tasksUrl ?? BILL_TASKS_URL,
    idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
  })
  const lane = billLane(pool, 'bills', options.budgetsMs)
  return { run: lane.run, close: () => pool.close() }
}

/**
 * One bill task for the pool: its budget runs from when its thread takes it (a thread started
 * for it, or loading the task module, is not counted); bytes read for it are handed over.
 */
export function billTask(task: BillTask, budgets: Record<BillWork, number>): PoolTask<BillAnswer> {
  const work = workOf(task)
  const budgetMs = budgets[work]
  return {
    message: { kind: 'task', task } satisfies PoolMessage,
    transfer: buffersOf(task),
    onMessage(raw, control) {
      const message = raw as TaskMessage
      if (message.type === 'started') {
        control.budget(budgetMs, () => new AppError(422, overBudget(task, work, budgetMs)))
      } else if (message.type === 'answer') control.resolve(message.value as BillAnswer)
      else if (message.type === 'failed') control.reject(message.error)
    },
    onDeath: (error) => error,
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
