import { useQuery } from '@tanstack/react-query'
import { formatDateTime } from '../../../lib/format-date'
import { errorText } from '../../../lib/http-errors'
import { rowsOf, rulesQueries, type TableKind, type TableRow } from '../api/rules-api'
import { rowTexts, tableHeaders } from '../utils/table-columns'

/**
 * One saved version of the table, opened from History: its rows, read-only, and Restore, which
 * saves them again as the next version (the version itself is kept as it was).
 */
export function SavedVersion<T extends TableKind>({
  projectId,
  table,
  version,
  current,
  dirty,
  busy,
  onRestore,
  onClose,
}: {
  projectId: string
  table: T
  version: number
  /** The version the editor's table started from: a restore is saved after it. */
  current: number
  /** The table has unsaved changes, which a restore drops. */
  dirty: boolean
  busy: boolean
  onRestore(rows: TableRow[T][]): void
  onClose(): void
}) {
  const saved = useQuery(rulesQueries.version(projectId, table, version))
  const rows = saved.data ? rowsOf(table, saved.data) : []
  const headers = tableHeaders(table)
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
      ) : rows.length === 0 ? (
        <p className="text-slate-600">This version has no rows.</p>
      ) : (
        <div className="max-h-96 overflow-auto">
          <table aria-label={`Version ${version} rows`} className="border-collapse text-left">
            <thead>
              <tr className="text-xs text-slate-500">
                <th scope="col" className="px-2">
                  #
                </th>
                {headers.map((header) => (
                  <th key={header} scope="col" className="px-2 font-medium">
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => (
                // Rows of a saved version never move: their place is their identity.
                // biome-ignore lint/suspicious/noArrayIndexKey: read-only rows in a fixed order
                <tr key={index} className="border-t border-slate-200">
                  <th scope="row" className="px-2 text-right font-normal text-slate-500">
                    {index + 1}
                  </th>
                  {rowTexts(table, row).map((text, column) => (
                    <td key={headers[column]} className="max-w-48 truncate px-2" title={text}>
                      {text}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="flex flex-wrap items-center gap-2">
        {saved.data && version !== current ? (
          <button
            type="button"
            disabled={busy}
            onClick={() => onRestore(rows)}
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
          <span className="text-slate-600">Restoring drops the table’s unsaved changes.</span>
        ) : null}
      </p>
    </section>
  )
}
