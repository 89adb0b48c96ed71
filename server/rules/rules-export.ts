import { stringify } from 'csv-stringify/sync'
import ExcelJS from 'exceljs'
import type { ClassificationEntry, TakeoffRule } from '#contract/takeoff-rules.ts'
import { RULE_COLUMNS } from '#contract/takeoff-rules.ts'
import { csvText } from '../boq/write/csv.ts'
import type { RowsOf, RulesKind } from './store/types.ts'

const CLASSIFICATION_COLUMNS = ['code', 'title', 'parent'] as const

type Cell = string | number

/** A table as the rules reader reads it back: its columns, then one row per rule or code. */
function grid(
  kind: RulesKind,
  rows: RowsOf[RulesKind],
): { columns: readonly string[]; cells: Cell[][] } {
  if (kind === 'classification') {
    return {
      columns: CLASSIFICATION_COLUMNS,
      cells: (rows as ClassificationEntry[]).map((e) => [e.code, e.title, e.parent ?? '']),
    }
  }
  return {
    columns: RULE_COLUMNS,
    cells: (rows as TakeoffRule[]).map((rule) =>
      RULE_COLUMNS.map((column): Cell => {
        if (column === 'rate') return rule.rate ?? ''
        if (column === 'ignore') return rule.ignore ? 'yes' : ''
        return rule[column] ?? ''
      }),
    ),
  }
}

/**
 * The table as CSV, its text guarded as the bill's CSV is: a cell a spreadsheet would run as a
 * formula (`=length*2`, `-` leading a description) is written after a quote, which the rules
 * reader takes off again (as it does the quote of text that starts with one, quoted here too).
 */
export function tableCsv(kind: RulesKind, rows: RowsOf[RulesKind]): Uint8Array {
  const { columns, cells } = grid(kind, rows)
  const guarded = cells.map((row) => row.map(csvCell))
  return new TextEncoder().encode(
    stringify([[...columns], ...guarded], { record_delimiter: '\r\n' }),
  )
}

function csvCell(cell: Cell): Cell {
  if (typeof cell !== 'string') return cell
  return cell.startsWith("'") ? `'${cell}` : csvText(cell)
}

/** One sheet named after the table (the sheet the reader looks for first). */
export async function tableXlsx(kind: RulesKind, rows: RowsOf[RulesKind]): Promise<Uint8Array> {
  const { columns, cells } = grid(kind, rows)
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet(kind)
  sheet.addRow([...columns]).font = { bold: true }
  for (const row of cells) sheet.addRow(row)
  sheet.views = [{ state: 'frozen', ySplit: 1 }]
  return new Uint8Array(await book.xlsx.writeBuffer())
}
