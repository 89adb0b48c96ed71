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
  const { reason, theirs } = conflict
  return (
    <div
      role="alert"
      className="flex flex-col gap-2 rounded border border-amber-400 bg-amber-50 p-3 text-sm"
    >
      <p className="font-semibold">{SAVED_SINCE[table]}</p>
      {reason ? <p className="text-slate-700">{reason}</p> : null}
      {theirs.status === 'reading' ? (
        <p className="text-slate-600">Reading what they changed…</p>
      ) : theirs.status === 'failed' ? (
        <p className="text-red-700">What they changed cannot be shown: {theirs.reason}</p>
      ) : (
        <TheirChanges table={table} base={base} theirs={rowsOf(table, theirs.document)} />
      )}
      <p className="flex gap-2">
        <button
          type="button"
          disabled={busy}
          onClick={onReload}
          className="rounded border border-slate-400 px-3 py-1 hover:bg-white"
        >
          Reload theirs
        </button>
        <button
          type="button"
          disabled={busy}
          onClick={onKeep}
          className="rounded border border-slate-400 px-3 py-1 hover:bg-white"
        >
          Keep mine
        </button>
      </p>
      <p className="text-xs text-slate-600">
        Reload theirs drops your changes. Keep mine saves your table as the version after theirs, in
        place of their changes above.
      </p>
    </div>
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
