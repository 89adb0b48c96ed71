import ExcelJS from 'exceljs'
import { MAX_RULE_ROWS } from '#contract/takeoff-rules.ts'
import { RulesError } from './errors.ts'
import {
  fail,
  LAST_SHEET_ROW,
  MAX_TABLE_COLUMNS,
  MAX_UNPACKED_XLSX_BYTES,
  tooWide,
} from './table-limits.ts'
import { storedZipStream, type ZipEntry, type ZipPart, zipEntries } from './zip-entries.ts'

/** A row of a sheet as read: its number as the person sees it, and its cells' text from column A. */
export type SheetLine = { row: number; cells: string[] }

/** What the streaming reader tells of the sheets it reads (its types leave it out). */
type StreamedSheet = AsyncIterable<ExcelJS.Row> & { name?: string }
type StreamedBook = AsyncIterable<StreamedSheet> & { model?: { sheets?: { name?: string }[] } }

const SHEET_FILE = /^xl\/worksheets\/sheet\d+\.xml$/

/**
 * The rows of a workbook's sheet (the one named `preferred`, else the first), read as the file
 * unpacks: a row past the last one a table may have, or text past its last column, stops the
 * reading there. Nothing of the workbook is held but the shared strings and the row being read.
 */
export async function* xlsxLines(
  bytes: Uint8Array,
  preferred: string,
): AsyncGenerator<SheetLine, void, undefined> {
  const entries = zipEntries(bytes)
  if (!entries) fail('the file is not an XLSX workbook')
  if (entries.reduce((sum, e) => sum + e.size, 0) > MAX_UNPACKED_XLSX_BYTES) {
    fail('the workbook unpacks to more than a rules table can be')
  }
  const { stream, damage, damaged } = storedZipStream(bytes, readingOrder(entries))
  const book = new ExcelJS.stream.xlsx.WorkbookReader(stream, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'ignore',
    hyperlinks: 'ignore',
    entries: 'ignore',
  }) as unknown as StreamedBook
  try {
    for await (const sheet of until(book, damaged)) {
      if (sheet.name !== chosenSheet(book, preferred, sheet.name)) continue
      let last = 0
      for await (const row of until(sheet, damaged)) {
        const number = Number.isInteger(row.number) ? row.number : last + 1
        if (number <= last)
          fail(`the sheet's rows are out of order (row ${number} after row ${last})`)
        if (number > LAST_SHEET_ROW) {
          fail(
            `the sheet goes on past row ${LAST_SHEET_ROW.toLocaleString('en')}; at most ${MAX_RULE_ROWS.toLocaleString('en')} rows are read`,
          )
        }
        last = number
        yield { row: number, cells: cellsOf(row, number) }
      }
      // A part cut short ends its sheet early: what was read of it is not the sheet.
      if (!damage()) return
      break
    }
  } catch (error) {
    if (error instanceof RulesError) throw error
    fail(`the XLSX workbook cannot be read: ${damage() ?? (error as Error).message}`)
  } finally {
    stream.destroy()
  }
  const why = damage()
  fail(why ? `the XLSX workbook cannot be read: ${why}` : 'the workbook has no sheet')
}

/**
 * What `items` gives until `stop` resolves: the reader of a workbook cut short may wait for the
 * rest of it for good, so reading ends as soon as the cut is known.
 */
async function* until<T>(items: AsyncIterable<T>, stop: Promise<void>): AsyncGenerator<T> {
  const iterator = items[Symbol.asyncIterator]()
  const stopped = stop.then((): typeof STOPPED => STOPPED)
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), stopped])
      if (next === STOPPED || next.done) return
      yield next.value
    }
  } finally {
    void iterator.return?.()
  }
}

const STOPPED: unique symbol = Symbol('stopped')

/**
 * The parts the reader needs, in the order it needs them: the workbook (the sheets' names) and
 * the shared strings before any sheet, so that a sheet is read as it unpacks (the reader would
 * otherwise copy each sheet to a temporary file first). Styles, pictures and the rest are left.
 */
function readingOrder(entries: ZipEntry[]): ZipPart[] {
  const named = (name: string) => entries.find((e) => e.name === name)
  const rels = named('xl/_rels/workbook.xml.rels')
  const workbook = named('xl/workbook.xml')
  const sheets = entries.filter((e) => SHEET_FILE.test(e.name))
  if (!rels || !workbook || sheets.length === 0) fail('the workbook has no sheet')
  const strings = named('xl/sharedStrings.xml') ?? {
    name: 'xl/sharedStrings.xml',
    text: '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>',
  }
  return [rels, workbook, strings, ...sheets]
}

/** The sheet named `preferred` (any case), else the workbook's first sheet. */
function chosenSheet(book: StreamedBook, preferred: string, fallback: string | undefined) {
  const names = (book.model?.sheets ?? []).map((s) => s.name ?? '')
  return names.find((name) => name.trim().toLowerCase() === preferred) ?? names[0] ?? fallback
}

function cellsOf(row: ExcelJS.Row, number: number): string[] {
  const cells: string[] = []
  row.eachCell((cell, column) => {
    const text = cellText(cell)
    if (column <= MAX_TABLE_COLUMNS) cells[column - 1] = text
    else if (text.trim() !== '') tooWide(number)
  })
  return Array.from(cells, (c) => c ?? '')
}

/** A cell as the person reads it: a formula's result, rich text's characters, TRUE as yes. */
function cellText(cell: ExcelJS.Cell): string {
  const value = cell.value
  if (value === null || value === undefined) return ''
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  if (typeof value === 'object' && 'result' in value) {
    const result = value.result
    if (typeof result === 'boolean') return result ? 'yes' : 'no'
    return result === undefined || result === null ? '' : String(result)
  }
  try {
    return cell.text ?? ''
  } catch {
    return ''
  }
}
