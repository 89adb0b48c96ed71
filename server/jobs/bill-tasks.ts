import type { BillSettings } from '#contract/bill-settings.ts'
import type { ComparedBill } from '#contract/compare.ts'
import type { ClassificationEntry, TakeoffRule } from '#contract/takeoff-rules.ts'
import type { ProjectBillTask } from '../bills/write/project-task.ts'
import type { TableFormat } from '../boq/price/table.ts'
import type { ChangesFrom } from '../boq/write/files.ts'

/** The change bill from one kept bill to another, written as JSON, CSV or XLSX. */
export interface ChangeBillTask {
  kind: 'change-bill'
  /** The two jobs' kept BOQ JSON, as the store keeps it. */
  before: Uint8Array
  after: Uint8Array
  from: ComparedBill
  to: ComparedBill
  differentDrawings?: string
  format: 'json' | 'csv' | 'xlsx'
}

/**
 * A kept bill priced with the given tables: the PricedJob answer as JSON, and with `workbook`
 * the job's files made again with the priced bill (its new bill of record: the workbook with its
 * Changes sheet against `workbook.earlier`, the CSV and the JSON).
 */
export interface PriceTask {
  kind: 'price'
  bill: Uint8Array
  jobId: string
  rules: TakeoffRule[]
  rulesVersion: number | null
  classification: ClassificationEntry[]
  classificationVersion: number | null
  /** The project's bill settings and their version (0: none saved). */
  settings?: BillSettings
  settingsVersion?: number
  workbook?: { earlier?: ChangesFrom }
}

/** A rules, classification or locations file read and checked as a save checks it (nothing is kept). */
export interface TableTask {
  kind: 'table'
  table: 'rules' | 'classification' | 'locations'
  format: TableFormat
  bytes: Uint8Array
}

export type BillTask = ChangeBillTask | PriceTask | TableTask | ProjectBillTask

/** A bill priced again, written as the job keeps its bill: its files and what they say. */
export interface RecordedFiles {
  xlsx: Uint8Array
  csv: Uint8Array
  json: Uint8Array
  /** The bill's part of a project bill. */
  part: Uint8Array
  warnings: string[]
  comparedWith: ComparedBill | null
  changedLines: number | null
}

/**
 * What a task gives: its bytes (the answer, and the job's files when asked); a table's checked rows;
 * or which kept bill is not a bill of this version of BOQ (`stale`: 0 the first, 1 the second);
 * or why a table cannot be used (`rulesError`: tables saved earlier that cannot price it now, or a
 * file that does not check).
 */
export type BillAnswer =
  | { bytes: Uint8Array; files?: RecordedFiles }
  | { rows: unknown[] }
  | { stale: 0 | 1 }
  | { rulesError: string }
