import { projectBillCsv, projectChangesCsv } from './project-csv.ts'
import type { ProjectBillTask } from './project-task.ts'
import { projectBillXlsx, projectChangesXlsx } from './project-xlsx.ts'

/** A project bill's download written, in the bill pool's thread. */
export async function projectBillFiles(task: ProjectBillTask): Promise<Uint8Array> {
  if ('bill' in task) {
    return task.format === 'xlsx'
      ? projectBillXlsx(task.bill)
      : new TextEncoder().encode(projectBillCsv(task.bill))
  }
  return task.format === 'xlsx'
    ? projectChangesXlsx(task.changes, task.billName)
    : new TextEncoder().encode(projectChangesCsv(task.changes))
}
