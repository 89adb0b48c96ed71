import { drawingPartOf } from '../drawing-part.ts'
import { projectBillCsv, projectChangesCsv } from './project-csv.ts'
import type { ProjectBillTask } from './project-task.ts'
import { projectBillXlsx, projectChangesXlsx } from './project-xlsx.ts'

/** A project bill's download written, or a drawing's part read, in the bill pool's thread. */
export async function projectBillFiles(task: ProjectBillTask): Promise<Uint8Array> {
  if ('part' in task) {
    return new TextEncoder().encode(JSON.stringify(drawingPartOf(task.part, task.price)))
  }
  if ('bill' in task) {
    return task.format === 'xlsx'
      ? projectBillXlsx(task.bill)
      : new TextEncoder().encode(projectBillCsv(task.bill))
  }
  return task.format === 'xlsx'
    ? projectChangesXlsx(task.changes, task.billName)
    : new TextEncoder().encode(projectChangesCsv(task.changes))
}
