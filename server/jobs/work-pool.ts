import { createWorkerPool, type WorkerPool } from '../boq/run/pool/pool.ts'
import { BILL_TASKS_URL, billsBusy, billThreads, MAX_WAITING } from './bill-pool.ts'

/** The lanes of the server's worker pool. */
export const LANES = {
  /** Extractions and geometries built again: work in the background, a person waits on none. */
  drawings: 'drawings',
  /** A person's change bills, pricing previews, re-priced workbooks and tables read. */
  bills: 'bills',
  /** The project bills' pricing of their drawings and their files. */
  projectBills: 'project-bills',
} as const

/**
 * The server's one pool of worker threads, made once by createServer: BOQ_WORKERS threads for
 * drawings, billThreads() for a person's bills and one for the project bills, each lane counting
 * on its own; threads start when first needed (a server that never extracts never loads the
 * reader), those of bills end after a while idle.
 */
export function createWorkPool(options: {
  workers: number
  /** A task module in place of bill-worker.ts (tests). */
  tasksUrl?: URL
  /** A thread module in place of the engine's worker.ts that loads it (tests). */
  workerUrl?: URL
}): WorkerPool {
  const bills = { maxWaiting: MAX_WAITING, busy: billsBusy }
  return createWorkerPool({
    lanes: {
      [LANES.drawings]: { threads: options.workers, warm: true },
      [LANES.bills]: { threads: billThreads(), ...bills },
      [LANES.projectBills]: { threads: 1, ...bills },
    },
    tasksUrl: options.tasksUrl ?? BILL_TASKS_URL,
    workerUrl: options.workerUrl,
  })
}
