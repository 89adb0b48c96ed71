import type { Context } from 'hono'
import {
  type AssembledBill,
  type BilledVersion,
  type BillIssue,
  PROJECT_BILL_FORMATS,
  type ProjectBillFormat,
  type ProjectChangeBill,
} from '#contract/project-bills.ts'
import { AppError } from '../errors.ts'
import { contentDisposition, noStore } from '../http/response-headers.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import { CONTENT_TYPES } from '../jobs/content-types.ts'
import type { IssueFiles } from './types.ts'
import type { PricedDrawing, ProjectBillTask } from './write/project-task.ts'

/** `?format=`: json (the default), xlsx or csv; 400 for anything else. */
export function formatOf(c: Context): ProjectBillFormat {
  const format = c.req.query('format') ?? 'json'
  if (!(PROJECT_BILL_FORMATS as readonly string[]).includes(format)) {
    throw new AppError(400, 'format must be json, xlsx or csv.')
  }
  return format as ProjectBillFormat
}

/** `<bill name> BOQ.xlsx`: the name a bill's workbook is downloaded and written back under. */
export function billFileName(name: string, format: 'xlsx' | 'csv', what = ''): string {
  // A name is the person's words: never a path in the cloud or on a disk.
  const safe = name.replace(/[/\\:*?"<>|\p{Cc}]/gu, '_').trim() || 'Project bill'
  return `${safe}${what ? ` ${what}` : ''} BOQ.${format}`
}

/** A file to send, under the bill's name. */
export type Download = { file: { bytes: Uint8Array; name: string; format: 'xlsx' | 'csv' } }

/** A file the person downloads, never kept by the browser or a proxy. */
export function sendFile(
  c: Context,
  bytes: Uint8Array,
  format: 'xlsx' | 'csv',
  fileName: string,
): Response {
  noStore(c)
  c.header('Content-Type', CONTENT_TYPES[format])
  c.header('Content-Disposition', contentDisposition(fileName))
  return c.body(bytes as Uint8Array<ArrayBuffer>)
}

/** The bill (as now, or as an issue) written in the bill pool. */
export async function billFile(
  pool: BillPool,
  format: 'xlsx' | 'csv',
  assembled: { answer: AssembledBill; versions: BilledVersion[]; priced: PricedDrawing[] },
  issue: BillIssue | null,
): Promise<Uint8Array> {
  const { answer } = assembled
  return written(pool, {
    kind: 'project-bill',
    format,
    bill: {
      name: answer.name,
      issue,
      written: issue?.issuedAt ?? new Date().toISOString(),
      drawings: answer.drawings,
      billed: assembled.versions,
      figures: answer.priced,
      measured: answer.measured,
      // The CSV is the summary alone.
      priced: format === 'xlsx' ? assembled.priced : [],
      warnings: answer.warnings,
    },
  })
}

/** An issue's workbook and CSV, as it is issued. */
export async function issueFiles(
  pool: BillPool,
  assembled: { answer: AssembledBill; versions: BilledVersion[]; priced: PricedDrawing[] },
  issue: BillIssue,
): Promise<IssueFiles> {
  const xlsx = await billFile(pool, 'xlsx', assembled, issue)
  const csv = await billFile(pool, 'csv', assembled, issue)
  return { xlsx, csv }
}

export function changesFile(
  pool: BillPool,
  format: 'xlsx' | 'csv',
  changes: ProjectChangeBill,
  billName: string,
): Promise<Uint8Array> {
  return written(pool, { kind: 'project-bill', format, changes, billName })
}

async function written(pool: BillPool, task: ProjectBillTask): Promise<Uint8Array> {
  const answer = await pool.run(task)
  if (!('bytes' in answer)) throw new Error('The project bill’s file was not written.')
  return answer.bytes
}
