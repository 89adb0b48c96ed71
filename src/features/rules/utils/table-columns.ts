import { LOCATION_COLUMNS, type LocationRow } from '#contract/locations.ts'
import {
  type ClassificationEntry,
  RULE_COLUMNS,
  type TakeoffRule,
} from '#contract/takeoff-rules.ts'
import type { TableKind, TableRow } from '../api/rules-api'
import { ENTRY_COLUMNS } from './classification-rows'

/** Each table's columns, in the order files and screens show them. */
export const TABLE_COLUMNS = {
  rules: RULE_COLUMNS,
  classification: ENTRY_COLUMNS,
  locations: LOCATION_COLUMNS,
} as const

export type TableColumn =
  | (typeof RULE_COLUMNS)[number]
  | (typeof ENTRY_COLUMNS)[number]
  | (typeof LOCATION_COLUMNS)[number]

/** A column's header, as every table, notice and list of changes names it. */
export const COLUMN_LABELS: Record<TableColumn, string> = {
  match: 'Match',
  block: 'Block',
  layer: 'Layer',
  kind: 'Kind',
  attribute: 'Attribute',
  visibility: 'Visibility',
  zone: 'Zone',
  code: 'Code',
  description: 'Description',
  unit: 'Unit',
  quantity: 'Quantity',
  rate: 'Rate',
  ignore: 'Ignore',
  title: 'Title',
  parent: 'Parent',
  label: 'Label',
  labelLayer: 'Label layer',
}

/** The headers of a table's columns, in order. */
export const tableHeaders = (table: TableKind): string[] =>
  TABLE_COLUMNS[table].map((column) => COLUMN_LABELS[column])

/** A saved row's cells as text, in its table's column order (an empty cell is ''). */
export function rowTexts<T extends TableKind>(table: T, row: TableRow[T]): string[] {
  if (table === 'locations') {
    const location = row as LocationRow
    return [location.layer, location.label, location.labelLayer ?? '']
  }
  if (table === 'classification') {
    const entry = row as ClassificationEntry
    return [entry.code, entry.title, entry.parent ?? '']
  }
  const rule = row as TakeoffRule
  return RULE_COLUMNS.map((column) => {
    if (column === 'rate')
      return rule.rate === null || rule.rate === undefined ? '' : String(rule.rate)
    if (column === 'ignore') return rule.ignore ? 'yes' : ''
    return rule[column] ?? ''
  })
}
