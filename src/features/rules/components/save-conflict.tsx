import { SaveConflictFrame } from '../../../components/saved-document/save-conflict-frame'
import { rowsOf, type TableKind, type TableRow } from '../api/rules-api'
import { rowChanges } from '../utils/row-changes'
import type { Conflict } from '../utils/rules-editor-state'
import { rowTexts } from '../utils/table-columns'
import { RowChangesList } from './row-changes-list'

/** What a colleague saved, in a sentence. */
const SAVED_SINCE = {
  rules: 'Someone saved these rules since you opened them.',
  classification: 'Someone saved this classification since you opened it.',
  locations: 'Someone saved these locations since you opened them.',
} as const

/** How many of their changed rows are listed. */
const LISTED = 20

/**
 * A save refused because a colleague saved first: what they changed, row by row, against the
 * version the table started from; then take theirs, or save mine over them.
 */
export function SaveConflict<T extends TableKind>({
  table,
  conflict,
  base,
  busy,
  onReload,
  onKeep,
}: {
  table: T
  conflict: Conflict<T>
  /** The rows of the version the table started from. */
  base: TableRow[T][]
  busy: boolean
  onReload(): void
  onKeep(): void
}) {
  return (
    <SaveConflictFrame
      savedSince={SAVED_SINCE[table]}
      reason={conflict.reason}
      theirs={conflict.theirs}
      changes={(document) => (
        <TheirChanges table={table} base={base} theirs={rowsOf(table, document)} />
      )}
      mine="table"
      busy={busy}
      onReload={onReload}
      onKeep={onKeep}
    />
  )
}

function TheirChanges<T extends TableKind>({
  table,
  base,
  theirs,
}: {
  table: T
  base: TableRow[T][]
  theirs: TableRow[T][]
}) {
  const texts = (rows: TableRow[T][]) => rows.map((row) => rowTexts(table, row))
  const changes = rowChanges(texts(base), texts(theirs))
  if (changes.length === 0) {
    return <p className="text-slate-600">Their version has the same rows as the one you opened.</p>
  }
  return (
    <div className="flex flex-col gap-1">
      <p className="text-slate-700">Their changes, against the version you opened:</p>
      <RowChangesList table={table} changes={changes} label="Their changes" limit={LISTED} />
    </div>
  )
}
