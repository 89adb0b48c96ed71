import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type Dispatch, useReducer, useState } from 'react'
import { errorText, httpStatus } from '../../../lib/http-errors'
import {
  rowsOf,
  rulesQueries,
  saveTable,
  type TableDocument,
  type TableKind,
  type TableRow,
} from '../api/rules-api'
import {
  type EditorAction,
  type EditorState,
  editorReducer,
  initialEditor,
  type SaveRequest,
} from '../utils/rules-editor-state'
import { type RowWithId, rowErrors } from '../utils/table-rows'

/** An editor of one of the project's saved tables, and what it does with the server. */
export type SavedTable<Row extends RowWithId, T extends TableKind> = {
  state: EditorState<Row, T>
  dispatch: Dispatch<EditorAction<Row, T>>
  /** A save or a reload is under way. */
  busy: boolean
  /** Why the last save, import, restore or reload failed, when no row says it. */
  failure: string
  /** Saves the editor's rows as the version after the one the table started from. */
  save(rows: TableRow[T][]): void
  /** Saves a CSV or XLSX file (read and checked by the server) in place of the table. */
  importFile(file: File): void
  /** Saves an earlier version's rows again, as the version after the one the table started from. */
  restore(version: number, rows: TableRow[T][]): void
  /** After a conflict: their version in place of the table. */
  reloadTheirs(): void
  /** After a conflict: what was refused, saved again as the version after theirs. */
  keepMine(): void
}

/** A save: what, and after which version (`theirs`: the newest, asked first). */
type Save<T extends TableKind> = { request: SaveRequest<T>; after: number | 'theirs' }

/**
 * The table's rows as edited, saved with If-Match on the version they started from: a colleague's
 * save in between is a conflict to resolve (their version is read, to show what they changed;
 * then reload theirs, or keep mine), a 400 names its rows, an import is a save of the file, a
 * restore a save of an earlier version's rows. Each save updates the cached document and its
 * history.
 */
export function useSavedTable<Row extends RowWithId, T extends TableKind>({
  projectId,
  table,
  document,
  toRow,
  extras,
  onSaved,
}: {
  projectId: string
  table: T
  document: TableDocument[T]
  toRow(row: TableRow[T]): Row
  /** Rows to start with after the saved ones (unsaved). */
  extras?: Row[]
  /** After each save, for what else shows the project's pricing. */
  onSaved(): void
}): SavedTable<Row, T> {
  const queryClient = useQueryClient()
  const [state, dispatch] = useReducer(editorReducer<Row, T>, undefined, () => {
    const rows = rowsOf(table, document)
    return initialEditor<Row, T>(document, rows.map(toRow), rows, extras)
  })
  const [failure, setFailure] = useState('')
  const documentKey = rulesQueries.document(projectId, table).queryKey

  /** The newest saved version, asked again (not from the cache). */
  const latest = async (): Promise<TableDocument[T]> => {
    await queryClient.invalidateQueries({ queryKey: documentKey })
    return queryClient.fetchQuery(rulesQueries.document(projectId, table))
  }

  /** Their version, read for the conflict `pending` met. */
  const readTheirs = (pending: SaveRequest<T>) => {
    latest()
      .then((theirs) =>
        dispatch({ type: 'theirs', pending, theirs: { status: 'read', document: theirs } }),
      )
      .catch((error: unknown) =>
        dispatch({
          type: 'theirs',
          pending,
          theirs: { status: 'failed', reason: errorText(error) },
        }),
      )
  }

  const saving = useMutation({
    mutationFn: async ({ request, after }: Save<T>) =>
      saveTable(
        projectId,
        table,
        after === 'theirs' ? (await latest()).version : after,
        request.body,
      ),
    onMutate: () => setFailure(''),
    onSuccess: (saved, { request }) => {
      queryClient.setQueryData(documentKey, saved)
      queryClient
        .invalidateQueries({ queryKey: rulesQueries.history(projectId, table).queryKey })
        .catch(() => {})
      const base = rowsOf(table, saved)
      const note = `Saved as version ${saved.version}.`
      const { body, restoring } = request
      if (body.kind === 'rows' && restoring === undefined) {
        dispatch({ type: 'saved', saved, base, note })
      } else {
        // The table becomes what was saved: the file's rows, or the restored version's.
        dispatch({
          type: 'loaded',
          saved,
          rows: base.map(toRow),
          base,
          note:
            body.kind === 'file'
              ? `Imported ${body.file.name}. ${note}`
              : `Version ${restoring} restored as version ${saved.version}.`,
        })
      }
      onSaved()
    },
    onError: (error, { request }) => {
      const status = httpStatus(error)
      const reason = errorText(error)
      const { body, restoring } = request
      if (status === 412 || status === 409) {
        dispatch({
          type: 'conflict',
          conflict: { reason, pending: request, theirs: { status: 'reading' } },
        })
        readTheirs(request)
      } else if (body.kind === 'file') {
        setFailure(`${body.file.name} was not imported: ${reason}`)
      } else if (restoring !== undefined) {
        setFailure(`Version ${restoring} was not restored: ${reason}`)
      } else if (status === 400) {
        dispatch({ type: 'refused', errors: rowErrors(reason) })
      } else {
        setFailure(reason)
      }
    },
  })

  const reloading = useMutation({
    mutationFn: latest,
    onSuccess: (theirs) => {
      const rows = rowsOf(table, theirs)
      dispatch({
        type: 'loaded',
        saved: theirs,
        rows: rows.map(toRow),
        base: rows,
        note: `Version ${theirs.version} loaded.`,
      })
    },
    onError: (error) => setFailure(errorText(error)),
  })

  const saveAfterMine = (request: SaveRequest<T>) =>
    saving.mutate({ request, after: state.version })

  return {
    state,
    dispatch,
    busy: saving.isPending || reloading.isPending,
    failure,
    save: (rows) => saveAfterMine({ body: { kind: 'rows', rows } }),
    importFile: (file) => saveAfterMine({ body: { kind: 'file', file } }),
    restore: (version, rows) => saveAfterMine({ body: { kind: 'rows', rows }, restoring: version }),
    reloadTheirs: () => reloading.mutate(),
    keepMine: () => {
      const conflict = state.conflict
      if (!conflict) return
      // Saved after the version shown, so that a save after it is met, and shown, in turn.
      const theirs = conflict.theirs
      saving.mutate({
        request: conflict.pending,
        after: theirs.status === 'read' ? theirs.document.version : 'theirs',
      })
    },
  }
}
