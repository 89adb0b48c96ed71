/**
 * The bill pool's worker for tests: a pricing whose rules hold a row of code STALL_CODE takes its
 * thread and holds it. Every other task goes to the real worker.
 */
import run, { type BillMessage } from '../../jobs/bill-worker.ts'
import { STALL_CODE, stallForever } from '../stall-code.ts'

export default async function stallingRun(message: BillMessage) {
  const { task, started } = message
  if (task.kind === 'price' && task.rules.some((rule) => rule.code === STALL_CODE)) {
    started.postMessage(null)
    stallForever()
  }
  return run(message)
}
