import type { ReactNode } from 'react'

/** Their version as a refused save reads it: being read, unreadable, or read (`Document`). */
export type TheirVersion<Document> =
  | { status: 'reading' }
  | { status: 'failed'; reason: string }
  | { status: 'read'; document: Document }

/**
 * A save of a versioned document refused because a colleague saved first: who saved since (in
 * `savedSince`), the server's reason, what they changed (`changes`, once their version is read),
 * then take theirs or save mine over them (`mine` names what is saved: `table`, `settings`).
 */
export function SaveConflictFrame<Document>({
  savedSince,
  reason,
  theirs,
  changes,
  mine,
  busy,
  onReload,
  onKeep,
}: {
  savedSince: string
  reason: string
  theirs: TheirVersion<Document>
  changes(document: Document): ReactNode
  mine: string
  busy: boolean
  onReload(): void
  onKeep(): void
}) {
  return (
    <div
      role="alert"
      className="flex flex-col gap-2 rounded border border-amber-400 bg-amber-50 p-3 text-sm"
    >
      <p className="font-semibold">{savedSince}</p>
      {reason ? <p className="text-slate-700">{reason}</p> : null}
      {theirs.status === 'reading' ? (
        <p className="text-slate-600">Reading what they changed…</p>
      ) : theirs.status === 'failed' ? (
        <p className="text-red-700">What they changed cannot be shown: {theirs.reason}</p>
      ) : (
        changes(theirs.document)
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
        Reload theirs drops your changes. Keep mine saves your {mine} as the version after theirs,
        in place of their changes above.
      </p>
    </div>
  )
}
