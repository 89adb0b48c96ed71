import { useMemo } from 'react'
import type { Column } from '../utils/result-tables'
import { filterRows, type Sort, sortRows } from '../utils/sort-rows'

/**
 * The rows a table shows: filtered, then sorted (within their `group`, when rows come in groups
 * that are kept apart). A long table draws only those in view.
 */
export function useShownRows<Row>(options: {
  rows: readonly Row[]
  columns: readonly Column<Row>[]
  textOf(row: Row): string
  filter: string
  sort: Sort | null
  group?: (row: Row) => number
}) {
  const { rows, columns, textOf, filter, sort, group } = options
  const matched = useMemo(() => filterRows(rows, filter, textOf), [rows, filter, textOf])
  const shown = useMemo(() => {
    const column = sort && columns.find((candidate) => candidate.id === sort.column)
    return column && sort ? sortRows(matched, column.sortKey, sort.direction, group) : matched
  }, [matched, columns, sort, group])
  return { shown, matched: matched.length }
}
