import type { ReactNode } from 'react'
import { SpacerRows } from '../../../components/long-table/spacer-rows'
import {
  headClass,
  type LongTable,
  scrollerClass,
} from '../../../components/long-table/use-long-table'
import type { Column } from '../utils/result-tables'
import type { Sort } from '../utils/sort-rows'
import { SortHeader } from './sort-header'

/**
 * A result table around its row groups (`children`, one `<tbody>` or more): the box a long one
 * scrolls in, its caption for screen readers, a header that sorts by any column and stays on top,
 * and the height of the rows not drawn above and below.
 */
export function LongTableFrame<Row>({
  table,
  caption,
  columns,
  sort,
  onSort,
  children,
}: {
  table: LongTable
  caption: string
  columns: readonly Column<Row>[]
  sort: Sort | null
  onSort(column: string): void
  children: ReactNode
}) {
  return (
    <div ref={table.scroller} className={scrollerClass(table.long)}>
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className={headClass(table.long)}>
          <tr className="border-b border-slate-300">
            {columns.map((column) => (
              <SortHeader key={column.id} column={column} sort={sort} onSort={onSort} />
            ))}
          </tr>
        </thead>
        <SpacerRows height={table.before} />
        {children}
        <SpacerRows height={table.after} />
      </table>
    </div>
  )
}
