import {
  type ChangeBill,
  type ChangeLine,
  type ComparedBill,
  type TotalChange,
  zoneMoves,
} from '#contract/compare.ts'
import type { Cell, Column, Table } from './table.ts'

const STATE_WORDS: Record<ChangeLine['state'], string> = {
  added: 'added',
  removed: 'removed',
  changed: 'changed',
  unchanged: 'unchanged',
}

/** A side of the comparison for a person: the file and its version when known. */
export function describeCompared(side: ComparedBill): string {
  return side.versionNumber === null
    ? side.fileName
    : `${side.fileName}, version ${side.versionNumber}`
}

/**
 * The change bill as a table (the workbook's Changes sheet, the compare download): one row per
 * item of either bill, largest change first; under it, first that the drawings are two different
 * ones when they are, then what was compared, and the notes.
 */
export function changesTable(changes: ChangeBill): Table {
  const lines = changes.lines
  const measure = (i: number) => (lines[i]?.kind === 'count' ? 'count' : 'measure')
  // With zones on both sides, what moved from zone to zone, in a column of its own.
  const zoned = lines.some((line) => line.byZone !== undefined)
  return {
    name: 'Changes',
    columns: [
      { header: 'Item', format: 'text' },
      { header: 'Description', format: 'text' },
      { header: 'Before', format: measure },
      { header: 'After', format: measure },
      { header: 'Change', format: measure },
      { header: 'Change (%)', format: 'measure' },
      { header: 'Unit', format: 'text' },
      { header: 'State', format: 'text' },
      ...(zoned ? [{ header: 'By zone (before → after)', format: 'text' as const }] : []),
    ],
    rows: lines.map((line): Cell[] => [
      line.ref,
      line.description,
      line.before,
      line.after,
      line.change,
      line.changePercent,
      line.unit,
      STATE_WORDS[line.state],
      ...(zoned ? [zoneMoves(line.byZone ?? [])] : []),
    ]),
    empty: 'Neither bill has an item.',
    notes: [
      ...(changes.differentDrawings === undefined
        ? []
        : [['Drawings', changes.differentDrawings] as Cell[]]),
      ['Before', describeCompared(changes.from)],
      ['After', describeCompared(changes.to)],
      ...changes.notes.map((note): Cell[] => ['Note', note]),
    ],
  }
}

/** The priced items' block of the change bill, after the measured lines. */
export const ITEMS_BLOCK = 'Items'

/** Its columns; the workbook's formulas find the amounts' columns by their headers. */
export const ITEM_COLUMNS: Column[] = [
  { header: 'Item', format: 'text' },
  { header: 'Code', format: 'text' },
  { header: 'Description', format: 'text' },
  { header: 'Unit', format: 'text' },
  { header: 'Quantity before', format: 'measure' },
  { header: 'Quantity after', format: 'measure' },
  { header: 'Rate before', format: 'measure' },
  { header: 'Rate after', format: 'measure' },
  { header: 'Amount before', format: 'measure' },
  { header: 'Amount after', format: 'measure' },
  { header: 'Amount change', format: 'measure' },
  { header: 'State', format: 'text' },
]

/** Said in place of the items when both bills are priced and neither has one. */
export const NO_ITEMS = 'Neither priced bill has an item.'

/** The header of the items' column of what moved from zone to zone. */
const ITEM_ZONES: Column = { header: 'By zone (before → after)', format: 'text' }

/** The items' columns: with zones on both sides, what moved from zone to zone last. */
export function itemColumns(changes: ChangeBill): Column[] {
  return itemsZoned(changes) ? [...ITEM_COLUMNS, ITEM_ZONES] : ITEM_COLUMNS
}

const itemsZoned = (changes: ChangeBill) =>
  (changes.items ?? []).some((item) => item.byZone !== undefined)

/** One row per priced item of either bill (a rate or amount the bill does not give left empty). */
export function itemChangeRows(changes: ChangeBill): Cell[][] {
  const zoned = itemsZoned(changes)
  return (changes.items ?? []).map((item): Cell[] => [
    item.ref,
    item.code,
    item.description,
    item.unit,
    item.before.quantity,
    item.after.quantity,
    item.before.rate,
    item.after.rate,
    item.before.amount,
    item.after.amount,
    item.amountChange,
    STATE_WORDS[item.state],
    ...(zoned ? [zoneMoves(item.byZone ?? [])] : []),
  ])
}

/** The row under the items: the priced bills' totals and their change. */
export function itemTotalRow(total: TotalChange): Cell[] {
  return [
    null,
    null,
    'Total',
    null,
    null,
    null,
    null,
    null,
    total.before,
    total.after,
    total.change,
    null,
  ]
}

/**
 * The priced items as a table for the CSV, the total as a row of its own; null when the bills
 * were not both priced.
 */
export function itemChangesTable(changes: ChangeBill): Table | null {
  if (changes.items === undefined || changes.total === undefined) return null
  return {
    name: ITEMS_BLOCK,
    columns: itemColumns(changes),
    rows: [...itemChangeRows(changes), itemTotalRow(changes.total)],
    empty: NO_ITEMS,
    notes: [],
  }
}
