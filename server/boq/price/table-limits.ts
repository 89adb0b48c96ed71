import { MAX_RULE_ROWS } from '#contract/takeoff-rules.ts'
import { RulesError } from './errors.ts'

/**
 * How far a rules or classification file is read: each bound is checked as the file is read, so
 * a file past one stops there, never after the whole of it is in memory.
 */

/** Columns read in a row: a table has a dozen; text further right is refused. */
export const MAX_TABLE_COLUMNS = 64

/** Unpacked, a workbook of 10,000 rows of rules stays well under this. */
export const MAX_UNPACKED_XLSX_BYTES = 64 * 1024 * 1024

/** The last sheet row read: the header and MAX_RULE_ROWS rows. */
export const LAST_SHEET_ROW = MAX_RULE_ROWS + 1

export function fail(message: string, row?: number): never {
  throw new RulesError([{ row, message }])
}

export function tooWide(row: number): never {
  fail(
    `there is text past column ${MAX_TABLE_COLUMNS}; a table has at most ${MAX_TABLE_COLUMNS} columns`,
    row,
  )
}

export function tooManyRows(): never {
  fail(
    `the file has more than ${MAX_RULE_ROWS.toLocaleString('en')} rows; at most ${MAX_RULE_ROWS.toLocaleString('en')} are read`,
  )
}
