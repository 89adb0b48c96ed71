/**
 * The bill pool's worker for tests, with a way to make a task never end: a pricing whose rules
 * hold a row of code STALL_CODE takes its thread and holds it, as a pricing that never finishes
 * would. Every other task goes to the real worker.
 */
import run, { type BillMessage } from '../../jobs/bill-worker.ts'

export const STALL_CODE = 'STALL-FOREVER'

export default async function stallingRun(message: BillMessage) {
  const { task, started } = message
  if (task.kind === 'price' && task.rules.some((rule) => rule.code === STALL_CODE)) {
    started.postMessage(null)
    // Blocks this thread for good, without spinning a core: only ending the thread ends it.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)
  }
  return run(message)
}
