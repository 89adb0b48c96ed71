import { useMemo } from 'react'
import type { Column } from '../utils/result-tables'
import { filterRows, type Sort, sortRows } from '../utils/sort-rows'

/** Past this many rows a table shows the first ones and offers the rest (a bill can be long). */
export const ROW_LIMIT = 500

/** The rows a table shows: filtered, sorted, and cut at ROW_LIMIT unless shown whole. */
export function useShownRows<Row>(options: {
  rows: readonly Row[]
  columns: readonly Column<Row>[]
  textOf(row: Row): string
  filter: string
  sort: Sort | null
  whole: boolean
}) {
  const { rows, columns, textOf, filter, sort, whole } = options
  const matched = useMemo(() => filterRows(rows, filter, textOf), [rows, filter, textOf])
  const sorted = useMemo(() => {
    const column = sort && columns.find((candidate) => candidate.id === sort.column)
    return column && sort ? sortRows(matched, column.sortKey, sort.direction) : matched
  }, [matched, columns, sort])
  const shown = useMemo(
    () => (whole || sorted.length <= ROW_LIMIT ? sorted : sorted.slice(0, ROW_LIMIT)),
    [sorted, whole],
  )
  return { shown, matched: matched.length }
}
