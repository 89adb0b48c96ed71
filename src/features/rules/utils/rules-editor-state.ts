import type { RulesBody, RulesDocument } from '../api/rules-api'
import { type EditorRow, fromRule, newRow } from './rule-rows'

/** A save the server refused because a colleague saved first: their words and what was sent. */
export type Conflict = { reason: string; pending: RulesBody }

export type EditorState = {
  rows: EditorRow[]
  /** The saved version the table started from: sent as If-Match. */
  version: number
  savedBy: string | null
  savedAt: string | null
  /** Edited since the last load or save. */
  dirty: boolean
  /** The server's refusal of the last save, by row number (0: not about one row). */
  saveErrors: Record<number, string>
  conflict: Conflict | null
  /** What the last action says (saved, imported). */
  note: string
}

export type EditorAction =
  | { type: 'add' }
  | { type: 'remove'; id: number }
  | { type: 'move'; id: number; by: -1 | 1 }
  | { type: 'edit'; id: number; cells: Partial<Omit<EditorRow, 'id'>> }
  | { type: 'saved'; document: RulesDocument; note: string }
  | { type: 'loaded'; document: RulesDocument; note: string }
  | { type: 'refused'; errors: Record<number, string> }
  | { type: 'conflict'; conflict: Conflict }

/** The editor on a saved document, with one extra row when the page was opened to make one. */
export function initialEditor(document: RulesDocument, extra?: EditorRow): EditorState {
  const rows = document.rules.map(fromRule)
  return {
    rows: extra ? [...rows, extra] : rows,
    version: document.version,
    savedBy: document.savedBy,
    savedAt: document.savedAt,
    dirty: extra !== undefined,
    saveErrors: {},
    conflict: null,
    note: '',
  }
}

/** Rows changed: the last refusal numbered the old rows, so it no longer applies. */
const edited = (state: EditorState, rows: EditorRow[]): EditorState => ({
  ...state,
  rows,
  dirty: true,
  saveErrors: {},
  note: '',
})

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'add':
      return edited(state, [...state.rows, newRow()])
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
        version: action.document.version,
        savedBy: action.document.savedBy,
        savedAt: action.document.savedAt,
        dirty: false,
        saveErrors: {},
        conflict: null,
        note: action.note,
      }
    case 'loaded':
      return { ...initialEditor(action.document), note: action.note }
    case 'refused':
      return { ...state, saveErrors: action.errors, conflict: null, note: '' }
    case 'conflict':
      return { ...state, conflict: action.conflict, note: '' }
  }
}
