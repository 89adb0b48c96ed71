import { formatCount } from '../utils/format-quantity'

/** Under a table cut at its first rows: how many it shows, and a button to show them all. */
export function MoreRows({
  shown,
  matched,
  onShowAll,
}: {
  shown: number
  matched: number
  onShowAll(): void
}) {
  if (shown >= matched) return null
  return (
    <p className="flex items-center gap-2 py-2 text-sm text-slate-600">
      Showing the first {formatCount(shown)} of {formatCount(matched)} rows.
      <button type="button" className="text-sky-700 underline" onClick={onShowAll}>
        Show all {formatCount(matched)}
      </button>
    </p>
  )
}
