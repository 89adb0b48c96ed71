import ExcelJS from 'exceljs'
import * as v from 'valibot'
import type { Currency } from '#contract/bill-settings.ts'
import { DEFAULT_AMOUNT_DECIMALS } from '#contract/figures.ts'
import {
  itemsBySection,
  type ProjectChangeBill,
  type ProjectItem,
  sectionHeading,
} from '#contract/project-bills.ts'
import { PricedBillSchema } from '#contract/takeoff-rules.ts'
import { fitted } from '../../boq/write/rows.ts'
import {
  amountFormat,
  decimalsFormat,
  fitColumns,
  fitMergedRows,
  font,
  type HeaderLine,
  rateFormat,
  type Sentences,
  setFooter,
  setUpPrinting,
  writeCell,
  writeHeaderBlock,
  writeSentence,
} from '../../boq/write/xlsx-cells.ts'
import { writePricedSheet } from '../../boq/write/xlsx-priced.ts'
import { MEASURED_SHEET, writeMeasuredSheet } from './measured-sheet.ts'
import type { ProjectBillFiles } from './project-task.ts'
import { sheetNames } from './sheet-names.ts'
import {
  type DrawingColumn,
  drawingColumns,
  drawingQuantities,
  driversText,
  sideText,
  stateText,
} from './summary-rows.ts'

export const SUMMARY_SHEET = 'Summary'
export const CHANGES_SHEET = 'Changes'

/** Figures are billed to at most six decimals (as the project bill sums them). */
const tidy = (value: number) => Math.round(value * 1e6) / 1e6

/**
 * The project bill's workbook: the Summary (items by section, a column per drawing, each item's
 * quantity, amount, the sections' subtotals and the total as live formulas; the drawings and
 * their states under it), the Measured sheet (the measured lines summed, a column per drawing),
 * then each drawing's priced bill on a sheet of its own, written as a job's workbook writes it.
 * Every sheet prints as the job's do.
 */
export async function projectBillXlsx(files: ProjectBillFiles): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook()
  const written = new Date(files.written)
  describe(book, `Project bill: ${files.name}`, written)
  // Each drawing's priced bill (its BOQ JSON's, or a PricedJob's).
  const bills = files.priced.map((one) => ({
    ...one,
    bill: v.parse(PricedBillSchema, JSON.parse(new TextDecoder().decode(one.json)).priced),
  }))
  const currency = bills.find((one) => one.bill.currency)?.bill.currency ?? null
  writeSummary(book.addWorksheet(SUMMARY_SHEET), files, currency, drawingColumns(files.billed))
  writeMeasuredSheet(book.addWorksheet(MEASURED_SHEET), files)
  const names = sheetNames(
    bills.map((one) => one.fileName.replace(/\.dwg$/i, '')),
    [SUMMARY_SHEET, MEASURED_SHEET, CHANGES_SHEET],
  )
  bills.forEach((one, i) => {
    writePricedSheet(book.addWorksheet(names[i]), one.bill, {
      fileName: one.fileName,
      provenance: [],
      drawingVersion: one.versionNumber,
    })
  })
  return bytesOf(book)
}

/** A project change bill's workbook: its Changes sheet. */
export async function projectChangesXlsx(
  changes: ProjectChangeBill,
  billName: string,
): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook()
  describe(book, `Project change bill: ${billName}`, new Date())
  writeChanges(book.addWorksheet(CHANGES_SHEET), changes, billName)
  return bytesOf(book)
}

interface Money {
  decimals: number
  format: string
}

