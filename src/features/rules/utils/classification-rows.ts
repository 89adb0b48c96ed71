import type { ClassificationEntry } from '#contract/takeoff-rules.ts'
import { nextRowId } from './table-rows'

/** One code of the classification as the editor edits it: every cell as typed. */
export type ClassificationRow = { id: number; code: string; title: string; parent: string }

/** The cells of a classification row, in the table's order. */
export const ENTRY_COLUMNS = ['code', 'title', 'parent'] as const

/** A new row (empty unless told), with an id of its own. */
export function newEntryRow(cells: Partial<Omit<ClassificationRow, 'id'>> = {}): ClassificationRow {
  return { id: nextRowId(), code: '', title: '', parent: '', ...cells }
}

export function fromEntry(entry: ClassificationEntry): ClassificationRow {
  return newEntryRow({ code: entry.code, title: entry.title, parent: entry.parent ?? '' })
}

/** The row as the API takes it: cells trimmed, an empty parent (the top level) left out. */
export function toEntry(row: ClassificationRow): ClassificationEntry {
  const parent = row.parent.trim()
  return { code: row.code.trim(), title: row.title.trim(), ...(parent ? { parent } : {}) }
}

/**
 * What is wrong with a row before the server is asked, or null: only what no table can have.
 * Codes given twice and parents that are no code of the table the server names by row.
 */
export function entryError(row: ClassificationRow): string | null {
  if (row.code.trim() === '') return 'Give the row a code.'
  if (row.title.trim() === '') return 'Give the code a title.'
  return null
}
