import { describe, expect, it } from 'vitest'
import { readDwgFixture } from '../../testing/boq/dwg-fixtures.ts'
import { fixture } from '../../testing/boq/fixtures.ts'
import type { Boq } from '../model/schema.ts'
import { extractBoq } from '../run/extract.ts'
import { createReader } from './libredwg.ts'

// r11_block.dwg (fixtures/drawings/make_r11_block.py): block BOX holds a line (0,0)-(3,4); model
// space holds a line (0,0)-(0,2) and one BOX at (10,0). The line BOX took from model space stays
// in the entities section flagged deleted, as R11 keeps it; LibreDWG reads it like any other.
describe('R11 block contents (r11_block.dwg)', () => {
  it('keeps the block’s line out of model space, deleted original included', async () => {
    const drawing = await readDwgFixture('r11_block.dwg')
    expect(drawing.entityCounts).toEqual({ LINE: 1, INSERT: 1 })
    expect(drawing.entities).toEqual([
      expect.objectContaining({ type: 'line', a: { x: 0, y: 0, z: 0 }, b: { x: 0, y: 2, z: 0 } }),
    ])
    expect(drawing.inserts).toEqual([expect.objectContaining({ block: 'BOX', x: 10, y: 0 })])
    expect(drawing.warnings).toEqual([])
  })

  it('gives the bill of its DXF twin: the block counted once, 2 units of linework', async () => {
    const bill = (name: string, boq: Boq) => ({
      name,
      bill: boq.bill.map(({ kind, description, quantity, unit }) => ({
        kind,
        description,
        quantity,
        unit,
      })),
      blocks: boq.blocks,
      lengths: boq.lengths,
      counts: boq.source.entityCounts,
    })
    const dwg = extractBoq(
      { bytes: fixture('r11_block.dwg'), fileName: 'r11_block.dwg' },
      await createReader(),
    )
    const dxf = extractBoq({ bytes: fixture('r11_block.dxf'), fileName: 'r11_block.dxf' }, null)
    expect(dwg.source.format).toBe('dwg')
    expect(dxf.source.format).toBe('dxf')
    expect(bill('twin', dwg)).toEqual(bill('twin', dxf))
    expect(dwg.blocks).toEqual([expect.objectContaining({ block: 'BOX', count: 1, nested: 0 })])
    expect(dwg.lengths).toEqual([expect.objectContaining({ kind: 'line', count: 1, length: 2 })])
  })

  it('states no units, as no R11 drawing does', async () => {
    expect((await readDwgFixture('r11_block.dwg')).insunits).toBe(0)
  })
})