function writeSummary(
  sheet: ExcelJS.Worksheet,
  files: ProjectBillFiles,
  currency: Currency | null,
  drawings: DrawingColumn[],
): void {
  const sentences: Sentences = new Set()
  const money: Money = {
    decimals: currency?.decimals ?? DEFAULT_AMOUNT_DECIMALS,
    format: amountFormat(currency),
  }
  const inCurrency = (header: string) => (currency ? `${header} (${currency.code})` : header)
  const headers = [
    'Code',
    'Description',
    'Unit',
    ...drawings.map((one) => one.header),
    'Quantity',
    inCurrency('Rate'),
    inCurrency('Amount'),
  ]
  const first = 4
  const quantityAt = first + drawings.length
  const rateAt = quantityAt + 1
  const amountAt = rateAt + 1
  const letter = (c: number) => sheet.getColumn(c).letter
  const headerEnd = writeHeaderBlock(
    sheet,
    files.name,
    summaryLines(files, currency, drawings.length),
    headers.length,
    sentences,
  )
  const headerRow = headerEnd + 2
  const header = sheet.getRow(headerRow)
  headers.forEach((text, c) => {
    const cell = header.getCell(c + 1)
    cell.value = fitted(text)
    cell.alignment = { horizontal: c >= 3 ? 'right' : 'left', wrapText: true, vertical: 'top' }
  })
  header.font = font({ bold: true })

  let r = headerRow
  const amount = letter(amountAt)
  const figure = (cell: ExcelJS.Cell, formula: string, result: number) => {
    cell.value = { formula, result }
    cell.numFmt = money.format
  }
  for (const [section, items] of itemsBySection(files.figures.items)) {
    r++
    writeCell(sheet.getCell(r, 1), sectionHeading(files.figures, section), 'text')
    sheet.getRow(r).font = font({ bold: true })
    const start = r + 1
    let subtotal = 0
    for (const item of items) {
      r++
      writeItem(sheet, r, item, drawings, money, { first, quantityAt, rateAt, amountAt })
      subtotal += item.amount ?? 0
    }
    r++
    writeCell(sheet.getCell(r, 2), `Subtotal ${section}`.trim(), 'text')
    figure(
      sheet.getCell(r, amountAt),
      `SUBTOTAL(9,${amount}${start}:${amount}${r - 1})`,
      tidy(subtotal),
    )
    sheet.getRow(r).font = font({ bold: true })
  }
  if (files.figures.items.length === 0) {
    r++
    writeSentence(
      sheet,
      r,
      'No items: no drawing of this bill is billed yet.',
      headers.length,
      sentences,
    )
  }
  r++
  const itemsTotal = tidy(files.figures.items.reduce((sum, item) => sum + (item.amount ?? 0), 0))
  const itemsTotalRow = r
  writeCell(sheet.getCell(r, 2), 'Total of the items', 'text')
  figure(
    sheet.getCell(r, amountAt),
    `SUBTOTAL(9,${amount}${headerRow + 1}:${amount}${r - 1})`,
    itemsTotal,
  )
  sheet.getRow(r).font = font({ bold: true })
  // The drawings' own adjustments (preliminaries, tax…) are in their totals, not in items.
  const adjustments = tidy(files.figures.total - itemsTotal)
  if (adjustments !== 0) {
    r++
    writeCell(sheet.getCell(r, 2), 'Adjustments of the drawings’ bills', 'text')
    writeCell(sheet.getCell(r, amountAt), adjustments, 'measure')
    sheet.getCell(r, amountAt).numFmt = money.format
    r++
    writeCell(sheet.getCell(r, 2), 'Total', 'text')
    figure(
      sheet.getCell(r, amountAt),
      `ROUND(${amount}${itemsTotalRow}+${amount}${r - 1},${money.decimals})`,
      files.figures.total,
    )
    sheet.getRow(r).font = font({ bold: true })
  }
  sheet.views = [{ state: 'frozen', ySplit: headerRow, xSplit: 3 }]

  // The drawings of the bill and what each is, under the items.
  r += 2
  sheet.getCell(r, 1).value = 'Drawings'
  sheet.getRow(r).font = font({ bold: true })
  for (const drawing of files.drawings) {
    r++
    writeCell(sheet.getCell(r, 1), drawing.fileName, 'text')
    const version = drawing.versionNumber === null ? '' : `version ${drawing.versionNumber}: `
    writeSentenceAfter(sheet, r, `${version}${stateText(drawing)}`, headers.length, sentences)
  }
  const wrapped = Array.from({ length: headerEnd - 1 }, (_, i) => 2 + i)
  if (files.warnings.length > 0) r++
  for (const warning of files.warnings) {
    r++
    writeSentence(sheet, r, `${warning.fileName}: ${warning.warning}`, headers.length, sentences)
    wrapped.push(r)
  }
  fitColumns(sheet, sentences)
  // Drawing columns hold figures: their headers wrap rather than widen them.
  for (let c = first; c < quantityAt; c++) {
    sheet.getColumn(c).width = Math.min(sheet.getColumn(c).width ?? 12, 16)
  }
  fitMergedRows(sheet, wrapped, headers.length)
  setUpPrinting(sheet, headerRow)
  setFooter(sheet, `${files.name}: summary`)
}

