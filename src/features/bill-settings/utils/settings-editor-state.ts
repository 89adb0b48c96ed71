import type { BillSettings, BillSettingsDocument } from '#contract/bill-settings.ts'
import type { TheirVersion } from '../../../components/saved-document/save-conflict-frame'
import { formOf, type SettingsForm } from './settings-form'

/** Who saved the version the page started from, and when (null before the first save). */
export type SavedMeta = Pick<BillSettingsDocument, 'version' | 'savedBy' | 'savedAt'>

/** What a save sends, and why: the fields (an edit) or an earlier version's settings (a restore). */
export type SaveRequest = { settings: BillSettings; restoring?: number }

/** The colleague's version a refused save met: being read, read, or why it could not be. */
export type Theirs = TheirVersion<BillSettingsDocument>

/** A save refused because a colleague saved first: their words, what was sent, their version. */
export type Conflict = { reason: string; pending: SaveRequest; theirs: Theirs }

export type SettingsEditorState = SavedMeta & {
  form: SettingsForm
  /** The saved version's settings: what a colleague's changes are told against. */
  base: BillSettings
  /** Edited since the last load or save. */
  dirty: boolean
  /** The server's refusal of the last save, one problem a line. */
  refused: string[]
  conflict: Conflict | null
  /** What the last action says (saved, restored, loaded). */
  note: string
}

export type SettingsEditorAction =
  | { type: 'edit'; change: (form: SettingsForm) => SettingsForm }
  | { type: 'saved'; saved: BillSettingsDocument; note: string }
  | { type: 'loaded'; saved: BillSettingsDocument; note: string }
  | { type: 'refused'; problems: string[] }
  | { type: 'conflict'; conflict: Conflict }
  /** Their version read for the conflict met by `pending` (ignored once that conflict is gone). */
  | { type: 'theirs'; pending: SaveRequest; theirs: Theirs }

const metaOf = ({ version, savedBy, savedAt }: SavedMeta): SavedMeta => ({
  version,
  savedBy,
  savedAt,
})

/** The page on a saved version, its fields as saved. */
export function initialSettingsEditor(saved: BillSettingsDocument): SettingsEditorState {
  return {
    ...metaOf(saved),
    form: formOf(saved.settings),
    base: saved.settings,
    dirty: false,
    refused: [],
    conflict: null,
    note: '',
  }
}

export function settingsEditorReducer(
  state: SettingsEditorState,
  action: SettingsEditorAction,
): SettingsEditorState {
  switch (action.type) {
    case 'edit':
      // The last refusal named the fields as they were: it no longer applies.
      return { ...state, form: action.change(state.form), dirty: true, refused: [], note: '' }
    case 'saved':
      return {
        ...state,
        ...metaOf(action.saved),
        base: action.saved.settings,
        dirty: false,
        refused: [],
        conflict: null,
        note: action.note,
      }
    case 'loaded':
      return { ...initialSettingsEditor(action.saved), note: action.note }
    case 'refused':
      return { ...state, refused: action.problems, conflict: null, note: '' }
    case 'conflict':
      return { ...state, conflict: action.conflict, note: '' }
    case 'theirs':
      return state.conflict?.pending === action.pending
        ? { ...state, conflict: { ...state.conflict, theirs: action.theirs } }
        : state
  }
}
