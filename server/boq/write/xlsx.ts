import ExcelJS from 'exceljs'
import { groupsOf } from '#contract/bill-groups.ts'
import type { ChangeBill } from '#contract/compare.ts'
import type { Boq } from '../model/schema.ts'
import { changesTable, describeCompared } from './change-rows.ts'
import { locationTables } from './location-rows.ts'
import { PRICED_SHEET, rulesTable } from './priced-rows.ts'
import { fitted, provenance, sheetTables } from './rows.ts'
import type { Cell, Column, Format, Table } from './table.ts'
import {
  DATE_FORMAT,
  fitColumns,
  font,
  type Sentences,
  setFooter,
  setUpPrinting,
  writeCell,
} from './xlsx-cells.ts'
import { writeItemChanges } from './xlsx-changes.ts'
import { totalsAsFormulas } from './xlsx-locations.ts'
import { outlineRows } from './xlsx-outline.ts'
import { writePricedSheet } from './xlsx-priced.ts'

export type XlsxOptions = {
  /** When the workbook is written (its properties and the bill's provenance); now by default. */
  created?: Date
  /** The change bill against an earlier version: a Changes sheet after the Bill. */
  changes?: ChangeBill
  /** The drawing's version in the cloud, for the priced bill's header; unknown by default. */
  drawingVersion?: number | null
}

/**
 * The priced bill first when takeoff rules priced it, then the measured bill (provenance above
 * it, what a reader must know below it), one sheet per table it is drawn from, and the rules
 * used. Numbers stay numbers at full precision, shown through number formats;
 * text is always text (never a formula) and cut to what a cell holds.
 */
export async function toXlsx(boq: Boq, options: XlsxOptions = {}): Promise<Uint8Array> {
  const created = options.created ?? new Date()
  const book = new ExcelJS.Workbook()
  describeBook(book, boq, created)
  const [bill, ...others] = sheetTables(boq)
  if (boq.priced) {
    writePricedSheet(book.addWorksheet(PRICED_SHEET), boq.priced, {
      fileName: boq.source.fileName,
      groups: groupsOf(boq),
      provenance: provenance(boq, created),
      drawingVersion: options.drawingVersion ?? null,
    })
  }
  writeBillSheet(book.addWorksheet(bill.name), bill, boq, created)
  if (options.changes) writeChangesSheet(book, options.changes)
  for (const table of others) writeTableSheet(book.addWorksheet(table.name), table, 1)
  const [byLocation, rooms] = locationTables(boq)
  if (byLocation && rooms) {
    const sheet = book.addWorksheet(byLocation.name)
    writeTableSheet(sheet, byLocation, 1)
    totalsAsFormulas(sheet, byLocation, 1)
    writeTableSheet(book.addWorksheet(rooms.name), rooms, 1)
  }
  // Its header on the first row, as a rules file has it: the workbook reads back as its rules.
  if (boq.priced) {
    const rules = rulesTable(boq.priced.rules)
    writeTableSheet(book.addWorksheet(rules.name), rules, 1)
  }
  for (const sheet of book.worksheets)
    if (sheet.name !== PRICED_SHEET) setFooter(sheet, fitted(boq.source.fileName))
  return written(book)
}

/** A change bill on its own: one Changes sheet, what was compared under it. */
export async function changeBillXlsx(changes: ChangeBill): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook()
  book.creator = 'BOQ'
  book.title = `Changes: ${changes.from.fileName} → ${changes.to.fileName}`
  writeChangesSheet(book, changes)
  return written(book)
}

/**
 * The Changes sheet: its title (which two bills), the measured lines as a table, then the priced
 * items when both bills are.
 */
function writeChangesSheet(book: ExcelJS.Workbook, changes: ChangeBill): void {
  const table = changesTable(changes)
  const sheet = book.addWorksheet(table.name)
  const title = sheet.getCell(1, 1)
  title.value = fitted(
    `Change bill: ${describeCompared(changes.from)} → ${describeCompared(changes.to)}`,
  )
  title.font = font({ bold: true, size: 14 })
  // A blank row between the title and the table's header.
  writeTableSheet(sheet, table, 3, new Set([1]), (sheet, next, sentences) =>
    writeItemChanges(sheet, next, changes, sentences),
  )
  setFooter(sheet, fitted(changes.to.fileName))
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

/**
 * A table from `headerRow` down: bold frozen header, a filter over the table alone, notes under
 * it, then what `below` writes from the row it is given (after a blank row), laid out with it.
 */
function writeTableSheet(
  sheet: ExcelJS.Worksheet,
  table: Table,
  headerRow: number,
  sentences: Sentences = new Set(),
  below?: (sheet: ExcelJS.Worksheet, from: number, sentences: Sentences) => void,
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
  // A group's rows under its line: their description (the second column) a step in.
  outlineRows(sheet, headerRow + 1, table.levels, 2)
  const lastRow = headerRow + table.rows.length
  sheet.views = [{ state: 'frozen', ySplit: headerRow }]
  sheet.autoFilter = {
    from: { row: headerRow, column: 1 },
    to: { row: lastRow, column: table.columns.length },
  }
  writeNotes(sheet, table, lastRow + 2, sentences)
  indentTextAfterNumbers(sheet, table, headerRow)
  // After the indents, which are the table's columns' alone.
  below?.(sheet, sheet.rowCount + 2, sentences)
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
