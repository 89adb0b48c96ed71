import { useMemo } from 'react'
import type { Column } from '../utils/result-tables'
import { filterRows, type Sort, sortRows } from '../utils/sort-rows'

/** The rows a table shows: filtered, then sorted. A long table draws only those in view. */
export function useShownRows<Row>(options: {
  rows: readonly Row[]
  columns: readonly Column<Row>[]
  textOf(row: Row): string
  filter: string
  sort: Sort | null
}) {
  const { rows, columns, textOf, filter, sort } = options
  const matched = useMemo(() => filterRows(rows, filter, textOf), [rows, filter, textOf])
  const shown = useMemo(() => {
    const column = sort && columns.find((candidate) => candidate.id === sort.column)
    return column && sort ? sortRows(matched, column.sortKey, sort.direction) : matched
  }, [matched, columns, sort])
  return { shown, matched: matched.length }
}
