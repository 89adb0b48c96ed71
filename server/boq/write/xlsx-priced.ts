import type ExcelJS from 'exceljs'
import { DEFAULT_AMOUNT_DECIMALS } from '../../../contract/figures.ts'
import type { PricedAdjustment, PricedBill, PricedItem } from '../../../contract/takeoff-rules.ts'
import {
  IGNORED_COLUMNS,
  ignoredRows,
  NOT_CLASSIFIED_COLUMNS,
  notClassifiedRows,
  pricedColumns,
  pricedRows,
} from './priced-rows.ts'
import type { Cell, Column, Format } from './table.ts'
import {
  amountFormat,
  DATE_FORMAT,
  decimalsFormat,
  fitColumns,
  font,
  formulaNumber,
  rateFormat,
  type Sentences,
  setUpPrinting,
  writeCell,
} from './xlsx-cells.ts'

/** Where the priced bill's formulas look: the columns of quantity, rate and amount. */
const QUANTITY = 'D'
const RATE = 'F'
const AMOUNT = 'G'
const QUANTITY_COLUMN = 4
const RATE_COLUMN = 6
const AMOUNT_COLUMN = 7

/**
 * The priced bill: provenance, then sections of items whose billed quantities and amounts are
 * live formulas (the measured quantity rounded to its unit's decimals; the billed quantity × the
 * rate rounded to the amounts' decimals; their values stored as the formulas' results so that a
 * reader that does not calculate still shows them), each section's subtotal and the total as
 * SUBTOTAL formulas, then what no rule took and what rules left out. No filter: it would hide
 * subtotals from their items.
 */
export function writePricedSheet(
  sheet: ExcelJS.Worksheet,
  priced: PricedBill,
  lead: [string, string | Date][],
): void {
  const sentences: Sentences = new Set([1])
  const title = sheet.getCell(1, 1)
  title.value = 'Priced bill of quantities'
  title.font = font({ bold: true, size: 14 })
  lead.forEach(([label, value], i) => {
    sheet.getCell(2 + i, 1).value = label
    sheet.getCell(2 + i, 1).font = font({ bold: true })
    const cell = sheet.getCell(2 + i, 2)
    writeCell(cell, value instanceof Date ? null : value, 'text')
    if (value instanceof Date) {
      cell.value = value
      cell.numFmt = DATE_FORMAT
      cell.alignment = { horizontal: 'left' }
    }
  })
  const headerRow = lead.length + 3
  const columns = pricedColumns(priced.currency)
  writeHeader(sheet, headerRow, columns)
  const money: Money = {
    decimals: priced.currency?.decimals ?? DEFAULT_AMOUNT_DECIMALS,
    format: amountFormat(priced.currency),
  }
  let r = headerRow
  let sectionStart = 0
  // Where the totals under the items are: the adjustments' formulas sum from them.
  let itemsTotalRow = 0
  let beforeTaxRow = 0
  for (const row of pricedRows(priced)) {
    r++
    if (row.kind === 'section') {
      writeCell(sheet.getCell(r, 1), row.code, 'text')
      writeCell(sheet.getCell(r, 3), row.title || null, 'text')
      sheet.getRow(r).font = font({ bold: true })
      sectionStart = r + 1
    } else if (row.kind === 'item') {
      writeRow(sheet, r, columns, row.cells)
      writeItemFigures(sheet, r, row.item, money)
    } else if (row.kind === 'subtotal') {
      writeCell(sheet.getCell(r, 3), row.label, 'text')
      figure(sheet.getCell(r, AMOUNT_COLUMN), subtotalOf(sectionStart, r - 1), row.subtotal, money)
      sheet.getRow(r).font = font({ bold: true })
    } else if (row.kind === 'adjustment') {
      writeRow(sheet, r, columns, row.cells)
      const from = beforeTaxRow || itemsTotalRow
      writeAdjustmentFigures(sheet, r, row.adjustment, from, money)
    } else {
      writeCell(sheet.getCell(r, 3), row.label, 'text')
      const formula =
        row.of === 'items'
          ? subtotalOf(headerRow + 1, r - 1)
          : `ROUND(SUM(${AMOUNT}${beforeTaxRow || itemsTotalRow}:${AMOUNT}${r - 1}),${money.decimals})`
      if (row.of === 'items') itemsTotalRow = r
      if (row.of === 'beforeTax') beforeTaxRow = r
      figure(sheet.getCell(r, AMOUNT_COLUMN), formula, row.total, money)
      sheet.getRow(r).font = font({ bold: true })
    }
  }
  if (priced.items.length === 0) {
    r++
    sheet.getCell(r, 1).value = 'No items: no rule took a measured quantity.'
    sheet.getCell(r, 1).font = font({ italic: true })
    sentences.add(r)
  }
  sheet.views = [{ state: 'frozen', ySplit: headerRow }]
  r = writeBlock(
    sheet,
    r + 2,
    'Not classified',
    NOT_CLASSIFIED_COLUMNS,
    notClassifiedRows(priced),
    {
      empty: 'Every measured quantity was taken by a rule.',
      sentences,
    },
  )
  if (priced.ignored.length > 0) {
    r = writeBlock(sheet, r + 2, 'Ignored by a rule', IGNORED_COLUMNS, ignoredRows(priced), {
      empty: '',
      sentences,
    })
  }
  if (priced.warnings.length > 0) r++
  for (const warning of priced.warnings) {
    r++
    writeCell(sheet.getCell(r, 1), warning, 'text')
    sheet.getCell(r, 1).font = font({ italic: true })
    sentences.add(r)
  }
  fitColumns(sheet, sentences)
  setUpPrinting(sheet, headerRow)
}

