import { useLongTable } from '../../../components/long-table/use-long-table'
import type { Column } from '../utils/result-tables'
import type { Sort } from '../utils/sort-rows'
import { LongTableFrame } from './long-table-frame'

/** A plain table of result rows, sortable by any column; a long one draws the rows in view. */
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
  const table = useLongTable(rows.length, (index) => rowKey(rows[index] as Row, index))
  return (
    <LongTableFrame table={table} caption={caption} columns={columns} sort={sort} onSort={onSort}>
      <tbody>
        {table.drawn.map((index) => {
          const row = rows[index] as Row
          return (
            <tr
              key={rowKey(row, index)}
              data-index={index}
              ref={table.measure}
              className="border-b border-slate-100"
            >
              {columns.map((column) => (
                <td
                  key={column.id}
                  className={`py-1 pr-2 ${column.numeric ? 'text-right tabular-nums' : ''}`}
                >
                  {column.text(row)}
                </td>
              ))}
            </tr>
          )
        })}
      </tbody>
    </LongTableFrame>
  )
}
