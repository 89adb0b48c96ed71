import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type Dispatch, useReducer, useState } from 'react'
import { errorText, httpStatus } from '../../../lib/http-errors'
import {
  rowsOf,
  rulesQueries,
  saveTable,
  type TableBody,
  type TableDocument,
  type TableKind,
  type TableRow,
} from '../api/rules-api'
import {
  type EditorAction,
  type EditorState,
  editorReducer,
  initialEditor,
} from '../utils/rules-editor-state'
import { type RowWithId, rowErrors } from '../utils/table-rows'

/** An editor of one of the project's saved tables, and what it does with the server. */
export type SavedTable<Row extends RowWithId, T extends TableKind> = {
  state: EditorState<Row, T>
  dispatch: Dispatch<EditorAction<Row, T>>
  /** A save or a reload is under way. */
  busy: boolean
  /** Why the last save, import or reload failed, when no row says it. */
  failure: string
  /** Saves the rows or a file as the version after the one the table started from. */
  save(body: TableBody<T>): void
  /** After a conflict: their version in place of the table. */
  reloadTheirs(): void
  /** After a conflict: what was refused, saved again as the version after theirs. */
  keepMine(): void
}

/** A save: what, and after which version (`theirs`: the newest, asked first). */
type Save<T extends TableKind> = { body: TableBody<T>; after: number | 'theirs' }

/**
 * The table's rows as edited, saved with If-Match on the version they started from: a colleague's
 * save in between is a conflict to resolve (reload theirs, or keep mine), a 400 names its rows,
 * an import is a save of the file. Each save updates the cached document and its history.
 */
export function useSavedTable<Row extends RowWithId, T extends TableKind>({
  projectId,
  table,
  document,
  toRow,
  extra,
  onSaved,
}: {
  projectId: string
  table: T
  document: TableDocument[T]
  toRow(row: TableRow[T]): Row
  /** A row to start with beside the saved ones (unsaved). */
  extra?: Row
  /** After each save, for what else shows the project's pricing. */
  onSaved(): void
}): SavedTable<Row, T> {
  const queryClient = useQueryClient()
  const [state, dispatch] = useReducer(editorReducer<Row, T>, undefined, () =>
    initialEditor<Row, T>(document, rowsOf(table, document).map(toRow), extra),
  )
  const [failure, setFailure] = useState('')
  const documentKey = rulesQueries.document(projectId, table).queryKey

  /** The newest saved version, asked again (not from the cache). */
  const latest = async (): Promise<TableDocument[T]> => {
    await queryClient.invalidateQueries({ queryKey: documentKey })
    return queryClient.fetchQuery(rulesQueries.document(projectId, table))
  }

  const saving = useMutation({
    mutationFn: async ({ body, after }: Save<T>) =>
      saveTable(projectId, table, after === 'theirs' ? (await latest()).version : after, body),
    onMutate: () => setFailure(''),
    onSuccess: (saved, { body }) => {
      queryClient.setQueryData(documentKey, saved)
      queryClient
        .invalidateQueries({ queryKey: rulesQueries.history(projectId, table).queryKey })
        .catch(() => {})
      const note = `Saved as version ${saved.version}.`
      dispatch(
        body.kind === 'file'
          ? {
              type: 'loaded',
              saved,
              rows: rowsOf(table, saved).map(toRow),
              note: `Imported ${body.file.name}. ${note}`,
            }
          : { type: 'saved', saved, note },
      )
      onSaved()
    },
    onError: (error, { body }) => {
      const status = httpStatus(error)
      const reason = errorText(error)
      if (status === 412 || status === 409) {
        dispatch({ type: 'conflict', conflict: { reason, pending: body } })
      } else if (status === 400 && body.kind === 'rows') {
        dispatch({ type: 'refused', errors: rowErrors(reason) })
      } else {
        setFailure(body.kind === 'file' ? `${body.file.name} was not imported: ${reason}` : reason)
      }
    },
  })

  const reloading = useMutation({
    mutationFn: latest,
    onSuccess: (theirs) =>
      dispatch({
        type: 'loaded',
        saved: theirs,
        rows: rowsOf(table, theirs).map(toRow),
        note: `Version ${theirs.version} loaded.`,
      }),
    onError: (error) => setFailure(errorText(error)),
  })

  return {
    state,
    dispatch,
    busy: saving.isPending || reloading.isPending,
    failure,
    save: (body) => saving.mutate({ body, after: state.version }),
    reloadTheirs: () => reloading.mutate(),
    keepMine: () => {
      const pending = state.conflict?.pending
      if (pending) saving.mutate({ body: pending, after: 'theirs' })
    },
  }
}
