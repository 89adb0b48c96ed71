import { type BillPool, type BillWork, createBillPool } from '../../jobs/bill-pool.ts'

let shared: BillPool | undefined

/**
 * One bill pool for the routes a test file builds in process: its threads start on the first
 * task and, idle, neither keep the test's process alive nor stay long.
 */
export function testBillPool(): BillPool {
  shared ??= createBillPool({ threads: 1, idleTimeoutMs: 1_000 })
  return shared
}

/** The bill tasks of stalling-bill-worker.ts: STALL_CODE never ends, CRASH_CODE ends its thread. */
export const STALLING_TASKS_URL = new URL('./stalling-bill-worker.ts', import.meta.url)

/**
 * A bill pool whose pricings with a rule of code STALL_CODE (stalling-bill-worker.ts) never end
 * until their budget ends their thread; the test closes it.
 */
export function stallingBillPool(budgetsMs: Partial<Record<BillWork, number>>): BillPool {
  return createBillPool({
    threads: 1,
    idleTimeoutMs: 1_000,
    budgetsMs,
    tasksUrl: STALLING_TASKS_URL,
  })
}
