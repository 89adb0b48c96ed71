/**
 * The bill pool's thread: work that grows with a bill (parsing a kept bill, comparing two,
 * pricing one, writing a workbook or a CSV) or with a file a person sends (a rules or
 * classification table read and checked) runs here, never on the thread answering requests.
 */
import type { MessagePort } from 'node:worker_threads'
import { move, transferableSymbol, valueSymbol } from 'piscina'
import { projectBillFiles } from '../bills/write/project-files.ts'
import { compareBills } from '../boq/compare/compare.ts'
import { readLocations } from '../boq/locations/table.ts'
import { BOQ_SCHEMA_VERSION, type Boq } from '../boq/model/schema.ts'
import { RulesError } from '../boq/price/errors.ts'
import { priceWithTables } from '../boq/price/price.ts'
import { readClassification, readRules } from '../boq/price/read.ts'
import { changeBillCsv } from '../boq/write/csv.ts'
import { renderFiles } from '../boq/write/files.ts'
import { changeBillXlsx } from '../boq/write/xlsx.ts'
import type {
  BillAnswer,
  BillTask,
  ChangeBillTask,
  PriceTask,
  RecordedFiles,
  TableTask,
} from './bill-tasks.ts'

/** A task as the pool sends it, with the port on which this thread says it has taken it. */
export type BillMessage = { task: BillTask; started: MessagePort }

export default async function run({ task, started }: BillMessage): Promise<BillAnswer> {
  // The task's time budget runs from here, not from when it was queued.
  started.postMessage(null)
  started.close()
  if (task.kind === 'change-bill') return changeBill(task)
  if (task.kind === 'table') return table(task)
  if (task.kind === 'project-bill') return moved({ bytes: await projectBillFiles(task) })
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
  return moved({ bytes })
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
  if (!task.workbook) return moved({ bytes })
  const written = await renderFiles(bill, ['xlsx', 'csv', 'json'], task.workbook.earlier, priced)
  const { xlsx, csv, json } = written.files
  if (!xlsx || !csv || !json) throw new Error('The bill’s files were not written.')
  const { warnings, comparedWith, changedLines } = written
  return moved({ bytes, files: { xlsx, csv, json, warnings, comparedWith, changedLines } })
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

/** The answer's bytes handed over to the requesting thread, not copied. */
function moved(answer: { bytes: Uint8Array; files?: RecordedFiles }): BillAnswer {
  const { files } = answer
  const transferable = {
    [transferableSymbol]: [
      ...new Set(
        [answer.bytes, files?.xlsx, files?.csv, files?.json].flatMap((b) => (b ? [b.buffer] : [])),
      ),
    ],
    [valueSymbol]: answer,
  }
  return move(transferable) as unknown as BillAnswer
}
