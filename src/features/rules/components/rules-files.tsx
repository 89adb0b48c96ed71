import { useId } from 'react'
import { type TableKind, tableExportUrl } from '../api/rules-api'

/**
 * Import and export of one of the project's tables. An import is a save: once the person has
 * seen what it replaces, the file goes to the server, which reads and checks it and keeps it as
 * the next version; the table then shows what it holds.
 */
export function TableFiles({
  projectId,
  table,
  busy,
  onImport,
}: {
  projectId: string
  table: TableKind
  busy: boolean
  onImport(file: File): void
}) {
  const hint = useId()
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
      <label className="flex items-center gap-2">
        Import CSV or XLSX
        <input
          type="file"
          accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          disabled={busy}
          aria-describedby={hint}
          onChange={(event) => {
            const file = event.target.files?.[0]
            event.target.value = ''
            if (file) onImport(file)
          }}
          className="text-sm"
        />
      </label>
      <span id={hint} className="text-xs text-slate-500">
        (shows what it replaces, then saves it as the next version)
      </span>
      <a className="text-sky-700 underline" href={tableExportUrl(projectId, table, 'csv')} download>
        Export CSV
      </a>
      <a
        className="text-sky-700 underline"
        href={tableExportUrl(projectId, table, 'xlsx')}
        download
      >
        Export XLSX
      </a>
    </div>
  )
}
