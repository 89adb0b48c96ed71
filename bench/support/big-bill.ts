import { floorPlanBoq } from '#contract/testing/boq.ts'
import type { BillLine, Boq } from '../../server/boq/model/schema.ts'

/**
 * A bill of `lines` lines (40% counts, 30% linework, 30% areas), each with its breakdown and
 * entity handles; `shift` changes every seventh quantity, as a revision does.
 */
export function bigBill(lines: number, shift = 0): Boq {
  const bill: BillLine[] = []
  for (let i = 0; i < lines; i++) {
    const kind = i < lines * 0.4 ? 'count' : i < lines * 0.7 ? 'length' : 'area'
    const changed = shift > 0 && i % 7 === 0
    const quantity = (kind === 'count' ? 10 + (i % 50) : 100 + i / 10) + (changed ? shift : 0)
    bill.push({
      ref: `${kind === 'count' ? 'A' : kind === 'length' ? 'B' : 'C'}${i + 1}`,
      kind,
      description: kind === 'count' ? `Block ${i}` : `Linework on layer L${i}`,
      quantity,
      unit: kind === 'count' ? 'nr' : kind === 'length' ? 'm' : 'm²',
      ...(kind === 'count' ? { block: `Block ${i}` } : { layer: `L${i}` }),
      breakdown: [
        {
          label: `layer L${i}`,
          layer: `L${i}`,
          count: 3,
          quantity,
          handles: [`${i}A`, `${i}B`, `${i}C`],
        },
      ],
    })
  }
  return floorPlanBoq({ bill })
}
