import { parse } from 'csv-parse/sync'
import { MAX_RULE_ROWS, MAX_RULES_FILE_BYTES } from '#contract/takeoff-rules.ts'
import { type RuleProblem, RulesError } from './errors.ts'
import { fail, MAX_TABLE_COLUMNS, tooManyRows, tooWide } from './table-limits.ts'
import { type SheetLine, xlsxLines } from './xlsx-lines.ts'

/**
 * A rules or classification table from a CSV, XLSX or JSON file: its rows as text cells by
 * column name (lower case), each with the row number a person sees (the header is row 1 of a
 * sheet; in JSON, the first entry is row 1). Blank rows are skipped, keeping the numbers. A sheet
 * or a CSV is taken row by row as it is read, and its reading stops at the first bound it passes.
 */

export const TABLE_FORMATS = ['csv', 'xlsx', 'json'] as const
export type TableFormat = (typeof TABLE_FORMATS)[number]

export type TableRow = { row: number; cells: Record<string, string> }

/** The rows, and whether numbers in text cells have a decimal comma (a `;`-separated CSV). */
export type Table = { rows: TableRow[]; decimalComma: boolean }

export type TableShape = {
  /** The columns a row may have, lower case. */
  columns: readonly string[]
  /** JSON: the key of the list in an object (`{"rules": [...]}`); a bare list is taken too. */
  listKey: string
  /** XLSX: the sheet to read when the workbook has one of that name; else the first. */
  sheet: string
}

export async function readTable(
  bytes: Uint8Array,
  format: TableFormat,
  shape: TableShape,
): Promise<Table> {
  if (bytes.length > MAX_RULES_FILE_BYTES) {
    fail(
      `the file is ${(bytes.length / 1024 / 1024).toFixed(1)} MB; at most ${MAX_RULES_FILE_BYTES / 1024 / 1024} MB is read`,
    )
  }
  if (format === 'json') {
    const rows = jsonRows(bytes, shape)
    if (rows.length > MAX_RULE_ROWS) {
      fail(
        `the file has ${rows.length.toLocaleString('en')} rows; at most ${MAX_RULE_ROWS.toLocaleString('en')} are read`,
      )
    }
    return { rows, decimalComma: false }
  }
  const sheet = sheetRows(shape)
  if (format === 'xlsx') {
    for await (const line of xlsxLines(bytes, shape.sheet)) sheet.take(line)
    return { rows: sheet.rows(), decimalComma: false }
  }
  const text = decodeText(bytes)
  const delimiter = delimiterOf(text)
  csvLines(text, delimiter, (line) => sheet.take(line))
  return { rows: sheet.rows(), decimalComma: delimiter === ';' }
}

/** UTF-8, or the Windows code page Excel writes "CSV (Comma delimited)" in. */
function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return new TextDecoder('windows-1252').decode(bytes)
  }
}

/** Excel writes `;` where the decimal mark is a comma: the header line says which. */
function delimiterOf(text: string): string {
  const header = text.slice(0, text.search(/\r?\n|$/))
  const counts = [',', ';', '\t'].map((d) => [d, header.split(d).length] as const)
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0]
}

/** Each record of the CSV given to `take` as it is read; `take` may stop the reading by throwing. */
function csvLines(text: string, delimiter: string, take: (line: SheetLine) => void): void {
  let row = 0
  try {
    parse(text, {
      delimiter,
      bom: true,
      relax_column_count: true,
      skip_empty_lines: false,
      on_record: (record: string[]) => {
        take({ row: ++row, cells: record.map(unguarded) })
        return null
      },
    })
  } catch (error) {
    if (error instanceof RulesError) throw error
    fail(`the CSV cannot be read: ${(error as Error).message}`)
  }
}

/**
 * A CSV cell's text without the quote an export puts before text a spreadsheet would run as a
 * formula (`'=length*2`), or before text that starts with a quote itself (`''…`).
 */
function unguarded(cell: string): string {
  return /^'[=+\-@\t\r']/.test(cell) ? cell.slice(1) : cell
}

/**
 * A sheet's rows taken one at a time: its first row names the columns, and every later row that
 * is not blank is a row. Past the rows a table may have, or with text past its last column, the
 * taking stops (a RulesError); other problems are all told once every row is taken.
 */
function sheetRows(shape: TableShape): { take(line: SheetLine): void; rows(): TableRow[] } {
  let header: string[] | undefined
  const rows: TableRow[] = []
  const problems: RuleProblem[] = []
  const headerOf = (line: SheetLine | undefined): string[] => {
    const names = line?.row === 1 ? line.cells.map((name) => name.trim().toLowerCase()) : []
    if (names.every((name) => name === '')) fail('the first row must name the columns', 1)
    names.forEach((name, i) => {
      if (name && !shape.columns.includes(name))
        problems.push({ row: 1, message: unknownColumn(name, shape) })
      else if (name && names.indexOf(name) !== i)
        problems.push({ row: 1, message: `the column '${name}' is there twice` })
    })
    if (problems.length > 0) throw new RulesError(problems)
    return names
  }
  return {
    take(line) {
      if (line.cells.length > MAX_TABLE_COLUMNS) {
        if (line.cells.slice(MAX_TABLE_COLUMNS).some((cell) => cell.trim() !== ''))
          tooWide(line.row)
        line.cells.length = MAX_TABLE_COLUMNS
      }
      if (!header) {
        header = headerOf(line)
        if (line.row === 1) return
      }
      if (line.cells.every((cell) => cell.trim() === '')) return
      if (rows.length === MAX_RULE_ROWS) tooManyRows()
      const cells: Record<string, string> = {}
      line.cells.forEach((cell, i) => {
        const name = header?.[i]
        if (name) cells[name] = cell.trim()
        else if (cell.trim() !== '')
          problems.push({ row: line.row, message: `column ${i + 1} has no name` })
      })
      rows.push({ row: line.row, cells })
    },
    rows() {
      header ??= headerOf(undefined)
      if (problems.length > 0) throw new RulesError(problems)
      return rows
    },
  }
}

function unknownColumn(name: string, shape: TableShape): string {
  return `unknown column '${name}' (the columns are ${shape.columns.join(', ')})`
}

function jsonRows(bytes: Uint8Array, shape: TableShape): TableRow[] {
  let data: unknown
  try {
    data = JSON.parse(decodeText(bytes))
  } catch (error) {
    fail(`the JSON cannot be read: ${(error as Error).message}`)
  }
  const list =
    data && typeof data === 'object' && !Array.isArray(data)
      ? (data as Record<string, unknown>)[shape.listKey]
      : data
  if (!Array.isArray(list)) fail(`the JSON must be a list of rows, or {"${shape.listKey}": [...]}`)
  const problems: RuleProblem[] = []
  const rows: TableRow[] = []
  list.forEach((entry: unknown, i) => {
    const row = i + 1
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
      problems.push({ row, message: 'a row must be an object of columns' })
      return
    }
    const cells: Record<string, string> = {}
    for (const [key, value] of Object.entries(entry)) {
      const name = key.trim().toLowerCase()
      if (!shape.columns.includes(name)) problems.push({ row, message: unknownColumn(name, shape) })
      else if (value === null || value === undefined) cells[name] = ''
      else if (typeof value === 'boolean') cells[name] = value ? 'yes' : 'no'
      else if (typeof value === 'number' || typeof value === 'string')
        cells[name] = String(value).trim()
      else problems.push({ row, message: `'${name}' must be text or a number` })
    }
    rows.push({ row, cells })
  })
  if (problems.length > 0) throw new RulesError(problems)
  return rows
}
