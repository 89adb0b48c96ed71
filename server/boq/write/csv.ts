import { stringify } from 'csv-stringify/sync'
import type { ChangeBill } from '#contract/compare.ts'
import type { Boq } from '../model/schema.ts'
import { changesTable, itemChangesTable } from './change-rows.ts'
import { locationTables } from './location-rows.ts'
import { csvTables, fitted, MAX_CELL_CHARS } from './rows.ts'
import type { Cell, Table } from './table.ts'

/**
 * One CSV table: the workbook's tables one after another (the bill first), then the warnings and
 * the drawings referenced, the table's name in the first column, columns the union of the
 * tables' headers (units in them), numbers unformatted at full precision.
 */
export function toCsv(boq: Boq): string {
  return tablesCsv([...csvTables(boq), ...locationTables(boq)])
}

/**
 * The change bill as CSV: its rows, then the priced items as `Items` with their totals when both
 * bills are priced, then what was compared and the notes, as `Changes notes`.
 */
export function changeBillCsv(changes: ChangeBill): string {
  const table = changesTable(changes)
  const items = itemChangesTable(changes)
  const notes: Table = {
    name: 'Changes notes',
    columns: [
      { header: 'Item', format: 'text' },
      { header: 'Description', format: 'text' },
    ],
    rows: table.notes,
    empty: '',
    notes: [],
  }
  return tablesCsv(items ? [table, items, notes] : [table, notes])
}

function tablesCsv(tables: Table[]): string {
  const headers: string[] = []
  for (const table of tables)
    for (const { header } of table.columns) if (!headers.includes(header)) headers.push(header)
  const records: (string | number)[][] = [['Section', ...headers].map(csvText)]
  for (const table of tables) {
    const at = table.columns.map(({ header }) => 1 + headers.indexOf(header))
    for (const row of table.rows) {
      const record: (string | number)[] = [csvText(table.name), ...headers.map(() => '')]
      row.forEach((cell, i) => {
        record[at[i]] = csvCell(cell)
      })
      records.push(record)
    }
  }
  return stringify(records)
}

function csvCell(cell: Cell): string | number {
  if (cell === null) return ''
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : String(cell)
  return csvText(cell)
}

/** Text a spreadsheet would run as a formula: its first character starts one. */
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * Text as a spreadsheet opening the CSV must take it: never a formula (a leading quote, which
 * the spreadsheet shows as text), and no longer than a cell holds.
 */
export function csvText(text: string): string {
  if (!FORMULA_START.test(text)) return fitted(text)
  return `'${fitted(text, MAX_CELL_CHARS - 1)}`
}
