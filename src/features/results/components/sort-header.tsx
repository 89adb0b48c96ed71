import type { Column } from '../utils/result-tables'
import type { Sort } from '../utils/sort-rows'

/** A column header that sorts its table when clicked; `aria-sort` says how it is sorted. */
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
    <th
      scope="col"
      aria-sort={direction}
      className={`py-1 pr-2 font-semibold ${column.numeric ? 'text-right' : 'text-left'}`}
    >
      <button
        type="button"
        onClick={() => onSort(column.id)}
        className="inline-flex items-center gap-1 hover:text-sky-700"
      >
        {column.header}
        <span aria-hidden="true" className="w-3 text-xs text-slate-400">
          {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : ''}
        </span>
      </button>
    </th>
  )
}
