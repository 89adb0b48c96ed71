import type { TheirVersion } from '../../../components/saved-document/save-conflict-frame'
import type { TableBody, TableDocument, TableKind, TableRow } from '../api/rules-api'
import type { RowWithId } from './table-rows'

/** Who saved the version a table started from, and when (null before the first save). */
export type SavedMeta = { version: number; savedBy: string | null; savedAt: string | null }

/**
 * What a save sends, and why: the editor's rows (an edit), a file (an import), or the rows of an
 * earlier version (a restore of that version).
 */
export type SaveRequest<T extends TableKind> = { body: TableBody<T>; restoring?: number }

/** The colleague's version a refused save met: being read, read, or why it could not be. */
export type Theirs<T extends TableKind> = TheirVersion<TableDocument[T]>

/**
 * A save the server refused because a colleague saved first: their words, what was sent, and
 * their version (to show what they changed).
 */
export type Conflict<T extends TableKind> = {
  reason: string
  pending: SaveRequest<T>
  theirs: Theirs<T>
}

/** An editor of one of the project's tables (rules or classification), whatever its rows. */
export type EditorState<Row extends RowWithId, T extends TableKind> = SavedMeta & {
  rows: Row[]
  /** The saved version's rows as the server keeps them: what a colleague's changes are told against. */
  base: TableRow[T][]
  /** Edited since the last load or save. */
  dirty: boolean
  /** The server's refusal of the last save, by row number (0: not about one row). */
  saveErrors: Record<number, string>
  conflict: Conflict<T> | null
  /** What the last action says (saved, imported). */
  note: string
}

export type EditorAction<Row extends RowWithId, T extends TableKind> =
  | { type: 'add'; row: Row }
  | { type: 'remove'; id: number }
  | { type: 'move'; id: number; by: -1 | 1 }
  | { type: 'edit'; id: number; cells: Partial<Omit<Row, 'id'>> }
  | { type: 'saved'; saved: SavedMeta; base: TableRow[T][]; note: string }
  | { type: 'loaded'; saved: SavedMeta; rows: Row[]; base: TableRow[T][]; note: string }
  | { type: 'refused'; errors: Record<number, string> }
  | { type: 'conflict'; conflict: Conflict<T> }
  /** Their version read for the conflict met by `pending` (ignored once that conflict is gone). */
  | { type: 'theirs'; pending: SaveRequest<T>; theirs: Theirs<T> }

const metaOf = ({ version, savedBy, savedAt }: SavedMeta): SavedMeta => ({
  version,
  savedBy,
  savedAt,
})

/** The editor on a saved table, with extra rows when the page was opened to make some. */
export function initialEditor<Row extends RowWithId, T extends TableKind>(
  saved: SavedMeta,
  rows: Row[],
  base: TableRow[T][],
  extras: Row[] = [],
): EditorState<Row, T> {
  return {
    ...metaOf(saved),
    rows: [...rows, ...extras],
    base,
    dirty: extras.length > 0,
    saveErrors: {},
    conflict: null,
    note: '',
  }
}

/** Rows changed: the last refusal numbered the old rows, so it no longer applies. */
const edited = <Row extends RowWithId, T extends TableKind>(
  state: EditorState<Row, T>,
  rows: Row[],
): EditorState<Row, T> => ({
  ...state,
  rows,
  dirty: true,
  saveErrors: {},
  note: '',
})

export function editorReducer<Row extends RowWithId, T extends TableKind>(
  state: EditorState<Row, T>,
  action: EditorAction<Row, T>,
): EditorState<Row, T> {
  switch (action.type) {
    case 'add':
      return edited(state, [...state.rows, action.row])
    case 'remove':
      return edited(
        state,
        state.rows.filter((row) => row.id !== action.id),
      )
    case 'move': {
      const from = state.rows.findIndex((row) => row.id === action.id)
      const to = from + action.by
      if (from < 0 || to < 0 || to >= state.rows.length) return state
      const rows = [...state.rows]
      const [moved] = rows.splice(from, 1)
      if (moved) rows.splice(to, 0, moved)
      return edited(state, rows)
    }
    case 'edit':
      return edited(
        state,
        state.rows.map((row) => (row.id === action.id ? { ...row, ...action.cells } : row)),
      )
    case 'saved':
      return {
        ...state,
        ...metaOf(action.saved),
        base: action.base,
        dirty: false,
        saveErrors: {},
        conflict: null,
        note: action.note,
      }
    case 'loaded':
      return { ...initialEditor<Row, T>(action.saved, action.rows, action.base), note: action.note }
    case 'refused':
      return { ...state, saveErrors: action.errors, conflict: null, note: '' }
    case 'conflict':
      return { ...state, conflict: action.conflict, note: '' }
    case 'theirs':
      return state.conflict?.pending === action.pending
        ? { ...state, conflict: { ...state.conflict, theirs: action.theirs } }
        : state
  }
}

/** What a table's rows themselves change: their cells, their order, their number. */
export type RowAction<Row extends RowWithId> = Extract<
  EditorAction<Row, TableKind>,
  { type: 'edit' | 'move' | 'remove' }
>
