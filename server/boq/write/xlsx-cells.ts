/** How the workbook's cells are written and laid out: formats, fonts, widths, printing. */
import type ExcelJS from 'exceljs'
import type { Currency } from '#contract/bill-settings.ts'
import { fitted } from './rows.ts'
import type { Cell, Format } from './table.ts'

export const NUMBER_FORMATS: Record<Exclude<Format, 'text'>, string> = {
  count: '#,##0',
  measure: '#,##0.00',
}

/** Thousands separated, with this many decimals: `#,##0` for 0, `#,##0.00` for 2. */
export function decimalsFormat(decimals: number): string {
  return decimals > 0 ? `#,##0.${'0'.repeat(decimals)}` : '#,##0'
}

/**
 * Amounts in a currency's format: its symbol as Intl writes it before the figure (`€1,240.00`,
 * `CHF 1,240.00`), its decimals (`¥1,240`); without a currency, two decimals.
 */
export function amountFormat(currency: Currency | null): string {
  if (!currency) return NUMBER_FORMATS.measure
  const parts = new Intl.NumberFormat('en', {
    style: 'currency',
    currency: currency.code,
  }).formatToParts(1)
  const at = parts.findIndex((part) => part.type === 'integer')
  const before = parts
    .slice(0, at)
    .map((part) => part.value)
    .join('')
  const after = parts
    .slice(at + 1)
    .filter((part) => part.type !== 'decimal' && part.type !== 'fraction')
    .map((part) => part.value)
    .join('')
  const quoted = (text: string) => (text ? `"${text.replace(/"/g, '')}"` : '')
  return `${quoted(before)}${decimalsFormat(currency.decimals)}${quoted(after)}`
}

/** The most decimals a rate is shown with: rates are given, not measured. */
const MAX_RATE_DECIMALS = 10

/**
 * A rate as given: at least the amounts' decimals, more when it has more (40.125 shows all of
 * it), so that the billed quantity × the rate shown is the amount shown.
 */
export function rateFormat(rate: number, amountDecimals: number): string {
  const fraction = /\.(\d+)/.exec(String(rate))?.[1]?.length ?? 0
  const exact = /e-(\d+)/.exec(String(rate)) ? MAX_RATE_DECIMALS : fraction
  return decimalsFormat(Math.min(MAX_RATE_DECIMALS, Math.max(amountDecimals, exact)))
}

/** A number in a formula's text: its shortest exact form, as a spreadsheet reads it. */
export function formulaNumber(value: number): string {
  return String(value).toUpperCase()
}
/** A measure that two decimals would show as 0.00: in figures that say it is not nothing. */
const SMALL_MEASURE = '0.00E+00'
const SMALLEST_SHOWN = 0.005
export const DATE_FORMAT = 'yyyy-mm-dd hh:mm'
/** Column widths in characters: wide enough for the content, never a wall of text. */
const MIN_WIDTH = 8
const MAX_WIDTH = 60
const EXCELJS_DEFAULT_WIDTH = 9

/** The workbook's own font with a change: a font without a name falls back to another face. */
export function font(change: Partial<ExcelJS.Font>): Partial<ExcelJS.Font> {
  return { name: 'Calibri', family: 2, size: 11, ...change }
}

/** Rows written as one sentence that runs on to the right: left out of widths and wrapping. */
export type Sentences = Set<number>

/** Strings go in as text (ExcelJS writes a formula only when given one); numbers as numbers. */
export function writeCell(cell: ExcelJS.Cell, value: Cell, format: Format): void {
  if (value === null) return
  if (typeof value === 'string') {
    cell.value = fitted(value)
    return
  }
  // A cell cannot hold NaN or infinity: show it as the word rather than write a broken file.
  if (!Number.isFinite(value)) {
    cell.value = String(value)
    return
  }
  cell.value = value
  if (format === 'text') return
  const small = format === 'measure' && value !== 0 && Math.abs(value) < SMALLEST_SHOWN
  cell.numFmt = small ? SMALL_MEASURE : NUMBER_FORMATS[format]
}

