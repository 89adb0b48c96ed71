import { lineworkDescription } from '../measure/linework-words.ts'
import type { BillBreakdownRow, BillLine } from '../model/schema.ts'

/**
 * A bill's lines as the engine bills linework now, one line per layer and kind. A bill kept when
 * a layer's linework was one line (its kinds in its breakdown) has that line split by kind, so
 * that its arcs meet the later bill's arcs: each part under its kind's words and the kept line's
 * number, which is where the earlier bill lists it. A line of one kind is kept as it is.
 */
export function lineworkByKind(bill: BillLine[]): BillLine[] {
  if (!bill.some(severalKinds)) return bill
  return bill.flatMap((line) => {
    if (!severalKinds(line)) return [line]
    const byKind = new Map<string, BillBreakdownRow[]>()
    for (const row of line.breakdown) {
      const kind = row.kind ?? ''
      byKind.set(kind, [...(byKind.get(kind) ?? []), row])
    }
    return [...byKind].map(([kind, rows]) => ({
      ...line,
      description: lineworkDescription(kind, line.layer ?? ''),
      quantity: rows.reduce((sum, row) => sum + row.quantity, 0),
      breakdown: rows,
    }))
  })
}

/** The kind of linework a line measures: its breakdown's (one kind once split). */
export function lineworkKind(line: BillLine): string {
  return line.breakdown[0]?.kind ?? ''
}

function severalKinds(line: BillLine): boolean {
  if (line.kind !== 'length' || line.breakdown.length < 2) return false
  const first = line.breakdown[0]?.kind
  return line.breakdown.some((row) => row.kind !== first)
}
