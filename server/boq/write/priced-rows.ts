import type { Currency } from '#contract/bill-settings.ts'
import {
  type PricedAdjustment,
  type PricedBill,
  type PricedItem,
  RULE_COLUMNS,
  type RuleColumn,
  type TakeoffRule,
} from '#contract/takeoff-rules.ts'
import type { BillGroup } from '../model/schema.ts'
import { groupedRows, type LeveledRows } from './grouped-rows.ts'
import type { Cell, Column, Table } from './table.ts'

/**
 * The priced bill as tables: its items by section with subtotals and the total, what no rule
 * took, what rules left out on purpose, and the rules used. The workbook writes the first with
 * live formulas; the CSV writes them all as figures.
 */

export const PRICED_SHEET = 'Priced bill'

/**
 * The priced bill's columns, in the workbook's order (its formulas name them by letter); the
 * rate's and the amount's name the currency when the bill has one.
 */
export function pricedColumns(currency: Currency | null): Column[] {
  const inCurrency = (header: string) => (currency ? `${header} (${currency.code})` : header)
  return [
    { header: 'Item', format: 'text' },
    { header: 'Code', format: 'text' },
    { header: 'Description', format: 'text' },
    { header: 'Quantity', format: 'measure' },
    { header: 'Unit', format: 'text' },
    { header: inCurrency('Rate'), format: 'measure' },
    { header: inCurrency('Amount'), format: 'measure' },
    { header: 'Notes', format: 'text' },
  ]
}

/**
 * What a total row sums: the items (with SUBTOTAL, which leaves the sections' subtotals out),
 * the items and the adjustments before tax, or everything above it.
 */
export type TotalOf = 'items' | 'beforeTax' | 'all'

/**
 * Rows of the priced bill: a section's heading, an item, a section's subtotal, a total, an
 * adjustment.
 */
export type PricedRow =
  | { kind: 'section'; code: string; title: string }
  | { kind: 'item'; cells: Cell[]; item: PricedItem }
  | { kind: 'subtotal'; label: string; subtotal: number }
  | { kind: 'total'; label: string; total: number; of: TotalOf }
  | { kind: 'adjustment'; cells: Cell[]; adjustment: PricedAdjustment }

/**
 * The priced bill row by row, sections in order, each with its items then its subtotal; then the
 * total, or with adjustments the items' total, the adjustments (taxes after the total before
 * tax) and the total.
 */
export function pricedRows(priced: PricedBill): PricedRow[] {
  const byRef = new Map(priced.items.map((item) => [item.ref, item]))
  const rows: PricedRow[] = []
  for (const section of priced.sections) {
    rows.push({ kind: 'section', code: section.code, title: section.title })
    for (const ref of section.items) {
      const item = byRef.get(ref)
      if (!item) continue
      rows.push({
        kind: 'item',
        item,
        cells: [
          item.ref,
          item.code,
          item.description,
          item.quantity,
          item.unit,
          item.rate,
          item.amount,
          item.flags.length > 0 ? item.flags.join('; ') : null,
        ],
      })
    }
    rows.push({ kind: 'subtotal', label: sectionName(section), subtotal: section.subtotal })
  }
  const { adjustments } = priced
  if (adjustments.length === 0) {
    if (priced.items.length > 0)
      rows.push({ kind: 'total', label: 'Total', total: priced.total, of: 'items' })
    return rows
  }
  rows.push({ kind: 'total', label: 'Items total', total: priced.itemsTotal, of: 'items' })
  adjustments.forEach((adjustment, i) => {
    // A tax is of the total before tax: the first one says what that is.
    if (adjustment.kind === 'tax' && adjustments[i - 1]?.kind !== 'tax') {
      const total = adjustment.of ?? 0
      rows.push({ kind: 'total', label: 'Total before tax', total, of: 'beforeTax' })
    }
    rows.push({ kind: 'adjustment', adjustment, cells: adjustmentCells(adjustment) })
  })
  rows.push({ kind: 'total', label: 'Total', total: priced.total, of: 'all' })
  return rows
}

const ADJUSTMENT_NOTES: Record<PricedAdjustment['kind'], string> = {
  percent: 'of the total above',
  sum: 'fixed sum',
  item: 'added',
  tax: 'of the total before tax',
}

/**
 * An adjustment's row: a percentage as its quantity (unit `%`) with the total it is of as its
 * rate, a manual item as an item, a fixed sum as its amount alone; the amount multiplies out.
 */
function adjustmentCells(adjustment: PricedAdjustment): Cell[] {
  const note = adjustment.omit ? 'omitted' : ADJUSTMENT_NOTES[adjustment.kind]
  const figures: Cell[] =
    adjustment.kind === 'percent' || adjustment.kind === 'tax'
      ? [adjustment.percent ?? null, '%', adjustment.of ?? null]
      : adjustment.kind === 'item'
        ? [adjustment.quantity ?? null, adjustment.unit ?? null, adjustment.rate ?? null]
        : [null, null, null]
  return [null, null, adjustment.name, ...figures, adjustment.amount, note]
}

