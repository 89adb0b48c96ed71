import { groupDescription, withGroups } from '#contract/bill-groups.ts'
import type { BillGroup } from '../model/schema.ts'
import type { Cell } from './table.ts'

/** A table's rows with the outline level of each: 1 for a group's rows, under its line. */
export type LeveledRows = { rows: Cell[][]; levels: number[] }

/**
 * Rows written with their groups: a group's line first (what it is and how many, `Pasted blocks
 * (27 kinds, 29 placed)`, and no quantity of its own, so that a sum of the column counts each
 * block once), then its rows one level in.
 */
export function groupedRows<Row>(
  rows: readonly Row[],
  groups: readonly BillGroup[],
  of: { line(row: Row): string; block(row: Row): string | undefined; quantity(row: Row): number },
  cells: (row: Row) => Cell[],
  width: number,
): LeveledRows {
  const out: LeveledRows = { rows: [], levels: [] }
  for (const entry of withGroups(rows, groups, of.line)) {
    if ('row' in entry) {
      out.rows.push(cells(entry.row))
      out.levels.push(0)
      continue
    }
    const kinds = new Set(entry.rows.map(of.block)).size
    const placed = entry.rows.reduce((sum, row) => sum + of.quantity(row), 0)
    const line: Cell[] = Array.from({ length: width }, () => null)
    line[1] = groupDescription(entry.group.name, kinds, placed)
    out.rows.push(line)
    out.levels.push(0)
    for (const row of entry.rows) {
      out.rows.push(cells(row))
      out.levels.push(1)
    }
  }
  return out
}
