import { stringify } from 'csv-stringify/sync'
import { itemsBySection, type ProjectChangeBill } from '#contract/project-bills.ts'
import { csvText } from '../../boq/write/csv.ts'
import type { Cell } from '../../boq/write/table.ts'
import type { ProjectBillFiles } from './project-task.ts'
import {
  drawingColumns,
  drawingQuantities,
  driversText,
  measuredQuantities,
  stateText,
} from './summary-rows.ts'

/**
 * The project bill's summary as CSV: an item a row (its section, each drawing's quantity, the
 * sum, the rate, the amount), the total, then each drawing and its state, then the measured
 * lines (kind, description, unit, each drawing's quantity, the sum); numbers unformatted.
 */
export function projectBillCsv(files: ProjectBillFiles): string {
  const drawings = drawingColumns(files.billed)
  const records: Cell[][] = [
    [
      'Section',
      'Code',
      'Description',
      'Unit',
      ...drawings.map((one) => one.header),
      'Quantity',
      'Rate',
      'Amount',
    ],
  ]
  for (const [section, items] of itemsBySection(files.figures.items)) {
    for (const item of items) {
      records.push([
        section,
        item.code,
        item.description,
        item.unit,
        ...drawingQuantities(item, drawings),
        item.quantity,
        item.rate,
        item.amount,
      ])
    }
  }
  const blanks = (n: number) => Array.from({ length: n }, () => null)
  records.push(['Total', ...blanks(5 + drawings.length), files.figures.total])
  records.push([])
  records.push(['Drawing', 'Version', 'State'])
  for (const drawing of files.drawings) {
    records.push([drawing.fileName, drawing.versionNumber, stateText(drawing)])
  }
  records.push([])
  records.push([
    'Measured',
    'Description',
    'Unit',
    ...drawings.map((one) => one.header),
    'Quantity',
  ])
  for (const line of files.measured) {
    records.push([
      line.kind,
      line.description,
      line.unit,
      ...measuredQuantities(line, drawings),
      line.quantity,
    ])
  }
  return csvOf(records)
}

/** A project change bill as CSV: each item before, after and its change, and which drawings. */
export function projectChangesCsv(changes: ProjectChangeBill): string {
  const records: Cell[][] = [
    [
      'Section',
      'Code',
      'Description',
      'Unit',
      'Quantity before',
      'Quantity after',
      'Quantity change',
      'Amount before',
      'Amount after',
      'Amount change',
      'Drawings that moved it',
    ],
  ]
  for (const item of changes.items) {
    records.push([
      item.section,
      item.code,
      item.description,
      item.unit,
      item.before.quantity,
      item.after.quantity,
      item.change.quantity,
      item.before.amount,
      item.after.amount,
      item.change.amount,
      driversText(item.drivenBy),
    ])
  }
  const { before, after, change } = changes.total
  records.push(['Total', null, null, null, null, null, null, before, after, change, null])
  return csvOf(records)
}

function csvOf(records: Cell[][]): string {
  return stringify(
    records.map((record) =>
      record.map((cell) => (cell === null ? '' : typeof cell === 'number' ? cell : csvText(cell))),
    ),
  )
}
