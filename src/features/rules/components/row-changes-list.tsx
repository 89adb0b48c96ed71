import type { TableKind } from '../api/rules-api'
import type { RowChange } from '../utils/row-changes'
import { COLUMN_LABELS, TABLE_COLUMNS, type TableColumn } from '../utils/table-columns'

/**
 * Changes between two versions of a table, one line per row: "Row 3 changed: Rate 450 → 500",
 * "Row 13 added: …", "Row 4 removed: …"; past `limit` lines, how many more.
 */
export function RowChangesList({
  table,
  changes,
  label,
  limit,
}: {
  table: TableKind
  changes: RowChange[]
  /** The list's accessible name. */
  label: string
  limit: number
}) {
  const columns: readonly TableColumn[] = TABLE_COLUMNS[table]
  const name = (column: number) => {
    const key = columns[column]
    return key ? COLUMN_LABELS[key] : `Column ${column + 1}`
  }
  const shown = changes.slice(0, limit)
  return (
    <>
      <ul aria-label={label} className="flex flex-col gap-0.5 text-slate-800">
        {shown.map((change) => (
          <li key={`${change.kind}:${change.row}`}>
            <span className="font-medium">
              Row {change.row} {change.kind}:
            </span>{' '}
            {change.kind === 'changed'
              ? change.cells
                  .map(
                    (cell) => `${name(cell.column)} ${quoted(cell.before)} → ${quoted(cell.after)}`,
                  )
                  .join('; ')
              : change.cells
                  .map((text, column) => (text ? `${name(column)} ${text}` : ''))
                  .filter(Boolean)
                  .join('; ')}
          </li>
        ))}
      </ul>
      {changes.length > shown.length ? (
        <p className="text-slate-600">and {changes.length - shown.length} more rows.</p>
      ) : null}
    </>
  )
}

/** A cell's text in a sentence: an empty one is a dash. */
const quoted = (text: string) => (text === '' ? '—' : `‘${text}’`)
