import ExcelJS from 'exceljs'
import type { ChangeBill } from '../../contract/compare.ts'
import { changesTable } from './change-rows.ts'
import {
  type Cell,
  type Column,
  type Format,
  fitted,
  provenance,
  sheetTables,
  type Table,
} from './rows.ts'
import type { Boq } from './schema.ts'

const NUMBER_FORMATS: Record<Exclude<Format, 'text'>, string> = {
  count: '#,##0',
  measure: '#,##0.00',
}
/** A measure that two decimals would show as 0.00: in figures that say it is not nothing. */
const SMALL_MEASURE = '0.00E+00'
const SMALLEST_SHOWN = 0.005
const DATE_FORMAT = 'yyyy-mm-dd hh:mm'
/** Column widths in characters: wide enough for the content, never a wall of text. */
const MIN_WIDTH = 8
const MAX_WIDTH = 60
const EXCELJS_DEFAULT_WIDTH = 9

export type XlsxOptions = {
  /** When the workbook is written (its properties and the bill's provenance); now by default. */
  created?: Date
  /** The change bill against an earlier version: a Changes sheet after the Bill. */
  changes?: ChangeBill
}

/**
 * The bill first (provenance above it, what a reader must know below it), then one sheet per
 * table it is drawn from. Numbers stay numbers at full precision, shown through number formats;
 * text is always text (never a formula) and cut to what a cell holds.
 */
export async function toXlsx(boq: Boq, options: XlsxOptions = {}): Promise<Uint8Array> {
  const created = options.created ?? new Date()
  const book = new ExcelJS.Workbook()
  describeBook(book, boq, created)
  const [bill, ...others] = sheetTables(boq)
  writeBillSheet(book.addWorksheet(bill.name), bill, boq, created)
  if (options.changes) {
    const changes = changesTable(options.changes)
    writeTableSheet(book.addWorksheet(changes.name), changes, 1)
  }
  for (const table of others) writeTableSheet(book.addWorksheet(table.name), table, 1)
  return written(book)
}

/** A change bill on its own: one Changes sheet, what was compared under it. */
export async function changeBillXlsx(changes: ChangeBill): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook()
  book.creator = 'BOQ'
  book.title = `Changes: ${changes.from.fileName} → ${changes.to.fileName}`
  const table = changesTable(changes)
  writeTableSheet(book.addWorksheet(table.name), table, 1)
  return written(book)
}

async function written(book: ExcelJS.Workbook): Promise<Uint8Array> {
  const buffer = await book.xlsx.writeBuffer()
  return new Uint8Array(buffer as ArrayBuffer)
}

function describeBook(book: ExcelJS.Workbook, boq: Boq, created: Date): void {
  const file = boq.source.fileName
  book.creator = 'BOQ'
  book.lastModifiedBy = 'BOQ'
  book.created = created
  book.modified = created
  book.title = fitted(`Bill of quantities: ${file}`)
  book.subject = fitted(file)
  book.keywords = `BOQ, bill of quantities, schema version ${boq.version}`
  book.description = fitted(`Bill of quantities of ${file}, by BOQ (schema version ${boq.version})`)
}

/** The workbook's own font with a change: a font without a name falls back to another face. */
function font(change: Partial<ExcelJS.Font>): Partial<ExcelJS.Font> {
  return { name: 'Calibri', family: 2, size: 11, ...change }
}

/** Rows written as one sentence that runs on to the right: left out of widths and wrapping. */
type Sentences = Set<number>

function writeBillSheet(sheet: ExcelJS.Worksheet, table: Table, boq: Boq, created: Date): void {
  const title = sheet.getCell(1, 1)
  title.value = 'Bill of quantities'
  title.font = font({ bold: true, size: 14 })
  const lead = provenance(boq, created)
  lead.forEach(([label, value], i) => {
    sheet.getCell(2 + i, 1).value = label
    sheet.getCell(2 + i, 1).font = font({ bold: true })
    const cell = sheet.getCell(2 + i, 2)
    cell.value = value instanceof Date ? value : fitted(value)
    if (value instanceof Date) {
      cell.numFmt = DATE_FORMAT
      cell.alignment = { horizontal: 'left' }
    }
  })
  // A blank row between the provenance and the table's header.
  writeTableSheet(sheet, table, lead.length + 3, new Set([1]))
}