/** A drawing's state beside its name: a sentence across the columns after the first. */
function writeSentenceAfter(
  sheet: ExcelJS.Worksheet,
  r: number,
  text: string,
  columns: number,
  sentences: Sentences,
): void {
  const cell = sheet.getCell(r, 2)
  cell.value = fitted(text)
  cell.alignment = { wrapText: true, vertical: 'top' }
  if (columns > 2) sheet.mergeCells(r, 2, r, columns)
  sentences.add(r)
}

/**
 * An item's row: each drawing's billed quantity, their sum, the rate, and the amount as each
 * drawing's quantity × the rate rounded as its bill rounds it, summed (SUMPRODUCT of ROUNDs):
 * the figure each drawing's bill gives. When the drawings priced it at different rates, or its
 * amount is not that, the amount is written as the drawings' bills give it.
 */
function writeItem(
  sheet: ExcelJS.Worksheet,
  r: number,
  item: ProjectItem,
  drawings: DrawingColumn[],
  money: Money,
  at: { first: number; quantityAt: number; rateAt: number; amountAt: number },
): void {
  const letter = (c: number) => sheet.getColumn(c).letter
  writeCell(sheet.getCell(r, 1), item.code, 'text')
  writeCell(sheet.getCell(r, 2), item.description, 'text')
  writeCell(sheet.getCell(r, 3), item.unit, 'text')
  const decimals = Math.max(0, ...item.byDrawing.map((share) => decimalsOf(share.quantity)))
  const quantities = drawingQuantities(item, drawings)
  quantities.forEach((quantity, i) => {
    const cell = sheet.getCell(r, at.first + i)
    writeCell(cell, quantity, 'measure')
    if (typeof quantity === 'number') cell.numFmt = decimalsFormat(decimals)
  })
  const range = `${letter(at.first)}${r}:${letter(at.quantityAt - 1)}${r}`
  const quantity = sheet.getCell(r, at.quantityAt)
  quantity.value =
    drawings.length > 0 ? { formula: `SUM(${range})`, result: item.quantity } : item.quantity
  quantity.numFmt = decimalsFormat(decimals)
  if (item.amount === null) return
  const amount = sheet.getCell(r, at.amountAt)
  amount.numFmt = money.format
  const rate = item.rate
  const byFormula =
    rate !== null &&
    drawings.length > 0 &&
    tidy(
      item.byDrawing.reduce(
        (sum, share) => sum + roundTo(share.quantity * rate, money.decimals),
        0,
      ),
    ) === item.amount
  if (rate !== null) {
    writeCell(sheet.getCell(r, at.rateAt), rate, 'measure')
    sheet.getCell(r, at.rateAt).numFmt = rateFormat(rate, money.decimals)
  }
  amount.value = byFormula
    ? {
        formula: `SUMPRODUCT(ROUND(${range}*${letter(at.rateAt)}${r},${money.decimals}))`,
        result: item.amount,
      }
    : item.amount
}

function roundTo(value: number, decimals: number): number {
  const scale = 10 ** decimals
  return Math.round(value * scale) / scale
}

/** How many decimals a billed quantity shows (as billed: at most six). */
function decimalsOf(value: number): number {
  const fraction = /\.(\d+)/.exec(String(tidy(value)))?.[1]?.length ?? 0
  return Math.min(6, Math.max(fraction, Number.isInteger(value) ? 0 : 2))
}

