import type { ResultTab } from './result-tables'
import { type HandleIndex, lineOfHandle, type Selection } from './selection'
import { nextSort, type Sort } from './sort-rows'

/** What the person did to a result page: its tab, filter, sorts, open lines and selection. */
export type ResultState = {
  tab: ResultTab
  filter: string
  sorts: Partial<Record<ResultTab, Sort>>
  /** Bill lines whose breakdown is open, by ref, and groups of lines open, by their key. */
  expanded: ReadonlySet<string>
  selection: Selection | null
  /** The line to scroll into view; `count` changes on every request, so a second pick scrolls again. */
  reveal: { ref: string; count: number } | null
  /** A word about the last pick in the drawing, when it named nothing in the bill. */
  note: string | null
}

export type ResultAction =
  | { type: 'tab'; tab: ResultTab }
  | { type: 'filter'; filter: string }
  | { type: 'sort'; tab: ResultTab; column: string }
  | { type: 'toggle'; ref: string }
  /** A line or breakdown row clicked: selected, or unselected when it already was. */
  | { type: 'select'; selection: Selection }
  /**
   * An entity picked in the drawing; `shown`: the bill lines the table shows now; `groupOf`: the
   * key of the group a line is shown under, which is opened to show it.
   */
  | {
      type: 'pick'
      handle: string
      index: HandleIndex
      shown: ReadonlySet<string>
      groupOf?: (ref: string) => string | undefined
    }

export const initialResultState: ResultState = {
  tab: 'bill',
  filter: '',
  sorts: {},
  expanded: new Set(),
  selection: null,
  reveal: null,
  note: null,
}

const sameSelection = (a: Selection | null, b: Selection) => a?.ref === b.ref && a.row === b.row

export function resultReducer(state: ResultState, action: ResultAction): ResultState {
  switch (action.type) {
    case 'tab':
      return { ...state, tab: action.tab }
    case 'filter':
      return { ...state, filter: action.filter }
    case 'sort':
      return {
        ...state,
        sorts: {
          ...state.sorts,
          [action.tab]: nextSort(state.sorts[action.tab] ?? null, action.column),
        },
      }
    case 'toggle': {
      const expanded = new Set(state.expanded)
      if (!expanded.delete(action.ref)) expanded.add(action.ref)
      return { ...state, expanded }
    }
    case 'select':
      return {
        ...state,
        selection: sameSelection(state.selection, action.selection) ? null : action.selection,
        note: null,
      }
    case 'pick':
      return pick(state, action)
  }
}

/** The line naming the picked entity becomes the selection, shown on the Bill tab and scrolled to. */
function pick(state: ResultState, action: Extract<ResultAction, { type: 'pick' }>): ResultState {
  const ref = lineOfHandle(action.index, action.handle, state.selection?.ref ?? null)
  if (ref === null) {
    return { ...state, note: `No line of the bill names entity ${action.handle}.` }
  }
  // A line the filter hides is brought back: the pick must land on a visible row.
  const hidden = !action.shown.has(ref)
  const group = action.groupOf?.(ref)
  return {
    ...state,
    expanded:
      group === undefined || state.expanded.has(group)
        ? state.expanded
        : new Set([...state.expanded, group]),
    tab: 'bill',
    filter: hidden ? '' : state.filter,
    selection: { ref, row: null },
    reveal: { ref, count: (state.reveal?.count ?? 0) + 1 },
    note: null,
  }
}