/** Widths fitted to every cell's shown text, bounded; longer text wraps, its row grown to show it. */
export function fitColumns(sheet: ExcelJS.Worksheet, sentences: Sentences): void {
  const widths: number[] = []
  eachMeasuredCell(sheet, sentences, (cell, length) => {
    const c = Number(cell.col)
    widths[c] = Math.max(widths[c] ?? 0, length)
  })
  // ExcelJS leaves out a column of width 9, its default: make that the sheet's default too.
  sheet.properties.defaultColWidth = EXCELJS_DEFAULT_WIDTH
  for (let c = 1; c < widths.length; c++)
    sheet.getColumn(c).width = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, (widths[c] ?? 0) + 2))
  sheet.eachRow((row, r) => {
    if (!sentences.has(r)) wrapLongText(sheet, row)
  })
}

const LINE_HEIGHT = 15
/** The tallest row a spreadsheet allows, in points. */
const MAX_ROW_HEIGHT = 409

/**
 * Text wider than its column wraps, and the row is made tall enough: spreadsheets do not all
 * grow a row to its wrapped text when they open a file.
 */
function wrapLongText(sheet: ExcelJS.Worksheet, row: ExcelJS.Row): void {
  let lines = 1
  row.eachCell((cell) => {
    if (typeof cell.value !== 'string') return
    const width = sheet.getColumn(Number(cell.col)).width ?? MIN_WIDTH
    const needed = linesShown(cell.value, width - 2)
    if (needed === 1) return
    cell.alignment = { ...cell.alignment, wrapText: true }
    lines = Math.max(lines, needed)
  })
  if (lines === 1) return
  row.height = Math.min(MAX_ROW_HEIGHT, lines * LINE_HEIGHT)
  // The row's other cells line up with the first line of the wrapped text.
  row.eachCell((cell) => {
    cell.alignment = { ...cell.alignment, vertical: 'top' }
  })
}

function linesShown(text: string, charsPerLine: number): number {
  return text
    .split('\n')
    .reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / charsPerLine)), 0)
}

function eachMeasuredCell(
  sheet: ExcelJS.Worksheet,
  sentences: Sentences,
  visit: (cell: ExcelJS.Cell, length: number) => void,
): void {
  sheet.eachRow((row, r) => {
    if (sentences.has(r)) return
    row.eachCell((cell) => visit(cell, shownLength(cell)))
  })
}

const SCIENTIFIC = new Intl.NumberFormat('en-US', {
  notation: 'scientific',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
})

/** The text a number format shows: its quoted text (a currency's symbol) and the figure. */
function shownNumber(value: number, numFmt: string | undefined): string {
  const format = numFmt || NUMBER_FORMATS.measure
  if (format === SMALL_MEASURE) return SCIENTIFIC.format(value)
  const section = format.split(';')[0] ?? format
  const quoted = [...section.matchAll(/"([^"]*)"/g)].map((match) => match[1]).join('')
  const decimals = /\.(0+)/.exec(section.replace(/"[^"]*"/g, ''))?.[1]?.length ?? 0
  const figure = value.toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  })
  return quoted + figure
}

/** How many characters the cell takes: its longest line, or its number as formatted, and its indent. */
function shownLength(cell: ExcelJS.Cell): number {
  const indent = 2 * (cell.alignment?.indent ?? 0)
  return indent + shownText(cell)
}

function shownText(cell: ExcelJS.Cell): number {
  // A formula shows its result.
  const value =
    typeof cell.value === 'object' && cell.value !== null && 'formula' in cell.value
      ? cell.value.result
      : cell.value
  if (typeof value === 'number') return shownNumber(value, cell.numFmt).length
  if (value instanceof Date) return DATE_FORMAT.length
  return Math.max(
    ...String(value ?? '')
      .split('\n')
      .map((line) => line.length),
  )
}

/** ExcelJS's paper size for A4. */
const A4 = 9

/**
 * Printed (and converted to PDF) on landscape A4 a page wide, the header row repeated on every
 * page, and a footer with the sheet's name and the page of how many.
 */
