import { type ReactNode, useState } from 'react'
import { SavedHistory } from '../../../components/saved-document/saved-history'
import { formatDateTime } from '../../../lib/format-date'
import type { TableKind } from '../api/rules-api'
import { rulesQueries } from '../api/rules-api'
import type { RowWithId } from '../utils/table-rows'
import { editorRowTexts } from '../utils/table-texts'
import { ImportConfirm } from './import-confirm'
import { RowsToFix } from './rows-to-fix'
import { TableFiles } from './rules-files'
import { SaveConflict } from './save-conflict'
import { SavedVersion } from './saved-version'
import type { SavedTable } from './use-saved-table'

/**
 * What every editor of a project's table has around the table itself: the version it started
 * from and its History (a version opened read-only, to restore), import (asked first) and
 * export, a colleague's save in between, Add a row and Save with the rows to fix beside it, and
 * what the last action said.
 */
export function SavedTableFrame<Row extends RowWithId, T extends TableKind>({
  projectId,
  table,
  editor,
  errors,
  canSave,
  onAdd,
  onSave,
  children,
}: {
  projectId: string
  table: T
  editor: SavedTable<Row, T>
  /** What is wrong, by row number (1-based; 0: with the table but no row of it). */
  errors: Record<number, string>
  /** Every row can be sent. */
  canSave: boolean
  onAdd(): void
  onSave(): void
  /** The table. */
  children: ReactNode
}) {
  const { state, busy, failure } = editor
  const [opened, setOpened] = useState<number | null>(null)
  const [importing, setImporting] = useState<File | null>(null)
  const general = errors[0]
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-sm text-slate-600">
          {state.version === 0
            ? 'Never saved.'
            : `Version ${state.version}, saved by ${state.savedBy ?? 'someone'}${
                state.savedAt ? ` on ${formatDateTime(state.savedAt)}` : ''
              }.`}
          {state.dirty ? ' Unsaved changes.' : ''}
        </p>
        <SavedHistory
          query={rulesQueries.history(projectId, table)}
          version={state.version}
          here="in the table"
          sizeOf={(saved) => `${saved.rows} ${saved.rows === 1 ? 'row' : 'rows'}`}
          onOpen={setOpened}
        />
      </div>
      {opened === null ? null : (
        <SavedVersion
          projectId={projectId}
          table={table}
          version={opened}
          current={state.version}
          dirty={state.dirty}
          busy={busy}
          onRestore={(rows) => {
            setOpened(null)
            editor.restore(opened, rows)
          }}
          onClose={() => setOpened(null)}
        />
      )}
      <TableFiles projectId={projectId} table={table} busy={busy} onImport={setImporting} />
      {importing ? (
        <ImportConfirm
          table={table}
          file={importing}
          current={state.rows.map((row) => editorRowTexts(table, row))}
          dirty={state.dirty}
          busy={busy}
          onImport={() => {
            setImporting(null)
            editor.importFile(importing)
          }}
          onCancel={() => setImporting(null)}
        />
      ) : null}
      {state.conflict ? (
        <SaveConflict
          table={table}
          conflict={state.conflict}
          base={state.base}
          busy={busy}
          onReload={editor.reloadTheirs}
          onKeep={editor.keepMine}
        />
      ) : null}
      {children}
      {general ? (
        <p role="alert" className="text-sm text-red-700">
          {general}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          onClick={onAdd}
          className="rounded border border-slate-400 px-3 py-1 text-sm hover:bg-slate-100"
        >
          Add a row
        </button>
        <button
          type="button"
          disabled={busy || !canSave}
          onClick={onSave}
          className="rounded bg-sky-700 px-4 py-1 text-sm text-white disabled:opacity-50"
        >
          Save
        </button>
        <RowsToFix rows={state.rows} errors={errors} />
        <p role="status" className="text-sm text-slate-700">
          {state.note}
        </p>
      </div>
      {failure ? (
        <p role="alert" className="text-sm text-red-700">
          {failure}
        </p>
      ) : null}
    </>
  )
}
