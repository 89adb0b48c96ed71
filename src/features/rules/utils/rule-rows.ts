import {
  RULE_MATCHES,
  RULE_TEXT_COLUMNS,
  type RuleMatch,
  type TakeoffRule,
} from '#contract/takeoff-rules.ts'
import { nextRowId } from './table-rows'

/** The text cells of a rule, as the editor edits them. */
export const TEXT_COLUMNS = RULE_TEXT_COLUMNS
export type TextColumn = (typeof TEXT_COLUMNS)[number]

/** One row of the editor: every cell as typed; `id` keeps a row's identity while rows move. */
export type EditorRow = Record<TextColumn, string> & {
  id: number
  match: RuleMatch | ''
  rate: string
  ignore: boolean
}

/** A new row (empty unless told), with an id of its own. */
export function newRow(cells: Partial<Omit<EditorRow, 'id'>> = {}): EditorRow {
  const row: EditorRow = { id: nextRowId(), match: '', rate: '', ignore: false } as EditorRow
  for (const column of TEXT_COLUMNS) row[column] = ''
  return { ...row, ...cells }
}

export function fromRule(rule: TakeoffRule): EditorRow {
  const cells: Partial<EditorRow> = { match: rule.match, ignore: rule.ignore ?? false }
  for (const column of TEXT_COLUMNS) cells[column] = rule[column] ?? ''
  cells.rate = rule.rate === null || rule.rate === undefined ? '' : String(rule.rate)
  return newRow(cells)
}

/** The row as the API takes it: empty cells left out. Only for rows without client errors. */
export function toRule(row: EditorRow): TakeoffRule {
  const rule: TakeoffRule = { match: (row.match || 'count') as RuleMatch }
  for (const column of TEXT_COLUMNS) {
    const value = row[column].trim()
    if (value !== '') rule[column] = value
  }
  if (row.rate.trim() !== '') rule.rate = Number(row.rate)
  if (row.ignore) rule.ignore = true
  return rule
}

/** What is wrong with a row before the server is asked, or null. */
export function clientError(row: EditorRow): string | null {
  if (!RULE_MATCHES.includes(row.match as RuleMatch)) return 'Choose what the row matches.'
  if (row.rate.trim() !== '' && !Number.isFinite(Number(row.rate))) {
    return 'The rate must be a number.'
  }
  return null
}
