import type { Column } from '../utils/result-tables'
import type { Sort } from '../utils/sort-rows'
import { SortHeader } from './sort-header'
import { SpacerRows } from './spacer-rows'
import { headClass, scrollerClass, useLongTable } from './use-long-table'

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
  const { scroller, long, virtualizer, items, before, after } = useLongTable(rows.length, (index) =>
    rowKey(rows[index] as Row, index),
  )
  const drawn = long ? items.map((item) => item.index) : rows.map((_, index) => index)
  return (
    <div ref={scroller} className={scrollerClass(long)}>
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className={headClass(long)}>
          <tr className="border-b border-slate-300">
            {columns.map((column) => (
              <SortHeader key={column.id} column={column} sort={sort} onSort={onSort} />
            ))}
          </tr>
        </thead>
        <SpacerRows height={before} />
        <tbody>
          {drawn.map((index) => {
            const row = rows[index] as Row
            return (
              <tr
                key={rowKey(row, index)}
                data-index={index}
                ref={long ? virtualizer.measureElement : undefined}
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
        <SpacerRows height={after} />
      </table>
    </div>
  )
}
