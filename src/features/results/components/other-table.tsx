import { useMemo } from 'react'
import type { Boq } from '#contract/boq.ts'
import {
  areaColumns,
  BLOCK_COLUMNS,
  type Column,
  lengthColumns,
  NOT_MEASURED_COLUMNS,
  type ResultTab,
  rowText,
} from '../utils/result-tables'
import type { Sort } from '../utils/sort-rows'
import { DataTable } from './data-table'
import { EmptyTable } from './empty-table'
import { useShownRows } from './use-shown-rows'

type View = {
  filter: string
  sort: Sort | null
  onSort(column: string): void
}

/** Blocks, Lengths, Areas or Not measured: filtered and sorted. */
export function OtherTable({
  tab,
  boq,
  ...view
}: View & { tab: Exclude<ResultTab, 'bill' | 'priced'>; boq: Boq }) {
  const lengths = useMemo(() => lengthColumns(boq.units), [boq.units])
  const areas = useMemo(() => areaColumns(boq.units), [boq.units])
  switch (tab) {
    case 'blocks':
      return <RowsTable caption="Blocks" rows={boq.blocks} columns={BLOCK_COLUMNS} {...view} />
    case 'lengths':
      return <RowsTable caption="Lengths" rows={boq.lengths} columns={lengths} {...view} />
    case 'areas':
      return <RowsTable caption="Areas" rows={boq.areas} columns={areas} {...view} />
    case 'not-measured':
      return (
        <RowsTable
          caption="Not measured"
          rows={boq.notMeasured}
          columns={NOT_MEASURED_COLUMNS}
          {...view}
        />
      )
  }
}

function RowsTable<Row>({
  caption,
  rows,
  columns,
  filter,
  sort,
  onSort,
}: View & { caption: string; rows: readonly Row[]; columns: readonly Column<Row>[] }) {
  const textOf = useMemo(() => rowText(columns), [columns])
  const { shown, matched } = useShownRows({ rows, columns, textOf, filter, sort })
  if (matched === 0) return <EmptyTable total={rows.length} filter={filter} />
  return (
    <DataTable
      caption={caption}
      columns={columns}
      rows={shown}
      rowKey={(_, index) => String(index)}
      sort={sort}
      onSort={onSort}
    />
  )
}
