/**
 * Tasks for the worker pool's own tests, run in its threads: say which thread runs them (its id
 * and nice value, from /proc), wait, block the thread, or end it as a crash would.
 */
import { readFileSync } from 'node:fs'
import type { TaskAnswer } from '../../boq/run/pool/task-worker.ts'
import { stallForever } from '../stall-code.ts'

export type PoolTestTask =
  | { do: 'whoami' }
  | { do: 'wait'; ms: number }
  | { do: 'stall' }
  | { do: 'crash' }
  | { do: 'throw'; message: string }

/** A thread's id and nice value, as /proc/…/stat says them. */
export function threadStat(path: string): { tid: number; nice: number } {
  const stat = readFileSync(path, 'utf8')
  // The name, in parentheses, may hold spaces: the fields are counted after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return { tid: Number(stat.slice(0, stat.indexOf(' '))), nice: Number(fields[16]) }
}

export default async function run(task: PoolTestTask): Promise<TaskAnswer> {
  if (task.do === 'whoami') return { value: threadStat('/proc/thread-self/stat') }
  if (task.do === 'wait') {
    await new Promise((resolve) => setTimeout(resolve, task.ms))
    return { value: 'waited' }
  }
  if (task.do === 'stall') stallForever()
  if (task.do === 'crash') process.exit(70)
  throw new Error(task.do === 'throw' ? task.message : 'unknown task')
}
