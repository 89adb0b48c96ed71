import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import { MAX_RULE_ROWS, MAX_RULES_FILE_BYTES } from '../../../contract/takeoff-rules.ts'
import { type RuleProblem, RulesError } from './errors.ts'
import { unpackedSize } from './zip-size.ts'

/**
 * A rules or classification table from a CSV, XLSX or JSON file: its rows as text cells by
 * column name (lower case), each with the row number a person sees (the header is row 1 of a
 * sheet; in JSON, the first entry is row 1). Blank rows are skipped, keeping the numbers.
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

/** Unpacked, a workbook of 10,000 rows of rules stays well under this. */
const MAX_UNPACKED_XLSX_BYTES = 64 * 1024 * 1024

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
  let decimalComma = false
  let rows: TableRow[]
  if (format === 'json') rows = jsonRows(bytes, shape)
  else if (format === 'xlsx') rows = sheetRows(await xlsxGrid(bytes, shape.sheet), shape)
  else {
    const text = decodeText(bytes)
    const delimiter = delimiterOf(text)
    decimalComma = delimiter === ';'
    rows = sheetRows(csvGrid(text, delimiter), shape)
  }
  if (rows.length > MAX_RULE_ROWS) {
    fail(
      `the file has ${rows.length.toLocaleString('en')} rows; at most ${MAX_RULE_ROWS.toLocaleString('en')} are read`,
    )
  }
  return { rows, decimalComma }
}

function fail(message: string, row?: number): never {
  throw new RulesError([{ row, message }])
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

function csvGrid(text: string, delimiter: string): string[][] {
  let grid: string[][]
  try {
    grid = parse(text, {
      delimiter,
      bom: true,
      relax_column_count: true,
      skip_empty_lines: false,
    }) as string[][]
  } catch (error) {
    return fail(`the CSV cannot be read: ${(error as Error).message}`)
  }
  return grid.map((line) => line.map(unguarded))
}

/**
 * A CSV cell's text without the quote an export puts before text a spreadsheet would run as a
 * formula (`'=length*2`), or before text that starts with a quote itself (`''…`).
 */
function unguarded(cell: string): string {
  return /^'[=+\-@\t\r']/.test(cell) ? cell.slice(1) : cell
}

async function xlsxGrid(bytes: Uint8Array, preferred: string): Promise<string[][]> {
  const size = unpackedSize(bytes)
  if (size === null) fail('the file is not an XLSX workbook')
  if (size > MAX_UNPACKED_XLSX_BYTES) fail('the workbook unpacks to more than a rules table can be')
  const workbook = new ExcelJS.Workbook()
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer)
  } catch (error) {
    fail(`the XLSX workbook cannot be read: ${(error as Error).message}`)
  }
  const sheet =
    workbook.worksheets.find((s) => s.name.trim().toLowerCase() === preferred) ??
    workbook.worksheets[0]
  if (!sheet) fail('the workbook has no sheet')
  if (sheet.rowCount > MAX_RULE_ROWS + 1) {
    fail(
      `the sheet has ${sheet.rowCount.toLocaleString('en')} rows; at most ${MAX_RULE_ROWS.toLocaleString('en')} are read`,
    )
  }
  const grid: string[][] = []
  sheet.eachRow({ includeEmpty: true }, (row, number) => {
    const cells: string[] = []
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      cells[column - 1] = cellText(cell)
    })
    grid[number - 1] = Array.from(cells, (c) => c ?? '')
  })
  return Array.from(grid, (row) => row ?? [])
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

/** A sheet's first row names the columns; every later row that is not blank is a row. */
function sheetRows(grid: string[][], shape: TableShape): TableRow[] {
  const header = (grid[0] ?? []).map((name) => name.trim().toLowerCase())
  if (header.every((name) => name === '')) fail('the first row must name the columns', 1)
  const problems: RuleProblem[] = []
  header.forEach((name, i) => {
    if (name && !shape.columns.includes(name))
      problems.push({ row: 1, message: unknownColumn(name, shape) })
    else if (name && header.indexOf(name) !== i)
      problems.push({ row: 1, message: `the column '${name}' is there twice` })
  })
  if (problems.length > 0) throw new RulesError(problems)
  const rows: TableRow[] = []
  for (let r = 1; r < grid.length; r++) {
    const line = grid[r]
    if (line.every((cell) => cell.trim() === '')) continue
    const cells: Record<string, string> = {}
    line.forEach((cell, i) => {
      const name = header[i]
      if (name) cells[name] = cell.trim()
      else if (cell.trim() !== '')
        problems.push({ row: r + 1, message: `column ${i + 1} has no name` })
    })
    rows.push({ row: r + 1, cells })
  }
  if (problems.length > 0) throw new RulesError(problems)
  return rows
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
