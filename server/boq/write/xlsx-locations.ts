import type ExcelJS from 'exceljs'
import { LEADING_COLUMNS } from './location-rows.ts'
import type { Table } from './table.ts'

/**
 * By location's Total column as live formulas: each row's zones and Unallocated summed
 * (`=SUM(E2:H2)`), its value stored as its result for readers that do not calculate.
 */
export function totalsAsFormulas(sheet: ExcelJS.Worksheet, table: Table, headerRow: number): void {
  const totalColumn = table.columns.length
  const first = LEADING_COLUMNS + 1
  const last = totalColumn - 1
  table.rows.forEach((cells, r) => {
    const at = headerRow + 1 + r
    let result = 0
    for (let c = first - 1; c < last; c++) result += Number(cells[c] ?? 0)
    const from = sheet.getCell(at, first).address
    const to = sheet.getCell(at, last).address
    sheet.getCell(at, totalColumn).value = { formula: `SUM(${from}:${to})`, result }
  })
}
