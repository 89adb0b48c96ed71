/**
 * The bill tasks, run in a thread of the server's worker pool (which loads this module on its
 * first task): work that grows with a bill (parsing a kept bill, comparing two, pricing one,
 * writing a workbook or a CSV) or with a file a person sends (a rules or classification table
 * read and checked) runs here, never on the thread answering requests.
 */

import { projectBillFiles } from '../bills/write/project-files.ts'
import { compareBills } from '../boq/compare/compare.ts'
import { readLocations } from '../boq/locations/table.ts'
import { BOQ_SCHEMA_VERSION, type Boq } from '../boq/model/schema.ts'
import { RulesError } from '../boq/price/errors.ts'
import { priceWithTables } from '../boq/price/price.ts'
import { readClassification, readRules } from '../boq/price/read.ts'
import type { TaskAnswer } from '../boq/run/pool/task-worker.ts'
import { changeBillCsv } from '../boq/write/csv.ts'
import { renderFiles } from '../boq/write/files.ts'
import { changeBillXlsx } from '../boq/write/xlsx.ts'
import type { BillAnswer, BillTask, ChangeBillTask, PriceTask, TableTask } from './bill-tasks.ts'

/** A bill task's answer, its bytes handed over to the requesting thread, not copied. */
export default async function run(task: BillTask): Promise<TaskAnswer> {
  const answer = await answerOf(task)
  return { value: answer, transfer: buffersOf(answer) }
}

function answerOf(task: BillTask): Promise<BillAnswer> {
  if (task.kind === 'change-bill') return changeBill(task)
  if (task.kind === 'table') return table(task)
  if (task.kind === 'project-bill') return projectBillFiles(task).then((bytes) => ({ bytes }))
  return price(task)
}

async function table(task: TableTask): Promise<BillAnswer> {
  try {
    const rows =
      task.table === 'rules'
        ? await readRules(task.bytes, task.format)
        : task.table === 'locations'
          ? await readLocations(task.bytes, task.format)
          : await readClassification(task.bytes, task.format)
    return { rows }
  } catch (error) {
    if (error instanceof RulesError) return { rulesError: error.message }
    throw error
  }
}

async function changeBill(task: ChangeBillTask): Promise<BillAnswer> {
  const before = billOf(task.before)
  if (!before) return { stale: 0 }
  const after = billOf(task.after)
  if (!after) return { stale: 1 }
  const changes = {
    from: task.from,
    to: task.to,
    ...(task.differentDrawings === undefined ? {} : { differentDrawings: task.differentDrawings }),
    ...compareBills(before, after),
  }
  const bytes =
    task.format === 'xlsx'
      ? await changeBillXlsx(changes)
      : new TextEncoder().encode(
          task.format === 'csv' ? changeBillCsv(changes) : JSON.stringify(changes),
        )
  return { bytes }
}

async function price(task: PriceTask): Promise<BillAnswer> {
  const bill = billOf(task.bill)
  if (!bill) return { stale: 0 }
  let priced: Boq['priced']
  try {
    priced = priceWithTables(bill, {
      rules: task.rules,
      classification: task.classification,
      ...(task.settings ? { settings: task.settings } : {}),
      versions: versionsOf(task),
    })
  } catch (error) {
    if (error instanceof RulesError) return { rulesError: error.message }
    throw error
  }
  const answer = {
    jobId: task.jobId,
    rulesVersion: task.rulesVersion,
    classificationVersion: task.classificationVersion,
    ...(task.settingsVersion === undefined ? {} : { settingsVersion: task.settingsVersion }),
    priced,
  }
  const bytes = new TextEncoder().encode(JSON.stringify(answer))
  if (!task.workbook) return { bytes }
  const written = await renderFiles(
    bill,
    ['xlsx', 'csv', 'json', 'part'],
    task.workbook.earlier,
    priced,
  )
  const { xlsx, csv, json, part } = written.files
  if (!xlsx || !csv || !json || !part) throw new Error('The bill’s files were not written.')
  const { warnings, comparedWith, changedLines } = written
  return { bytes, files: { xlsx, csv, json, part, warnings, comparedWith, changedLines } }
}

/** The saved versions a bill's header names (a table sent with the request has none). */
function versionsOf(task: PriceTask) {
  return {
    ...(task.rulesVersion === null ? {} : { rulesVersion: task.rulesVersion }),
    ...(task.classificationVersion === null
      ? {}
      : { classificationVersion: task.classificationVersion }),
    ...(task.settingsVersion === undefined ? {} : { settingsVersion: task.settingsVersion }),
  }
}

/** A kept bill read as written; undefined when it is not a bill of this version of BOQ. */
function billOf(bytes: Uint8Array): Boq | undefined {
  // Our own output, read as it was written: its schema version says whether it is a bill of now.
  const bill = JSON.parse(new TextDecoder().decode(bytes)) as Boq
  return bill?.schema === 'boq' && bill.version === BOQ_SCHEMA_VERSION ? bill : undefined
}

/** The buffers of an answer's bytes, once each. */
function buffersOf(answer: BillAnswer): ArrayBuffer[] {
  if (!('bytes' in answer)) return []
  const { bytes, files } = answer
  return [
    ...new Set(
      [bytes, files?.xlsx, files?.csv, files?.json, files?.part].flatMap((b) =>
        b ? [b.buffer as ArrayBuffer] : [],
      ),
    ),
  ]
}
