import { describe, expect, it } from 'vitest'
import type { BillLine, Boq, BoqReference } from '../model/schema.ts'
import { changedEntities } from './changed-entities.ts'

/** A reference to `block` at (x, y). */
function placed(handle: string, block: string, x: number, y: number): BoqReference {
  const fields = { layer: '0', count: 1, attributes: {}, properties: {}, nested: [] }
  return { handle, block, definition: block, x, y, ...fields }
}

/** A bill counting these references (by block) and measuring these lines on layer Walls. */
function bill(references: BoqReference[], walls: string[] = []): Boq {
  const rows = (handles: string[]) => [
    { label: 'layer 0', layer: '0', count: handles.length, quantity: 1, handles },
  ]
  const blocks = [...new Set(references.map((r) => r.block))]
  const lines: BillLine[] = blocks.map((block, i) => ({
    ref: `A${i + 1}`,
    kind: 'count',
    description: block,
    quantity: 1,
    unit: 'nr',
    block,
    breakdown: rows(references.filter((r) => r.block === block).map((r) => r.handle)),
  }))
  if (walls.length > 0) {
    lines.push({
      ref: 'B1',
      kind: 'length',
      description: 'Linework on layer Walls',
      quantity: walls.length,
      unit: 'm',
      layer: 'Walls',
      breakdown: rows(walls),
    })
  }
  return { bill: lines, references } as unknown as Boq
}

describe('changedEntities', () => {
  it('finds the handles only the newer bill has added and those only the older has removed', () => {
    const before = bill([placed('A1', 'DOOR', 0, 0), placed('A2', 'DOOR', 10, 0)], ['L1', 'L2'])
    const after = bill([placed('A1', 'DOOR', 0, 0), placed('A3', 'SINK', 5, 5)], ['L2', 'L3'])
    expect(changedEntities(before, after)).toEqual({ added: ['A3', 'L3'], removed: ['A2', 'L1'] })
  })

  it('takes a reference of the same block at the same place under a new handle as no change', () => {
    const before = bill([placed('A1', 'DOOR', 1000.5, -20), placed('A2', 'DOOR', 3000, 0)])
    const after = bill([placed('B7', 'DOOR', 1000.5 + 1e-7, -20), placed('A2', 'DOOR', 3000, 0)])
    expect(changedEntities(before, after)).toEqual({ added: [], removed: [] })
  })

  it('keeps a reference moved away, or another block in the same place, as added and removed', () => {
    const before = bill([placed('A1', 'DOOR', 0, 0), placed('A2', 'DOOR', 50, 0)])
    const after = bill([placed('B1', 'DOOR', 0, 0.01), placed('B2', 'WINDOW', 50, 0)])
    expect(changedEntities(before, after)).toEqual({
      added: ['B1', 'B2'],
      removed: ['A1', 'A2'],
    })
  })

  it('matches each older reference once, two new ones on one old place leaving one added', () => {
    const before = bill([placed('A1', 'DOOR', 7, 7)])
    const after = bill([placed('B1', 'DOOR', 7, 7), placed('B2', 'DOOR', 7, 7)])
    expect(changedEntities(before, after)).toEqual({ added: ['B2'], removed: [] })
  })

  it('matches linework by handle alone: it has no position in the bill', () => {
    expect(changedEntities(bill([], ['L1']), bill([], ['L9']))).toEqual({
      added: ['L9'],
      removed: ['L1'],
    })
  })
})