/** A table from `headerRow` down: bold frozen header, a filter over the table alone, notes under it. */
function writeTableSheet(
  sheet: ExcelJS.Worksheet,
  table: Table,
  headerRow: number,
  sentences: Sentences = new Set(),
): void {
  const header = sheet.getRow(headerRow)
  table.columns.forEach((column, c) => {
    const cell = header.getCell(c + 1)
    cell.value = fitted(column.header)
    // Over numbers, the header lines up with them.
    if (formatOf(column, 0) !== 'text') cell.alignment = { horizontal: 'right' }
  })
  header.font = font({ bold: true })
  table.rows.forEach((row, r) => {
    row.forEach((value, c) => {
      writeCell(sheet.getCell(headerRow + 1 + r, c + 1), value, formatOf(table.columns[c], r))
    })
  })
  const lastRow = headerRow + table.rows.length
  sheet.views = [{ state: 'frozen', ySplit: headerRow }]
  sheet.autoFilter = {
    from: { row: headerRow, column: 1 },
    to: { row: lastRow, column: table.columns.length },
  }
  writeNotes(sheet, table, lastRow + 2, sentences)
  indentTextAfterNumbers(sheet, table, headerRow)
  fitColumns(sheet, sentences)
  setUpPrinting(sheet, headerRow)
}

/** Text right of a column of numbers would touch them (right-aligned): set it one step in. */
function indentTextAfterNumbers(sheet: ExcelJS.Worksheet, table: Table, headerRow: number): void {
  table.columns.forEach((column, c) => {
    const before = table.columns[c - 1]
    if (!before || formatOf(before, 0) === 'text' || formatOf(column, 0) !== 'text') return
    // The notes under the table too, so that what they put in these columns lines up.
    for (let r = headerRow; r <= sheet.rowCount; r++) {
      const cell = sheet.getCell(r, c + 1)
      if (typeof cell.value === 'string')
        cell.alignment = { ...cell.alignment, horizontal: 'left', indent: 1 }
    }
  })
}

/** The notes under the table after a blank row; a lone cell is a sentence. */
function writeNotes(sheet: ExcelJS.Worksheet, table: Table, from: number, sentences: Sentences) {
  const notes = table.rows.length === 0 ? [[table.empty], ...table.notes] : table.notes
  notes.forEach((note, i) => {
    const row = from + i
    note.forEach((value, c) => {
      writeCell(sheet.getCell(row, c + 1), value, noteFormat(value))
    })
    if (note.length === 1) {
      sentences.add(row)
      sheet.getCell(row, 1).font = font({ italic: true })
    } else {
      sheet.getCell(row, 1).font = font({ bold: true })
    }
  })
}

function formatOf(column: Column | undefined, row: number): Format {
  if (!column) return 'text'
  return typeof column.format === 'function' ? column.format(row) : column.format
}

function noteFormat(value: Cell): Format {
  return typeof value === 'number' && !Number.isInteger(value) ? 'measure' : 'count'
}

/** Strings go in as text (ExcelJS writes a formula only when given one); numbers as numbers. */
function writeCell(cell: ExcelJS.Cell, value: Cell, format: Format): void {
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
function fitColumns(sheet: ExcelJS.Worksheet, sentences: Sentences): void {
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

const SHOWN = {
  '#,##0': new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }),
  '#,##0.00': new Intl.NumberFormat('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }),
  [SMALL_MEASURE]: new Intl.NumberFormat('en-US', {
    notation: 'scientific',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }),
} as Record<string, Intl.NumberFormat>

/** How many characters the cell takes: its longest line, or its number as formatted, and its indent. */
function shownLength(cell: ExcelJS.Cell): number {
  const indent = 2 * (cell.alignment?.indent ?? 0)
  return indent + shownText(cell)
}

function shownText(cell: ExcelJS.Cell): number {
  const { value } = cell
  if (typeof value === 'number')
    return (SHOWN[cell.numFmt] ?? SHOWN['#,##0.00']).format(value).length
  if (value instanceof Date) return DATE_FORMAT.length
  return Math.max(
    ...String(value ?? '')
      .split('\n')
      .map((line) => line.length),
  )
}

/** Printed (and converted to PDF) a page wide, the header repeated on every page. */
function setUpPrinting(sheet: ExcelJS.Worksheet, headerRow: number): void {
  const width = (sheet.columns ?? []).reduce((sum, column) => sum + (column.width ?? MIN_WIDTH), 0)
  sheet.pageSetup = {
    ...sheet.pageSetup,
    orientation: width > 100 ? 'landscape' : 'portrait',
    fitToPage: true,
    fitToWidth: 1,
    fitToHeight: 0,
    printTitlesRow: `${headerRow}:${headerRow}`,
  }
}
