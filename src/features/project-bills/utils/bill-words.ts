import type { BillDrawing, ProjectChangeBill } from '#contract/project-bills.ts'
import { formatAmount, formatItemQuantity } from '../../../lib/format-amount'

/** What a drawing of the bill is, in words. */
export const STATE_WORDS: Record<BillDrawing['state'], string> = {
  billed: 'Billed',
  'newer-version': 'Newer version not billed yet',
  extracting: 'Extracting',
  failed: 'Failed',
  'no-bill': 'No bill yet',
  'other-units': 'Left out: other units',
}

/** An amount with its sign: `+10.00`, `−10.00`. */
export function signed(value: number, format: (value: number) => string = formatAmount): string {
  const shown = format(Math.abs(value))
  return value < 0 ? `−${shown}` : `+${shown}`
}

/**
 * What came in, drawing by drawing: `L2.dwg version 2: Pipe +0.50 m, +10.00` for each item a
 * drawing's new version moved (a line per drawing and item).
 */
export function changeLines(changes: ProjectChangeBill): string[] {
  return changes.items.flatMap((item) =>
    item.drivenBy.map((driver) => {
      const version = driver.toVersion === null ? 'left the bill' : `version ${driver.toVersion}`
      const amount = driver.amount === null ? '' : `, ${signed(driver.amount)}`
      return `${driver.fileName} ${version}: ${item.description} ${signed(driver.quantity, formatItemQuantity)} ${item.unit}${amount}`
    }),
  )
}

/** The drawings an extraction can be asked for in one click: those with no bill yet. */
export function unbilled(drawings: readonly BillDrawing[]): BillDrawing[] {
  return drawings.filter(
    (drawing) =>
      (drawing.state === 'no-bill' || drawing.state === 'newer-version') &&
      drawing.newestStorageId &&
      drawing.folderId,
  )
}
