import type { TableFormat } from '../boq/price/table.ts'
import { AppError } from '../errors.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import { CONTENT_TYPES } from '../jobs/content-types.ts'
import type { RowsOf, RulesKind } from './store/types.ts'

const XLSX_TYPE = CONTENT_TYPES.xlsx

/** The JSON key of each table's list, as contract/takeoff-rules-api.ts names it. */
export const LIST_KEY = { rules: 'rules', classification: 'entries' } as const

/** The document's name in a sentence. */
export const NOUN = {
  rules: 'rules',
  classification: 'classification',
  'bill-settings': 'bill settings',
  locations: 'locations',
} as const

/** A project's versioned documents: its two tables, its bill settings and its locations. */
export type DocumentKind = keyof typeof NOUN

/** The table's format from the Content-Type: JSON, CSV or an XLSX workbook. */
export function formatOf(contentType: string | undefined): TableFormat {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase()
  if (type === 'application/json') return 'json'
  if (type === 'text/csv') return 'csv'
  if (type === XLSX_TYPE) return 'xlsx'
  throw new AppError(
    415,
    `Send the table as application/json, text/csv or ${XLSX_TYPE}; got ${type || 'no Content-Type'}.`,
  )
}

/**
 * A PUT body as checked rows: every problem is a 400 naming its row (the reader's and the rules
 * compiler's checks, as the command line makes them), so an invalid table is never saved. The
 * file is read and checked in the bill pool, within its bounds and its time.
 */
export async function tableFromBody<K extends RulesKind>(
  bills: BillPool,
  kind: K,
  bytes: Uint8Array,
  contentType: string | undefined,
): Promise<RowsOf[K]> {
  const format = formatOf(contentType)
  const body = format === 'json' ? listOf(kind, bytes) : bytes
  return checkedTable(bills, kind, body, format)
}

/** The rows of a list sent as JSON (`{rules: [...]}`), checked as a table, rows from 1. */
export function checkedList<K extends RulesKind>(
  bills: BillPool,
  kind: K,
  list: unknown[],
): Promise<RowsOf[K]> {
  return checkedTable(bills, kind, new TextEncoder().encode(JSON.stringify(list)), 'json')
}

async function checkedTable<K extends RulesKind>(
  bills: BillPool,
  kind: K,
  bytes: Uint8Array,
  format: TableFormat,
): Promise<RowsOf[K]> {
  const answer = await bills.run({ kind: 'table', table: kind, format, bytes })
  if ('rulesError' in answer) throw new AppError(400, sentence(answer.rulesError))
  if (!('rows' in answer)) throw new Error('The bill pool answered a table with no rows.')
  return answer.rows as RowsOf[K]
}

function listOf(kind: RulesKind, bytes: Uint8Array): Uint8Array {
  let body: unknown
  try {
    body = JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    throw new AppError(400, 'The body is not JSON.')
  }
  const key = LIST_KEY[kind]
  const list = (body as Record<string, unknown> | null)?.[key]
  if (!Array.isArray(list)) throw new AppError(400, `The body must be {"${key}": [...]}.`)
  return new TextEncoder().encode(JSON.stringify(list))
}

/** The version the client holds, from If-Match: `3`, `"3"` or `W/"3"`. */
export function heldVersion(ifMatch: string | undefined, kind: DocumentKind): number {
  if (ifMatch === undefined || ifMatch.trim() === '') {
    throw new AppError(
      428,
      `Send If-Match with the version of the ${NOUN[kind]} you opened (0 when none was saved yet), so that a colleague's save is not overwritten.`,
    )
  }
  const match = /^(?:W\/)?"?(\d{1,9})"?$/.exec(ifMatch.trim())
  if (!match) throw new AppError(400, 'If-Match must be the version number you opened, as "3".')
  return Number(match[1])
}

/** `row 3: unknown match` as a sentence: `Row 3: unknown match.` */
function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1)
  return /[.!?]$/.test(text) ? text : `${text}.`
}