function summaryLines(
  files: ProjectBillFiles,
  currency: Currency | null,
  billed: number,
): HeaderLine[] {
  const { issue, figures } = files
  const lines: (HeaderLine | null)[] = [
    issue ? ['Issue', `${issue.number}: ${issue.name}, by ${issue.issuedBy}`] : null,
    ['Drawings', `${billed} billed of ${files.drawings.length}`],
    figures.units ? ['Units', `${figures.units.length}, ${figures.units.area}`] : null,
    currency ? ['Currency', `${currency.code} (${currency.symbol})`] : null,
    ['Written (UTC)', issue ? new Date(issue.issuedAt) : new Date(files.written)],
  ]
  return lines.filter((line): line is HeaderLine => line !== null)
}

const CHANGE_HEADERS = [
  'Code',
  'Description',
  'Unit',
  'Quantity before',
  'Quantity after',
  'Quantity change',
  'Amount before',
  'Amount after',
  'Amount change',
  'Drawings that moved it',
]

/** The Changes sheet: each item before and after, the change as formulas, and which drawings. */
function writeChanges(sheet: ExcelJS.Worksheet, changes: ProjectChangeBill, billName: string) {
  const sentences: Sentences = new Set()
  const headerEnd = writeHeaderBlock(
    sheet,
    `Change bill: ${billName}`,
    [
      ['From', sideText(changes.from)],
      ['To', sideText(changes.to)],
    ],
    CHANGE_HEADERS.length,
    sentences,
  )
  const headerRow = headerEnd + 2
  const header = sheet.getRow(headerRow)
  CHANGE_HEADERS.forEach((text, c) => {
    const cell = header.getCell(c + 1)
    cell.value = text
    cell.alignment = { horizontal: c >= 3 && c <= 8 ? 'right' : 'left', wrapText: true }
  })
  header.font = font({ bold: true })
  let r = headerRow
  for (const item of changes.items) {
    r++
    writeCell(sheet.getCell(r, 1), item.code, 'text')
    writeCell(sheet.getCell(r, 2), item.description, 'text')
    writeCell(sheet.getCell(r, 3), item.unit, 'text')
    writeCell(sheet.getCell(r, 4), item.before.quantity, 'measure')
    writeCell(sheet.getCell(r, 5), item.after.quantity, 'measure')
    sheet.getCell(r, 6).value = { formula: `E${r}-D${r}`, result: item.change.quantity }
    sheet.getCell(r, 6).numFmt = '+#,##0.00;-#,##0.00;0.00'
    writeCell(sheet.getCell(r, 7), item.before.amount, 'measure')
    writeCell(sheet.getCell(r, 8), item.after.amount, 'measure')
    if (item.change.amount !== null) {
      sheet.getCell(r, 9).value = { formula: `H${r}-G${r}`, result: item.change.amount }
      sheet.getCell(r, 9).numFmt = '+#,##0.00;-#,##0.00;0.00'
    }
    writeCell(sheet.getCell(r, 10), driversText(item.drivenBy), 'text')
  }
  r++
  writeCell(sheet.getCell(r, 2), 'Total', 'text')
  const total = (c: string, result: number) => ({
    formula: `SUM(${c}${headerRow + 1}:${c}${r - 1})`,
    result,
  })
  sheet.getCell(r, 7).value = total('G', changes.total.before)
  sheet.getCell(r, 8).value = total('H', changes.total.after)
  sheet.getCell(r, 9).value = { formula: `H${r}-G${r}`, result: changes.total.change }
  for (const c of [7, 8, 9]) sheet.getCell(r, c).numFmt = '#,##0.00'
  sheet.getRow(r).font = font({ bold: true })
  sheet.views = [{ state: 'frozen', ySplit: headerRow }]
  fitColumns(sheet, sentences)
  setUpPrinting(sheet, headerRow)
  setFooter(sheet, `Change bill: ${billName}`)
}

function describe(book: ExcelJS.Workbook, title: string, written: Date): void {
  book.creator = 'BOQ'
  book.lastModifiedBy = 'BOQ'
  book.created = written
  book.modified = written
  book.title = fitted(title)
}

async function bytesOf(book: ExcelJS.Workbook): Promise<Uint8Array> {
  return new Uint8Array((await book.xlsx.writeBuffer()) as ArrayBuffer)
}
