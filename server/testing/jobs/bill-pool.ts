import { type BillPool, createBillPool } from '../../jobs/bill-pool.ts'

let shared: BillPool | undefined

/**
 * One bill pool for the routes a test file builds in process: its threads start on the first
 * task and, idle, neither keep the test's process alive nor stay long.
 */
export function testBillPool(): BillPool {
  shared ??= createBillPool({ threads: 1, idleTimeoutMs: 1_000 })
  return shared
}
