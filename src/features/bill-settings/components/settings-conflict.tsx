import { SaveConflictFrame } from '../../../components/saved-document/save-conflict-frame'
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
  return (
    <SaveConflictFrame
      savedSince="Someone saved these settings since you opened them."
      reason={conflict.reason}
      theirs={conflict.theirs}
      changes={(document) => <TheirChanges base={base} theirs={document.settings} />}
      mine="settings"
      busy={busy}
      onReload={onReload}
      onKeep={onKeep}
    />
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
