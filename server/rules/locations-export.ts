import { stringify } from 'csv-stringify/sync'
import ExcelJS from 'exceljs'
import { LOCATION_COLUMNS, type LocationRow } from '#contract/locations.ts'
import { csvText } from '../boq/write/csv.ts'

/** The rows as the locations reader reads them back: its columns, then one row per location. */
function cellsOf(rows: LocationRow[]): string[][] {
  return rows.map((row) => LOCATION_COLUMNS.map((column) => row[column] ?? ''))
}

/**
 * The table as CSV, its text guarded as the rules' export guards it: a glob a spreadsheet would
 * run as a formula (`-SPACE*`) is written after a quote, which the reader takes off again.
 */
export function locationsCsv(rows: LocationRow[]): Uint8Array {
  const guarded = cellsOf(rows).map((row) =>
    row.map((cell) => (cell.startsWith("'") ? `'${cell}` : csvText(cell))),
  )
  return new TextEncoder().encode(
    stringify([[...LOCATION_COLUMNS], ...guarded], { record_delimiter: '\r\n' }),
  )
}

/** One sheet named `locations` (the sheet the reader looks for first). */
export async function locationsXlsx(rows: LocationRow[]): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('locations')
  sheet.addRow([...LOCATION_COLUMNS]).font = { bold: true }
  for (const row of cellsOf(rows)) sheet.addRow(row)
  sheet.views = [{ state: 'frozen', ySplit: 1 }]
  return new Uint8Array(await book.xlsx.writeBuffer())
}
