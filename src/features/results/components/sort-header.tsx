import type { Column } from '../utils/result-tables'
import type { Sort } from '../utils/sort-rows'

/**
 * A column header that sorts its table: a click anywhere in the cell, or the button filling it
 * (the keyboard's and a screen reader's control, named by the header); `aria-sort` on the cell
 * says how it is sorted.
 */
export function SortHeader<Row>({
  column,
  sort,
  onSort,
}: {
  column: Column<Row>
  sort: Sort | null
  onSort(column: string): void
}) {
  const direction = sort?.column === column.id ? sort.direction : undefined
  return (
    // The button's own clicks (a key press, a screen reader's) come up here too: one handler, so
    // the cell's padding, and the height a taller neighbour gives the row, sort as well.
    <th
      scope="col"
      aria-sort={direction}
      onClick={() => onSort(column.id)}
      className="h-px cursor-pointer p-0 font-semibold hover:text-sky-700"
    >
      <button
        type="button"
        className={`flex h-full w-full items-center gap-1 py-1 pr-2 font-semibold ${
          column.numeric ? 'justify-end text-right' : 'text-left'
        }`}
      >
        {column.header}
        <span aria-hidden="true" className="w-3 shrink-0 text-xs text-slate-400">
          {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : ''}
        </span>
      </button>
    </th>
  )
}
