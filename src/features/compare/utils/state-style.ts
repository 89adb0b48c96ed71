import type { ChangeState } from '../api/compare-api'

/** A line's or an item's state as a coloured tag. */
export const STATE_STYLE: Record<ChangeState, string> = {
  added: 'bg-emerald-100 text-emerald-800',
  removed: 'bg-red-100 text-red-800',
  changed: 'bg-amber-100 text-amber-900',
  unchanged: 'bg-slate-100 text-slate-600',
}
