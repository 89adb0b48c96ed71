import type ExcelJS from 'exceljs'
import type { ChangeBill } from '../../../contract/compare.ts'
import { ITEM_COLUMNS, ITEMS_BLOCK, itemChangeRows, itemTotalRow, NO_ITEMS } from './change-rows.ts'
import type { Cell, Format } from './table.ts'
import { font, type Sentences, writeCell } from './xlsx-cells.ts'

/** A formula whose value is stored as its result; its number format is the value's, written before. */
function formula(cell: ExcelJS.Cell, text: string, result: number): void {
  if (Number.isFinite(result)) cell.value = { formula: text, result }
}

/** A column of the items block by its header: its number and its letter. */
function columnOf(sheet: ExcelJS.Worksheet, header: string): { n: number; letter: string } {
  const n = ITEM_COLUMNS.findIndex((column) => column.header === header) + 1
  return { n, letter: sheet.getColumn(n).letter }
}

/**
 * The priced items of the change bill from row `from` down: a title, a header, one row per item
 * whose amount change is a live formula (after − before, its value stored as the formula's result
 * so that a reader that does not calculate still shows it), and the totals as SUM formulas over
 * the items with their change. Nothing when the bills were not both priced. Returns the last row
 * written (`from` − 1 when none).
 */
export function writeItemChanges(
  sheet: ExcelJS.Worksheet,
  from: number,
  changes: ChangeBill,
  sentences: Sentences,
): number {
  const { items, total } = changes
  if (items === undefined || total === undefined) return from - 1
  sheet.getCell(from, 1).value = ITEMS_BLOCK
  sheet.getCell(from, 1).font = font({ bold: true, size: 12 })
  sentences.add(from)
  if (items.length === 0) {
    sheet.getCell(from + 1, 1).value = NO_ITEMS
    sheet.getCell(from + 1, 1).font = font({ italic: true })
    sentences.add(from + 1)
    return from + 1
  }
  const headerRow = from + 1
  ITEM_COLUMNS.forEach((column, c) => {
    const cell = sheet.getCell(headerRow, c + 1)
    cell.value = column.header
    cell.font = font({ bold: true })
    if (column.format !== 'text') cell.alignment = { horizontal: 'right' }
  })
  const before = columnOf(sheet, 'Amount before')
  const after = columnOf(sheet, 'Amount after')
  const change = columnOf(sheet, 'Amount change')
  const rows = itemChangeRows(changes)
  rows.forEach((cells, i) => {
    const r = headerRow + 1 + i
    writeCells(sheet, r, cells)
    const amountChange = items[i]?.amountChange ?? 0
    // An empty amount (an item without a rate) counts as 0, as it does in the stored change.
    formula(sheet.getCell(r, change.n), `${after.letter}${r}-${before.letter}${r}`, amountChange)
  })
  const first = headerRow + 1
  const last = headerRow + rows.length
  const totalRow = last + 1
  writeCells(sheet, totalRow, itemTotalRow(total))
  const sum = ({ letter }: { letter: string }) => `SUM(${letter}${first}:${letter}${last})`
  formula(sheet.getCell(totalRow, before.n), sum(before), total.before)
  formula(sheet.getCell(totalRow, after.n), sum(after), total.after)
  formula(
    sheet.getCell(totalRow, change.n),
    `${after.letter}${totalRow}-${before.letter}${totalRow}`,
    total.change,
  )
  sheet.getRow(totalRow).font = font({ bold: true })
  return totalRow
}

function writeCells(sheet: ExcelJS.Worksheet, r: number, cells: Cell[]): void {
  cells.forEach((value, c) => {
    const cell = sheet.getCell(r, c + 1)
    writeCell(cell, value, formatOf(c))
    // Text right of a column of numbers would touch them (right-aligned): one step in.
    if (typeof value === 'string' && c > 0 && formatOf(c - 1) !== 'text')
      cell.alignment = { horizontal: 'left', indent: 1 }
  })
}

function formatOf(c: number): Format {
  const format = ITEM_COLUMNS[c]?.format
  return typeof format === 'string' ? format : 'text'
}
