import type ExcelJS from 'exceljs'
import { DEFAULT_AMOUNT_DECIMALS } from '#contract/figures.ts'
import type { PricedAdjustment, PricedBill, PricedItem } from '#contract/takeoff-rules.ts'
import type { BillGroup } from '../model/schema.ts'
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
  decimalsFormat,
  fitColumns,
  fitMergedRows,
  font,
  formulaNumber,
  type HeaderLine,
  rateFormat,
  type Sentences,
  setFooter,
  setUpPrinting,
  writeCell,
  writeHeaderBlock,
  writeSentence,
} from './xlsx-cells.ts'
import { outlineRows } from './xlsx-outline.ts'

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
  about: PricedAbout,
): void {
  const sentences: Sentences = new Set()
  const columns = pricedColumns(priced.currency)
  const title = priced.header.title || 'Priced bill of quantities'
  const headerEnd = writeHeaderBlock(
    sheet,
    title,
    headerLines(priced, about),
    columns.length,
    sentences,
  )
  const headerRow = headerEnd + 2
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
  const notClassified = notClassifiedRows(priced, about.groups)
  const notClassifiedFrom = r + 2
  r = writeBlock(
    sheet,
    notClassifiedFrom,
    'Not classified',
    NOT_CLASSIFIED_COLUMNS,
    notClassified.rows,
    {
      empty: 'Every measured quantity was taken by a rule.',
      sentences,
      at: NOT_CLASSIFIED_AT,
    },
  )
  // Under the block's title and header; its descriptions in the bill's Description column.
  outlineRows(sheet, notClassifiedFrom + 2, notClassified.levels, NOT_CLASSIFIED_AT[1] as number)
  if (priced.ignored.length > 0) {
    r = writeBlock(sheet, r + 2, 'Ignored by a rule', IGNORED_COLUMNS, ignoredRows(priced), {
      empty: '',
      sentences,
      at: IGNORED_AT,
    })
  }
  if (priced.warnings.length > 0) r++
  const wrapped = Array.from({ length: headerEnd - 1 }, (_, i) => 2 + i)
  for (const warning of priced.warnings) {
    r++
    writeSentence(sheet, r, warning, columns.length, sentences)
    wrapped.push(r)
  }
  indentTextAfterNumbers(sheet, headerRow, sentences)
  fitColumns(sheet, sentences)
  fitMergedRows(sheet, wrapped, columns.length)
  setUpPrinting(sheet, headerRow)
  setFooter(sheet, `${title}: ${about.fileName}`)
}

/** What the header says besides the priced bill: the drawing's provenance and its version. */
export type PricedAbout = {
  fileName: string
  /** provenance(): the drawing, its format, units, when written, its title block. */
  provenance: HeaderLine[]
  /** The drawing's version in the cloud, when known. */
  drawingVersion: number | null
  /** The measured bill's groups (pasted blocks): their not-classified lines under one line. */
  groups?: readonly BillGroup[]
}

/**
 * The header's lines: who and what the bill is for, the drawing and its version, its units,
 * what priced it, the currency, when it was written.
 */
function headerLines(priced: PricedBill, about: PricedAbout): HeaderLine[] {
  const said = new Map(about.provenance)
  const { client, reference } = priced.header
  const version = about.drawingVersion === null ? '' : `, version ${about.drawingVersion}`
  const format = said.get('Version')
  const lines: (HeaderLine | null)[] = [
    client ? ['Client', client] : null,
    reference ? ['Reference', reference] : null,
    ['Drawing', `${about.fileName}${version}${format ? ` (${format})` : ''}`],
    said.has('Units') ? ['Units', said.get('Units') as string] : null,
    ['Priced with', pricedWith(priced)],
    priced.currency ? ['Currency', `${priced.currency.code} (${priced.currency.symbol})`] : null,
    said.has('Written (UTC)') ? ['Written (UTC)', said.get('Written (UTC)') as Date] : null,
    said.has('Title block') ? ['Title block', said.get('Title block') as string] : null,
  ]
  return lines.filter((line): line is HeaderLine => line !== null)
}

/** The versions of the project's tables that priced the bill, or the rules it names. */
function pricedWith(priced: PricedBill): string {
  const { rulesVersion, classificationVersion, settingsVersion } = priced.header
  if (rulesVersion === undefined) return `${priced.rules.length} takeoff rules (on the Rules sheet)`
  return [
    `rules version ${rulesVersion}`,
    classificationVersion ? `classification version ${classificationVersion}` : 'no classification',
    settingsVersion ? `bill settings version ${settingsVersion}` : null,
  ]
    .filter(Boolean)
    .join(', ')
}

/**
 * Text right of a column of numbers would touch them (right-aligned): set it one step in (the
 * descriptions after an ignore rule's number, the units after the quantities, the notes after
 * the amounts), under the header row.
 */
function indentTextAfterNumbers(sheet: ExcelJS.Worksheet, from: number, sentences: Sentences) {
  for (let r = from; r <= sheet.rowCount; r++) {
    if (sentences.has(r)) continue
    for (const c of [3, QUANTITY_COLUMN + 1, AMOUNT_COLUMN + 1]) {
      const cell = sheet.getCell(r, c)
      if (typeof cell.value === 'string')
        cell.alignment = { ...cell.alignment, horizontal: 'left', indent: 1 }
    }
  }
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

/** Where a block's columns go: the sheet's column of each, by default the next one. */
type Placed = readonly number[]

/**
 * The blocks under the bill in the bill's own columns (their measured line under Item, the rule
 * under Code, description, quantity and unit under the bill's), so that no column is widened
 * by what only a block holds there.
 */
const NOT_CLASSIFIED_AT: Placed = [1, 3, 4, 5]
const IGNORED_AT: Placed = [2, 1, 3, 4, 5]

function writeHeader(sheet: ExcelJS.Worksheet, r: number, columns: Column[], at?: Placed): void {
  columns.forEach((column, c) => {
    const cell = sheet.getCell(r, at?.[c] ?? c + 1)
    cell.value = column.header
    cell.font = font({ bold: true })
    if (formatOf(column) !== 'text') cell.alignment = { horizontal: 'right' }
  })
}

function writeRow(
  sheet: ExcelJS.Worksheet,
  r: number,
  columns: Column[],
  cells: Cell[],
  at?: Placed,
): void {
  cells.forEach((value, c) => {
    writeCell(sheet.getCell(r, at?.[c] ?? c + 1), value, formatOf(columns[c]))
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
  { empty, sentences, at }: { empty: string; sentences: Sentences; at: Placed },
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
  writeHeader(sheet, from + 1, columns, at)
  rows.forEach((cells, i) => {
    writeRow(sheet, from + 2 + i, columns, cells, at)
  })
  return from + 1 + rows.length
}
