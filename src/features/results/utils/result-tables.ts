import { BILL_KINDS } from '#contract/bill-kinds.ts'
import type {
  BillLine,
  BillUnits,
  BoqArea,
  BoqBlockCount,
  BoqLength,
  BoqNotMeasured,
} from '#contract/boq.ts'
import { formatCount, formatMeasure, formatQuantity } from '../../../lib/format-quantity'
import type { SortKey } from './sort-rows'

/** One column of a result table: its header, what a cell shows, what it sorts on. */
export type Column<Row> = {
  id: string
  header: string
  text(row: Row): string
  sortKey(row: Row): SortKey
  /** Numbers: right-aligned, tabular figures. */
  numeric?: boolean
}

/** The tables of a result, in the order of their tabs. */
export const RESULT_TABS = [
  { id: 'bill', label: 'Bill' },
  { id: 'priced', label: 'Priced' },
  // Shown when the app hands the result its Locations tab (LocationsSlot).
  { id: 'locations', label: 'Locations' },
  { id: 'blocks', label: 'Blocks' },
  { id: 'lengths', label: 'Lengths' },
  { id: 'areas', label: 'Areas' },
  { id: 'not-measured', label: 'Not measured' },
] as const
export type ResultTab = (typeof RESULT_TABS)[number]['id']

const count = <Row>(id: string, header: string, value: (row: Row) => number): Column<Row> => ({
  id,
  header,
  text: (row) => formatCount(value(row)),
  sortKey: value,
  numeric: true,
})

const measure = <Row>(id: string, header: string, value: (row: Row) => number): Column<Row> => ({
  id,
  header,
  text: (row) => formatMeasure(value(row)),
  sortKey: value,
  numeric: true,
})

const text = <Row>(id: string, header: string, value: (row: Row) => string): Column<Row> => ({
  id,
  header,
  text: value,
  sortKey: value,
})

/** The bill: item, description, quantity, unit. */
export const BILL_COLUMNS: Column<BillLine>[] = [
  text('ref', 'Item', (line) => line.ref),
  text('description', 'Description', (line) => line.description),
  {
    id: 'quantity',
    header: 'Quantity',
    text: (line) => formatQuantity(line.kind, line.quantity),
    sortKey: (line) => line.quantity,
    numeric: true,
  },
  text('unit', 'Unit', (line) => line.unit),
]

/** A bill line's kind as a place in the bill: counts, then lengths, then areas, however sorted. */
export function billKindRank(line: BillLine): number {
  return BILL_KINDS.indexOf(line.kind)
}

/** What a filter looks through on a bill line: its cells, block, layer, values and breakdown. */
export function billLineText(line: BillLine): string {
  return [
    line.ref,
    line.description,
    line.unit,
    line.block ?? '',
    line.layer ?? '',
    ...Object.values(line.values ?? {}),
    ...line.breakdown.flatMap((row) => [row.label, row.layer]),
  ].join('\n')
}

export const BLOCK_COLUMNS: Column<BoqBlockCount>[] = [
  text('block', 'Block', (row) => row.block),
  text('layer', 'Layer', (row) => row.layer),
  count('count', 'Count', (row) => row.count),
  count('nested', 'Of which nested', (row) => row.nested),
]

/** Linework per layer and kind, in drawing units, and in the bill's unit when that differs. */
export function lengthColumns(units: BillUnits): Column<BoqLength>[] {
  const columns: Column<BoqLength>[] = [
    text('layer', 'Layer', (row) => row.layer),
    text('kind', 'Kind', (row) => (row.style ? `${row.kind} (${row.style})` : row.kind)),
    count('count', 'Count', (row) => row.count),
    measure('length', `Length (${units.drawing.length})`, (row) => row.length),
  ]
  if (units.length !== units.drawing.length) {
    columns.push(
      measure('bill-length', `Length (${units.length})`, (row) => row.length * units.lengthFactor),
    )
  }
  return columns
}

/** Areas per layer, in drawing units squared, and the net area in the bill's unit when that differs. */
export function areaColumns(units: BillUnits): Column<BoqArea>[] {
  const area = units.drawing.area
  const columns: Column<BoqArea>[] = [
    text('layer', 'Layer', (row) => row.layer),
    count('closed', 'Closed polylines', (row) => row.closedPolylines),
    measure('closed-area', `Closed polyline area (${area})`, (row) => row.closedPolylineArea),
    count('curves', 'Circles and ellipses', (row) => row.closedCurves ?? 0),
    measure('curve-area', `Circle and ellipse area (${area})`, (row) => row.closedCurveArea ?? 0),
    count('hatches', 'Hatches', (row) => row.hatches),
    measure('hatch-area', `Hatch area (${area})`, (row) => row.hatchArea),
    count('filled', 'Filled by a hatch', (row) => row.filledByHatch),
    measure('net', `Net (${area})`, (row) => row.net),
  ]
  if (units.area !== area) {
    columns.push(measure('bill-net', `Net (${units.area})`, (row) => row.net * units.areaFactor))
  }
  return columns
}

export const NOT_MEASURED_COLUMNS: Column<BoqNotMeasured>[] = [
  text('type', 'Type', (row) => row.type),
  count('count', 'Count', (row) => row.count),
  text('reason', 'Reason', (row) => row.reason),
]

/** What a filter looks through on a row of the other tables: every cell as shown. */
export function rowText<Row>(columns: readonly Column<Row>[]): (row: Row) => string {
  return (row) => columns.map((column) => column.text(row)).join('\n')
}
