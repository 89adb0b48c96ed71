import type { ReactNode } from 'react'
import { formatDateTime } from '../../../lib/format-date'
import type { TableKind } from '../api/rules-api'
import type { RowWithId } from '../utils/table-rows'
import { TableFiles } from './rules-files'
import { SaveConflict } from './save-conflict'
import { SavedHistory } from './saved-history'
import type { SavedTable } from './use-saved-table'

/**
 * What every editor of a project's table has around the table itself: the version it started
 * from and its History, import and export, a colleague's save in between, Add a row and Save,
 * and what the last action said.
 */
export function SavedTableFrame<Row extends RowWithId, T extends TableKind>({
  projectId,
  table,
  editor,
  general,
  canSave,
  onAdd,
  onSave,
  children,
}: {
  projectId: string
  table: T
  editor: SavedTable<Row, T>
  /** What is wrong with the table but with no row of it. */
  general: string | undefined
  /** Every row can be sent. */
  canSave: boolean
  onAdd(): void
  onSave(): void
  /** The table. */
  children: ReactNode
}) {
  const { state, busy, failure } = editor
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
        <SavedHistory projectId={projectId} table={table} version={state.version} />
      </div>
      <TableFiles
        projectId={projectId}
        table={table}
        busy={busy}
        onImport={(file) => editor.save({ kind: 'file', file })}
      />
      {state.conflict ? (
        <SaveConflict
          table={table}
          reason={state.conflict.reason}
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
      <div className="flex items-center gap-3">
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
