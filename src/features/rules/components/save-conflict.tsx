import type { TableKind } from '../api/rules-api'

/** What a colleague saved, in a sentence. */
const SAVED_SINCE = {
  rules: 'Someone saved these rules since you opened them.',
  classification: 'Someone saved this classification since you opened it.',
} as const

/** A save refused because a colleague saved first: take theirs, or save mine over them. */
export function SaveConflict({
  table,
  reason,
  busy,
  onReload,
  onKeep,
}: {
  table: TableKind
  reason: string
  busy: boolean
  onReload(): void
  onKeep(): void
}) {
  return (
    <div
      role="alert"
      className="flex flex-col gap-2 rounded border border-amber-400 bg-amber-50 p-3 text-sm"
    >
      <p className="font-semibold">{SAVED_SINCE[table]}</p>
      {reason ? <p className="text-slate-700">{reason}</p> : null}
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
        Reload theirs drops your changes. Keep mine saves your table as the version after theirs.
      </p>
    </div>
  )
}
