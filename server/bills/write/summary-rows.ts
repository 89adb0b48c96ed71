import type {
  BillDrawing,
  ChangeDriver,
  ProjectChangeBill,
  ProjectItem,
  ProjectMeasuredLine,
} from '#contract/project-bills.ts'
import type { Cell } from '../../boq/write/table.ts'

/** A drawing's column of the summary: the drawing billed, at the version billed. */
export interface DrawingColumn {
  itemId: string
  header: string
}

export function drawingColumns(
  drawings: readonly { itemId: string; fileName: string; versionNumber: number }[],
): DrawingColumn[] {
  return drawings.map((one) => ({
    itemId: one.itemId,
    header: `${one.fileName} v${one.versionNumber}`,
  }))
}

/** Each drawing's quantity of the item, in the columns' order (null: it has none). */
export function drawingQuantities(item: ProjectItem, columns: readonly DrawingColumn[]): Cell[] {
  return columns.map(
    (column) => item.byDrawing.find((share) => share.itemId === column.itemId)?.quantity ?? null,
  )
}

/** Each drawing's quantity of the measured line, in the columns' order (null: it has none). */
export function measuredQuantities(
  line: ProjectMeasuredLine,
  columns: readonly DrawingColumn[],
): Cell[] {
  const shares = new Map(line.byDrawing.map((share) => [share.itemId, share.quantity]))
  return columns.map((column) => shares.get(column.itemId) ?? null)
}

/** A drawing's state in words, as the bill's page says it. */
export function stateText(drawing: BillDrawing): string {
  const said = {
    billed: 'Billed',
    'newer-version': 'Billed; a newer version has no bill yet',
    extracting: 'Extracting',
    failed: 'Failed',
    'no-bill': 'No bill yet',
    'other-units': 'Left out: other units',
  }[drawing.state]
  return drawing.reason ? `${said}: ${drawing.reason}` : said
}

/** What each drawing moved in an item: `L2.dwg v1 → v2: +0.5, +10` (a quantity, an amount). */
export function driversText(drivers: readonly ChangeDriver[]): string {
  return drivers
    .map((driver) => {
      const versions = `${versionText(driver.fromVersion)} → ${versionText(driver.toVersion)}`
      const amount = driver.amount === null ? '' : `, ${signed(driver.amount)}`
      return `${driver.fileName} ${versions}: ${signed(driver.quantity)}${amount}`
    })
    .join('; ')
}

function versionText(version: number | null): string {
  return version === null ? 'none' : `v${version}`
}

function signed(value: number): string {
  return value > 0 ? `+${value}` : String(value)
}

/** A side of a comparison in words: `issue 1 (Tender)`, or `now`. */
export function sideText(side: ProjectChangeBill['from']): string {
  return side.number === null ? 'now' : `issue ${side.number} (${side.name})`
}
