import { parse } from 'csv-parse/browser/esm/sync'
import { MAX_RULES_FILE_BYTES } from '#contract/takeoff-rules.ts'
import type { TableKind } from '../api/rules-api'
import { TABLE_COLUMNS } from './table-columns'
import { comparableTexts } from './table-texts'
import { xlsxSheetRows } from './xlsx-sheet'

/** Other names a file's header may give a column. */
const ALIASES: Record<string, string> = { description: 'title' }

/**
 * The rows a CSV or XLSX file holds, read in the browser for the import's question (how many
 * rows, which differ from the table): each as its cells' texts in the table's column order, as
 * comparable with the table's own. Only a reading: the server reads and checks the file when it
 * is saved, and says what is wrong with it.
 */
export async function readTableFile(table: TableKind, file: File): Promise<string[][]> {
  if (file.size > MAX_RULES_FILE_BYTES) {
    throw new Error(`the file is larger than ${MAX_RULES_FILE_BYTES / 1024 / 1024} MB`)
  }
  const bytes = new Uint8Array(await file.arrayBuffer())
  const { lines, decimalComma } = /\.xlsx$/i.test(file.name)
    ? { lines: await xlsxSheetRows(bytes, table), decimalComma: false }
    : csvLines(bytes)
  const [header = [], ...rows] = lines
  const names = header.map((name) => {
    const lower = name.trim().toLowerCase()
    return ALIASES[lower] && table === 'classification' ? ALIASES[lower] : lower
  })
  const columns: readonly string[] = TABLE_COLUMNS[table]
  return rows
    .filter((cells) => cells.some((cell) => cell.trim() !== ''))
    .map((cells) => {
      const byName = new Map<string, string>()
      cells.forEach((cell, i) => {
        const name = names[i]
        if (name && !byName.get(name)) byName.set(name, cell.trim())
      })
      return comparableTexts(
        table,
        // Headers are read in lower case: `labelLayer` comes as `labellayer`.
        columns.map((column) => byName.get(column.toLowerCase()) ?? ''),
        decimalComma,
      )
    })
}

/**
 * A CSV's records: UTF-8 or Windows-1252, separated by what its header line uses most (`;`: a
 * decimal comma), without the quote an export puts before text a spreadsheet would run.
 */
function csvLines(bytes: Uint8Array): { lines: string[][]; decimalComma: boolean } {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    text = new TextDecoder('windows-1252').decode(bytes)
  }
  const header = text.slice(0, text.search(/\r?\n|$/))
  const delimiter = [',', ';', '\t'].reduce((best, next) =>
    header.split(next).length > header.split(best).length ? next : best,
  )
  const records: string[][] = parse(text, {
    delimiter,
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
  })
  const lines = records.map((cells) =>
    cells.map((cell) => (/^'[=+\-@\t\r']/.test(cell) ? cell.slice(1) : cell)),
  )
  return { lines, decimalComma: delimiter === ';' }
}
