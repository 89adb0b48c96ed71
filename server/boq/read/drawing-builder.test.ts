import { describe, expect, it } from 'vitest'
import { fixture } from '../../testing/boq/fixtures.ts'
import type { Drawing, InsertRef } from '../model/drawing.ts'
import { DrawingBuilder } from './drawing-builder.ts'
import { readDwg } from './dwg-reader.ts'
import { readDxf } from './dxf-reader.ts'
import { createReader } from './libredwg.ts'

function ref(block: string, attributes: InsertRef['attributes'] = []): InsertRef {
  return {
    block,
    definition: block,
    handle: '1',
    layer: '0',
    count: 1,
    x: 0,
    y: 0,
    attributes,
    properties: {},
  }
}

const LOOP_WARNING = (block: string) =>
  `Block "${block}" contains itself; the reference that closes the loop is counted but not followed.`

describe('DrawingBuilder', () => {
  it('reads each definition once, keyed in the order definitions are first met', () => {
    const builder = new DrawingBuilder('dxf', 'AC1032')
    const reads: string[] = []
    const definition = (name: string, inside: string[]) =>
      builder.definition(name, name, () => {
        reads.push(name)
        for (const child of inside) definition(child, [])
        return inside.map((child) => ref(child))
      })
    definition('OUTER', ['INNER'])
    definition('OUTER', ['INNER'])
    definition('INNER', [])
    const drawing = builder.finish()
    expect(reads).toEqual(['OUTER', 'INNER'])
    expect([...drawing.nestedInserts.keys()]).toEqual(['OUTER', 'INNER'])
    expect(drawing.nestedInserts.get('OUTER')?.map((r) => r.block)).toEqual(['INNER'])
  })

  it('cuts a definition that contains itself and says so once', () => {
    const builder = new DrawingBuilder('dwg', 'AC1032')
    let reads = 0
    const self = (): void =>
      builder.definition('*U3', 'Door', () => {
        reads++
        self()
        self()
        return [ref('Door')]
      })
    self()
    self()
    const drawing = builder.finish()
    expect(reads).toBe(1)
    expect(drawing.nestedInserts.get('*U3')).toEqual([ref('Door')])
    expect(drawing.warnings.filter((w) => w.includes('contains itself'))).toEqual([
      LOOP_WARNING('Door'),
    ])
  })

  it('warns of an empty model space last, and only when nothing was counted', () => {
    const empty = new DrawingBuilder('dwg', 'AC1032')
    empty.warn('first')
    empty.paperSpace(3)
    expect(empty.finish().warnings).toEqual([
      'first',
      expect.stringContaining('Model space is empty'),
    ])
    const counted = new DrawingBuilder('dwg', 'AC1032')
    counted.count('TEXT')
    counted.skip('TEXT')
    expect(counted.finish().warnings).toEqual([])
  })

  it('lists what is not measured by type, with its reason', () => {
    const builder = new DrawingBuilder('dxf', 'AC1032')
    builder.skip('TEXT')
    builder.skip('TEXT')
    builder.skip('LINE', 'not readable')
    builder.graphicsReference('INSERT', '*X12')
    builder.graphicsReference('MINSERT', '')
    expect([...builder.finish().skipped]).toEqual([
      ['TEXT', { count: 2, reason: 'text: no quantity' }],
      ['LINE', { count: 1, reason: 'not readable' }],
      ['INSERT *X', { count: 1, reason: expect.stringContaining('anonymous block') }],
      ['MINSERT (unnamed)', { count: 1, reason: expect.stringContaining('anonymous block') }],
    ])
  })

  it('keeps the reference most like a title block, the first of equals', () => {
    const builder = new DrawingBuilder('dwg', 'AC1032')
    const tags = (...names: string[]) => names.map((tag) => ({ tag, value: tag.toLowerCase() }))
    builder.titleBlockCandidate('DOOR', tags('WIDTH'))
    builder.titleBlockCandidate('A1-FRAME', tags('TITLE', 'DATE'))
    builder.titleBlockCandidate('A3-FRAME', tags('SCALE', 'DRAWN'))
    builder.titleBlockCandidate('SHEET', tags('NOTE'))
    expect(builder.finish().titleBlock).toEqual({
      block: 'A1-FRAME',
      attributes: { TITLE: 'title', DATE: 'date' },
    })
  })
})

/** What both readers can know alike: everything but the geometry's floating-point digits. */
function comparable(drawing: Drawing) {
  const place = (r: { x: number; y: number }) => ({ x: r.x.toFixed(6), y: r.y.toFixed(6) })
  const refs = (list: InsertRef[]) => list.map((r) => ({ ...r, ...place(r) }))
  return {
    insunits: drawing.insunits,
    entities: drawing.entities.map((e) => [e.type, e.handle, e.layer]),
    inserts: refs(drawing.inserts),
    // In order: the builder gives both readers one order of definitions.
    nestedInserts: [...drawing.nestedInserts].map(([name, list]) => [name, refs(list)]),
    xrefs: drawing.xrefs.map((r) => ({ ...r, ...place(r) })),
    entityCounts: drawing.entityCounts,
    paperSpaceEntities: drawing.paperSpaceEntities,
    skipped: [...drawing.skipped],
    warnings: drawing.warnings,
    titleBlock: drawing.titleBlock,
  }
}

describe('the DWG and DXF readers', () => {
  it('give one model for a drawing and its DXF twin (example_2018)', async () => {
    const dwg = readDwg(await createReader(), fixture('example_2018.dwg'), 'AC1032')
    const dxf = readDxf(fixture('example_2018.dxf'))
    expect(dwg.nestedInserts.size).toBeGreaterThan(1)
    expect(comparable(dxf)).toEqual(comparable(dwg))
  })
})
