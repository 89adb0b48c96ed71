import type { BillSettings } from '../api/bill-settings-api'
import type { Conflict } from '../utils/settings-editor-state'
import { settingChanges } from '../utils/settings-lines'

/**
 * A save refused because a colleague saved first: what they changed, setting by setting,
 * against the version the page started from; then take theirs, or save mine over them.
 */
export function SettingsConflict({
  conflict,
  base,
  busy,
  onReload,
  onKeep,
}: {
  conflict: Conflict
  /** The settings of the version the page started from. */
  base: BillSettings
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
      <p className="font-semibold">Someone saved these settings since you opened them.</p>
      {reason ? <p className="text-slate-700">{reason}</p> : null}
      {theirs.status === 'reading' ? (
        <p className="text-slate-600">Reading what they changed…</p>
      ) : theirs.status === 'failed' ? (
        <p className="text-red-700">What they changed cannot be shown: {theirs.reason}</p>
      ) : (
        <TheirChanges base={base} theirs={theirs.document.settings} />
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
        Reload theirs drops your changes. Keep mine saves your settings as the version after theirs,
        in place of their changes above.
      </p>
    </div>
  )
}

function TheirChanges({ base, theirs }: { base: BillSettings; theirs: BillSettings }) {
  const changes = settingChanges(base, theirs)
  if (changes.length === 0) {
    return <p className="text-slate-600">Their version says the same as the one you opened.</p>
  }
  return (
    <div className="flex flex-col gap-1">
      <p className="text-slate-700">Their changes, against the version you opened:</p>
      <ul aria-label="Their changes" className="list-disc pl-5">
        {changes.map((change) => (
          <li key={change.label}>
            {change.before === null
              ? `${change.label} added: ${change.after}`
              : change.after === null
                ? `${change.label} removed (was ${change.before})`
                : `${change.label}: ${change.before} → ${change.after}`}
          </li>
        ))}
      </ul>
    </div>
  )
}