export function setUpPrinting(sheet: ExcelJS.Worksheet, headerRow: number): void {
  sheet.pageSetup = {
    ...sheet.pageSetup,
    paperSize: A4,
    orientation: 'landscape',
    fitToPage: true,
    fitToWidth: 1,
    fitToHeight: 0,
    printTitlesRow: `${headerRow}:${headerRow}`,
    margins: { left: 0.5, right: 0.5, top: 0.6, bottom: 0.7, header: 0.3, footer: 0.3 },
  }
  setFooter(sheet, '')
}

/** The footer: what is printed on the left (the drawing, say), the page of how many, the sheet. */
export function setFooter(sheet: ExcelJS.Worksheet, what: string): void {
  // A footer takes & as the start of a code: a name's own & is doubled.
  const said = what.replace(/&/g, '&&')
  sheet.headerFooter = {
    ...sheet.headerFooter,
    oddFooter: `&L&8${said}&C&8Page &P of &N&R&8&A`,
  }
}

/** A header line: its label in bold, then its value (a date as `yyyy-mm-dd hh:mm`). */
export type HeaderLine = [label: string, value: string | Date]

/**
 * A sheet's header block from row 1: its title, then a line per label and value, each across
 * the first `columns` columns (merged: there is no table over them) and wrapped there, so that
 * neither widens a column. The rows are added to `sentences`; returns the last row written.
 */
export function writeHeaderBlock(
  sheet: ExcelJS.Worksheet,
  title: string,
  lines: HeaderLine[],
  columns: number,
  sentences: Sentences,
): number {
  const heading = sheet.getCell(1, 1)
  heading.value = fitted(title)
  heading.font = font({ bold: true, size: 14 })
  sentences.add(1)
  lines.forEach(([label, value], i) => {
    const r = 2 + i
    const text = value instanceof Date ? dateText(value) : value
    const cell = sheet.getCell(r, 1)
    cell.value = {
      richText: [
        { font: font({ bold: true }), text: `${label}: ` },
        { font: font({}), text: fitted(text, MAX_HEADER_CHARS) },
      ],
    }
    cell.alignment = { wrapText: true, vertical: 'top' }
    sheet.mergeCells(r, 1, r, columns)
    sentences.add(r)
  })
  return 1 + lines.length
}

/** A header line is read, not searched: a long one is cut well before a cell's limit. */
const MAX_HEADER_CHARS = 2000

function dateText(date: Date): string {
  return date.toISOString().slice(0, 16).replace('T', ' ')
}

/**
 * A sentence on its own row (a warning under a bill), across the first `columns` columns and
 * wrapped there rather than running on past the table (which would shrink the printed page).
 */
export function writeSentence(
  sheet: ExcelJS.Worksheet,
  r: number,
  text: string,
  columns: number,
  sentences: Sentences,
): void {
  const cell = sheet.getCell(r, 1)
  cell.value = fitted(text)
  cell.font = font({ italic: true })
  cell.alignment = { wrapText: true, vertical: 'top' }
  sheet.mergeCells(r, 1, r, columns)
  sentences.add(r)
}

/**
 * Rows merged across the first `columns` columns made tall enough for their wrapped text, once
 * the columns' widths are known (spreadsheets do not grow a merged row to its text).
 */
export function fitMergedRows(sheet: ExcelJS.Worksheet, rows: number[], columns: number): void {
  let width = 0
  for (let c = 1; c <= columns; c++) width += sheet.getColumn(c).width ?? EXCELJS_DEFAULT_WIDTH
  for (const r of rows) {
    const value = sheet.getCell(r, 1).value
    const text =
      typeof value === 'string'
        ? value
        : ((value as ExcelJS.CellRichTextValue | null)?.richText?.map((run) => run.text).join('') ??
          '')
    const lines = linesShown(text, Math.max(1, width - 2))
    if (lines > 1) sheet.getRow(r).height = Math.min(MAX_ROW_HEIGHT, lines * LINE_HEIGHT)
  }
}
