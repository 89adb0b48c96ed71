/**
 * The bill tasks for tests: a pricing whose rules hold a row of code STALL_CODE takes its thread
 * and holds it; one whose rules hold a row of code CRASH_CODE ends its thread at once, as a crash
 * would. Every other task goes to the real module.
 */

import type { BillTask } from '../../jobs/bill-tasks.ts'
import run from '../../jobs/bill-worker.ts'
import { CRASH_CODE, STALL_CODE, stallForever } from '../stall-code.ts'

export default async function stallingRun(task: BillTask) {
  const codes = task.kind === 'price' ? task.rules.map((rule) => rule.code) : []
  if (codes.includes(STALL_CODE)) stallForever()
  if (codes.includes(CRASH_CODE)) process.exit(70)
  return run(task)
}
