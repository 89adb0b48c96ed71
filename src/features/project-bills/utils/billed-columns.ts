import type { AssembledBill } from '#contract/project-bills.ts'

/** The drawings that gave figures, in the order they came: a column each. */
export function billedColumns(bill: AssembledBill) {
  return bill.drawings.filter(
    (drawing) =>
      drawing.versionNumber !== null &&
      (drawing.state === 'billed' || drawing.state === 'newer-version'),
  )
}
