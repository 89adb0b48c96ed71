import { useEffect, useState } from 'react'
import type { TableKind } from '../api/rules-api'
import { rowChanges } from '../utils/row-changes'
import { RowChangesList } from './row-changes-list'

/** How many of the file's changed rows are listed. */
const LISTED = 5

/** What the browser made of the file: still reading, its rows, or why it could not read it. */
type Reading =
  | { status: 'reading' }
  | { status: 'read'; rows: string[][] }
  | { status: 'failed'; reason: string }

const plural = (count: number) => `${count} ${count === 1 ? 'row' : 'rows'}`

/**
 * The question an import asks before it saves: what the file replaces (the table's rows now, the
 * file's, the first rows that differ), then Import (the file is sent, as it is, to be saved as
 * the next version) or Cancel. A file the browser cannot read is still offered: the server reads
 * every file it is sent, and says what is wrong with it.
 */
export function ImportConfirm({
  table,
  file,
  current,
  dirty,
  busy,
  onImport,
  onCancel,
}: {
  table: TableKind
  file: File
  /** The table's rows now, as texts (see editorRowTexts). */
  current: string[][]
  /** The table has unsaved changes, which the import drops. */
  dirty: boolean
  busy: boolean
  onImport(): void
  onCancel(): void
}) {
  const [reading, setReading] = useState<Reading>({ status: 'reading' })
  useEffect(() => {
    let live = true
    setReading({ status: 'reading' })
    // The reader (and its CSV parser) loads only when a file is chosen.
    import('../utils/read-table-file')
      .then(({ readTableFile }) => readTableFile(table, file))
      .then((rows) => live && setReading({ status: 'read', rows }))
      .catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error)
        if (live) setReading({ status: 'failed', reason })
      })
    return () => {
      live = false
    }
  }, [table, file])

  return (
    <section
      aria-label={`Import ${file.name}`}
      className="flex flex-col gap-2 rounded border border-sky-300 bg-sky-50 p-3 text-sm"
    >
      <h2 className="font-semibold text-slate-800">Import {file.name} in place of the table?</h2>
      {reading.status === 'reading' ? (
        <p className="text-slate-600">Reading {file.name}…</p>
      ) : reading.status === 'failed' ? (
        <p className="text-slate-700">
          The table has {plural(current.length)} now. {file.name} could not be read here (
          {reading.reason}); the server reads it when it is imported and says what is wrong with it.
        </p>
      ) : (
        <FileChanges table={table} current={current} rows={reading.rows} fileName={file.name} />
      )}
      {dirty ? (
        <p className="text-slate-600">The import drops the table’s unsaved changes.</p>
      ) : null}
      <p className="flex gap-2">
        <button
          type="button"
          disabled={busy || reading.status === 'reading'}
          onClick={onImport}
          className="rounded bg-sky-700 px-3 py-1 text-white disabled:opacity-50"
        >
          Import
        </button>
        <button
          type="button"
          onClick={onCancel}
          className="rounded border border-slate-400 px-3 py-1 hover:bg-white"
        >
          Cancel
        </button>
      </p>
    </section>
  )
}

function FileChanges({
  table,
  current,
  rows,
  fileName,
}: {
  table: TableKind
  current: string[][]
  rows: string[][]
  fileName: string
}) {
  const changes = rowChanges(current, rows)
  return (
    <>
      <p className="text-slate-700">
        The table has {plural(current.length)} now; {fileName} has {plural(rows.length)}.
        {changes.length === 0 ? ' They are the same rows.' : ''}
      </p>
      {changes.length > 0 ? (
        <RowChangesList
          table={table}
          changes={changes}
          label="What the file changes"
          limit={LISTED}
        />
      ) : null}
    </>
  )
}
