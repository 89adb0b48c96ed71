import type ExcelJS from 'exceljs'
import type { ChangeBill, ChangeItem } from '#contract/compare.ts'
import { DEFAULT_AMOUNT_DECIMALS, unitDecimals } from '#contract/figures.ts'
import {
  ITEM_COLUMNS,
  ITEMS_BLOCK,
  itemChangeRows,
  itemColumns,
  itemTotalRow,
  NO_ITEMS,
} from './change-rows.ts'
import type { Cell, Format } from './table.ts'
import {
  amountFormat,
  decimalsFormat,
  font,
  rateFormat,
  type Sentences,
  writeCell,
} from './xlsx-cells.ts'

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
  const money = {
    decimals: changes.currency?.decimals ?? DEFAULT_AMOUNT_DECIMALS,
    format: amountFormat(changes.currency ?? null),
  }
  itemColumns(changes).forEach((column, c) => {
    const cell = sheet.getCell(headerRow, c + 1)
    // Two lines ("Amount / before"): twelve columns still print a page wide at a size to read.
    cell.value = column.header.replace(' ', '\n')
    cell.font = font({ bold: true })
    const afterNumbers = c > 0 && formatOf(c - 1) !== 'text' && column.format === 'text'
    cell.alignment = {
      vertical: 'bottom',
      ...(column.format !== 'text' ? { horizontal: 'right' } : {}),
      // Text right of a column of numbers would touch them (right-aligned): one step in.
      ...(afterNumbers ? { horizontal: 'left', indent: 1 } : {}),
    }
  })
  const before = columnOf(sheet, 'Amount before')
  const after = columnOf(sheet, 'Amount after')
  const change = columnOf(sheet, 'Amount change')
  const rows = itemChangeRows(changes)
  rows.forEach((cells, i) => {
    const r = headerRow + 1 + i
    writeCells(sheet, r, cells)
    formatFigures(sheet, r, items[i], money)
    const amountChange = items[i]?.amountChange ?? 0
    // An empty amount (an item without a rate) counts as 0, as it does in the stored change.
    formula(sheet.getCell(r, change.n), `${after.letter}${r}-${before.letter}${r}`, amountChange)
  })
  const first = headerRow + 1
  const last = headerRow + rows.length
  const totalRow = last + 1
  writeCells(sheet, totalRow, itemTotalRow(total))
  formatFigures(sheet, totalRow, undefined, money)
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

const QUANTITIES = ['Quantity before', 'Quantity after']
const RATES = ['Rate before', 'Rate after']
const AMOUNTS = ['Amount before', 'Amount after', 'Amount change']

/**
 * A row's figures as the priced bills print them: quantities to their unit's decimals (counts
 * whole), rates with all their decimals, amounts in the currency's format.
 */
function formatFigures(
  sheet: ExcelJS.Worksheet,
  r: number,
  item: ChangeItem | undefined,
  money: { decimals: number; format: string },
): void {
  ITEM_COLUMNS.forEach(({ header }, c) => {
    const cell = sheet.getCell(r, c + 1)
    if (typeof cell.value !== 'number' && !(cell.value && typeof cell.value === 'object')) return
    if (AMOUNTS.includes(header)) cell.numFmt = money.format
    else if (item && QUANTITIES.includes(header))
      cell.numFmt = decimalsFormat(unitDecimals(item.unit))
    else if (RATES.includes(header) && typeof cell.value === 'number')
      cell.numFmt = rateFormat(cell.value, money.decimals)
  })
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