function sectionName(section: { code: string; title: string }): string {
  const name = section.title && section.title !== section.code ? ` ${section.title}` : ''
  return `Subtotal ${section.code}${name}`.trim()
}

/** The priced bill for the CSV: a section column, subtotals and the total as rows of their own. */
export function pricedTable(priced: PricedBill): Table {
  const rows: Cell[][] = []
  let section = ''
  for (const row of pricedRows(priced)) {
    if (row.kind === 'section') section = row.code
    else if (row.kind === 'item') rows.push([section, ...row.cells])
    else if (row.kind === 'subtotal')
      rows.push([section, null, null, row.label, null, null, null, row.subtotal, null])
    else if (row.kind === 'adjustment') rows.push([null, ...row.cells])
    else rows.push([null, null, null, row.label, null, null, null, row.total, null])
  }
  return {
    name: PRICED_SHEET,
    columns: [{ header: 'Bill section', format: 'text' }, ...pricedColumns(priced.currency)],
    rows,
    empty: 'No items: no rule took a measured quantity.',
    notes: [],
  }
}

export const NOT_CLASSIFIED_COLUMNS: Column[] = [
  { header: 'Measured line', format: 'text' },
  { header: 'Description', format: 'text' },
  { header: 'Quantity', format: 'measure' },
  { header: 'Unit', format: 'text' },
]

/**
 * What no rule took: its measured line and quantity, so that nothing is lost; the lines of a
 * bill group (pasted blocks) under their group's line.
 */
export function notClassifiedRows(
  priced: PricedBill,
  groups: readonly BillGroup[] = [],
): LeveledRows {
  return groupedRows(
    priced.notClassified,
    groups,
    { line: (n) => n.line, block: (n) => n.block, quantity: (n) => n.quantity },
    (n) => [n.line, n.description, n.quantity, n.unit],
    NOT_CLASSIFIED_COLUMNS.length,
  )
}

export function notClassifiedTable(priced: PricedBill, groups: readonly BillGroup[] = []): Table {
  return {
    name: 'Not classified',
    columns: NOT_CLASSIFIED_COLUMNS,
    ...notClassifiedRows(priced, groups),
    empty: 'Every measured quantity was taken by a rule.',
    notes: [],
  }
}

export const IGNORED_COLUMNS: Column[] = [
  { header: 'Rule', format: 'count' },
  ...NOT_CLASSIFIED_COLUMNS,
]

/** What ignore rules left out on purpose, with the rule (1-based) that did. */
export function ignoredRows(priced: PricedBill): Cell[][] {
  return priced.ignored.map((i) => [i.rule, i.line, i.description, i.quantity, i.unit])
}

export function ignoredTable(priced: PricedBill): Table {
  return {
    name: 'Ignored',
    columns: IGNORED_COLUMNS,
    rows: ignoredRows(priced),
    empty: 'No rule left anything out.',
    notes: [],
  }
}

const RULE_HEADERS: Record<RuleColumn, string> = {
  match: 'Match',
  block: 'Block',
  layer: 'Layer',
  kind: 'Kind',
  attribute: 'Attribute',
  visibility: 'Visibility',
  zone: 'Zone',
  code: 'Code',
  description: 'Description',
  unit: 'Unit',
  quantity: 'Quantity',
  rate: 'Rate',
  ignore: 'Ignore',
}

/**
 * The rules used, in a rules file's columns (its header row first on its sheet, named Rules):
 * the workbook can be read back as the rules that priced it.
 */
export function rulesTable(rules: TakeoffRule[]): Table {
  return {
    name: 'Rules',
    columns: RULE_COLUMNS.map((column) => ({
      header: RULE_HEADERS[column],
      format: column === 'rate' ? 'measure' : 'text',
    })),
    rows: rules.map((rule) => RULE_COLUMNS.map((column) => ruleCell(rule, column))),
    empty: '',
    notes: [],
  }
}

function ruleCell(rule: TakeoffRule, column: RuleColumn): Cell {
  if (column === 'ignore') return rule.ignore ? 'yes' : null
  if (column === 'rate') return rule.rate ?? null
  return rule[column] ?? null
}

/** The CSV's priced sections, before the measured ones. */
export function pricedCsvTables(priced: PricedBill, groups: readonly BillGroup[] = []): Table[] {
  return [
    pricedTable(priced),
    notClassifiedTable(priced, groups),
    ignoredTable(priced),
    rulesTable(priced.rules),
    {
      name: 'Priced bill warnings',
      columns: [{ header: 'Warning', format: 'text' }],
      rows: priced.warnings.map((warning) => [warning]),
      empty: '',
      notes: [],
    },
  ]
}
