import type { TableKind } from '../api/rules-api'
import { TABLE_COLUMNS } from './table-columns'

/** What a file's ignore cell says yes with, as the server reads it. */
const YES = new Set(['yes', 'y', 'true', '1', 'x'])

/**
 * Cell texts (in the table's column order) as the editor's rows, saved versions and files are
 * compared: trimmed, the match in lower case, a rate as its number (`95.00` is `95`), ignore as
 * `yes` or empty. `decimalComma`: a rate's comma is its decimal mark (a `;`-separated CSV).
 */
export function comparableTexts(table: TableKind, texts: string[], decimalComma = false): string[] {
  const columns: readonly string[] = TABLE_COLUMNS[table]
  return texts.map((raw, i) => {
    const text = raw.trim()
    switch (columns[i]) {
      case 'match':
        return text.toLowerCase()
      case 'rate':
        return rateText(text, decimalComma)
      case 'ignore':
        return YES.has(text.toLowerCase()) ? 'yes' : ''
      default:
        return text
    }
  })
}

/** A rate's number as text, when it reads as one (`£1,234.50` is `1234.5`); else as it is. */
function rateText(text: string, decimalComma: boolean): string {
  const bare = text.replace(/^[£$€]\s*/u, '')
  const plain = decimalComma
    ? bare.replace(/[. ]/g, '').replace(',', '.')
    : bare.replace(/,(?=\d{3}(\D|$))/g, '')
  const value = Number(plain)
  return plain !== '' && Number.isFinite(value) ? String(value) : text
}

/** An editor's row as texts: the rules' and the classification's rows key their cells by column. */
export function editorRowTexts(table: TableKind, row: object): string[] {
  const cells = row as Record<string, unknown>
  return comparableTexts(
    table,
    TABLE_COLUMNS[table].map((column) => {
      const value = cells[column]
      if (typeof value === 'boolean') return value ? 'yes' : ''
      return typeof value === 'string' ? value : ''
    }),
  )
}