/** How the bill's amounts are rounded and shown: the currency's decimals and format. */
type Money = { decimals: number; format: string }

/**
 * An item's billed quantity (its measured one rounded, as a formula), its rate as given and its
 * amount (the billed quantity × the rate, rounded): each line multiplies out as printed.
 */
function writeItemFigures(
  sheet: ExcelJS.Worksheet,
  r: number,
  item: PricedItem,
  money: Money,
): void {
  const quantity = sheet.getCell(r, QUANTITY_COLUMN)
  quantity.value = {
    formula: `ROUND(${formulaNumber(item.measuredQuantity)},${item.decimals})`,
    result: item.quantity,
  }
  quantity.numFmt = decimalsFormat(item.decimals)
  if (item.rate === null) return
  sheet.getCell(r, RATE_COLUMN).numFmt = rateFormat(item.rate, money.decimals)
  if (item.amount === null) return
  const amount = `ROUND(${QUANTITY}${r}*${RATE}${r},${money.decimals})`
  figure(sheet.getCell(r, AMOUNT_COLUMN), amount, item.amount, money)
}

/**
 * An adjustment's figures as live formulas: a percentage × the total above it (rounded as the
 * bill rounds it) ÷ 100, a tax × the total before tax ÷ 100, a manual item's billed quantity ×
 * its rate (negative when omitted); a fixed sum is its amount.
 */
function writeAdjustmentFigures(
  sheet: ExcelJS.Worksheet,
  r: number,
  adjustment: PricedAdjustment,
  from: number,
  money: Money,
): void {
  const amount = sheet.getCell(r, AMOUNT_COLUMN)
  const times = `${QUANTITY}${r}*${RATE}${r}`
  if (adjustment.kind === 'percent' || adjustment.kind === 'tax') {
    sheet.getCell(r, QUANTITY_COLUMN).numFmt = rateFormat(adjustment.percent ?? 0, 0)
    const of = sheet.getCell(r, RATE_COLUMN)
    const total =
      adjustment.kind === 'tax'
        ? `${AMOUNT}${from}`
        : `ROUND(SUM(${AMOUNT}${from}:${AMOUNT}${r - 1}),${money.decimals})`
    figure(of, total, adjustment.of ?? 0, money)
    figure(amount, `ROUND(${times}/100,${money.decimals})`, adjustment.amount, money)
  } else if (adjustment.kind === 'item') {
    const quantity = sheet.getCell(r, QUANTITY_COLUMN)
    quantity.numFmt = decimalsFormat(adjustment.decimals ?? 0)
    sheet.getCell(r, RATE_COLUMN).numFmt = rateFormat(adjustment.rate ?? 0, money.decimals)
    const sign = adjustment.omit ? '-' : ''
    figure(amount, `${sign}ROUND(${times},${money.decimals})`, adjustment.amount, money)
  } else {
    amount.numFmt = money.format
  }
}

/** SUBTOTAL over amounts leaves out the sections' subtotals among them: each counted once. */
function subtotalOf(from: number, to: number): string {
  return `SUBTOTAL(9,${AMOUNT}${from}:${AMOUNT}${to})`
}

/** An amount as a live formula, its value stored as the formula's result, in the currency's format. */
function figure(cell: ExcelJS.Cell, formula: string, result: number, money: Money): void {
  if (Number.isFinite(result)) cell.value = { formula, result }
  cell.numFmt = money.format
}

function writeHeader(sheet: ExcelJS.Worksheet, r: number, columns: Column[]): void {
  columns.forEach((column, c) => {
    const cell = sheet.getCell(r, c + 1)
    cell.value = column.header
    cell.font = font({ bold: true })
    if (formatOf(column) !== 'text') cell.alignment = { horizontal: 'right' }
  })
}

function writeRow(sheet: ExcelJS.Worksheet, r: number, columns: Column[], cells: Cell[]): void {
  cells.forEach((value, c) => {
    writeCell(sheet.getCell(r, c + 1), value, formatOf(columns[c]))
  })
}

function formatOf(column: Column | undefined): Format {
  if (!column || typeof column.format === 'function') return 'text'
  return column.format
}

/** A titled block under the bill: its title, its header, its rows; returns its last row. */
function writeBlock(
  sheet: ExcelJS.Worksheet,
  from: number,
  title: string,
  columns: Column[],
  rows: Cell[][],
  { empty, sentences }: { empty: string; sentences: Sentences },
): number {
  sheet.getCell(from, 1).value = title
  sheet.getCell(from, 1).font = font({ bold: true, size: 12 })
  sentences.add(from)
  if (rows.length === 0) {
    sheet.getCell(from + 1, 1).value = empty
    sheet.getCell(from + 1, 1).font = font({ italic: true })
    sentences.add(from + 1)
    return from + 1
  }
  writeHeader(sheet, from + 1, columns)
  rows.forEach((cells, i) => {
    writeRow(sheet, from + 2 + i, columns, cells)
  })
  return from + 1 + rows.length
}
