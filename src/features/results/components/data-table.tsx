import type { Column } from '../utils/result-tables'
import type { Sort } from '../utils/sort-rows'
import { SortHeader } from './sort-header'

/** A plain table of result rows, sortable by any column. */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  sort,
  onSort,
}: {
  caption: string
  columns: readonly Column<Row>[]
  rows: readonly Row[]
  rowKey(row: Row, index: number): string
  sort: Sort | null
  onSort(column: string): void
}) {
  return (
    <table className="w-full border-collapse text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b border-slate-300">
          {columns.map((column) => (
            <SortHeader key={column.id} column={column} sort={sort} onSort={onSort} />
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          <tr key={rowKey(row, index)} className="border-b border-slate-100">
            {columns.map((column) => (
              <td
                key={column.id}
                className={`py-1 pr-2 ${column.numeric ? 'text-right tabular-nums' : ''}`}
              >
                {column.text(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
