import { useQuery } from '@tanstack/react-query'
import { formatDateTime } from '../../../lib/format-date'
import { errorText } from '../../../lib/http-errors'
import { type BillSettings, billSettingsQueries } from '../api/bill-settings-api'
import { settingLines } from '../utils/settings-lines'
import { SettingLinesList } from './settings-lines-list'

/**
 * One saved version of the settings, opened from History: what it says, read-only, and Restore,
 * which saves it again as the next version (the version itself is kept as it was).
 */
export function SettingsVersion({
  projectId,
  version,
  current,
  dirty,
  busy,
  onRestore,
  onClose,
}: {
  projectId: string
  version: number
  /** The version the page started from: a restore is saved after it. */
  current: number
  /** The page has unsaved changes, which a restore drops. */
  dirty: boolean
  busy: boolean
  onRestore(settings: BillSettings): void
  onClose(): void
}) {
  const saved = useQuery(billSettingsQueries.version(projectId, version))
  return (
    <section
      aria-label={`Version ${version}`}
      className="flex flex-col gap-2 rounded border border-slate-300 bg-white p-3 text-sm"
    >
      <h2 className="font-semibold text-slate-800">
        Version {version}
        {saved.data ? (
          <span className="font-normal text-slate-600">
            , saved by {saved.data.savedBy ?? 'someone'}
            {saved.data.savedAt ? ` on ${formatDateTime(saved.data.savedAt)}` : ''} (read-only)
          </span>
        ) : null}
      </h2>
      {saved.isPending ? (
        <p className="text-slate-500">Loading version {version}…</p>
      ) : saved.isError ? (
        <p role="alert" className="text-red-700">
          Version {version} cannot be opened: {errorText(saved.error)}
        </p>
      ) : (
        <SettingLinesList
          label={`Version ${version} settings`}
          lines={settingLines(saved.data.settings)}
        />
      )}
      <p className="flex flex-wrap items-center gap-2">
        {saved.data && version !== current ? (
          <button
            type="button"
            disabled={busy}
            onClick={() => onRestore(saved.data.settings)}
            className="rounded border border-slate-400 px-3 py-1 hover:bg-slate-100 disabled:opacity-50"
          >
            Restore as version {current + 1}
          </button>
        ) : null}
        <button
          type="button"
          onClick={onClose}
          className="rounded border border-slate-400 px-3 py-1 hover:bg-slate-100"
        >
          Close
        </button>
        {saved.data && version !== current && dirty ? (
          <span className="text-slate-600">Restoring drops the page’s unsaved changes.</span>
        ) : null}
      </p>
    </section>
  )
}
