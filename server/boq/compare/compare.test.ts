import { describe, expect, it } from 'vitest'
import { DxfWriter } from '../../testing/boq/dxf-writer.ts'
import { fixture } from '../../testing/boq/fixtures.ts'
import type { BillOptions, Boq } from '../model/schema.ts'
import { createBoqEngine } from '../run/engine.ts'
import { extractBoq } from '../run/extract.ts'
import { compareBills } from './compare.ts'

function boqOf(writer: DxfWriter, options?: BillOptions): Boq {
  const bytes = new TextEncoder().encode(writer.toString())
  return extractBoq({ bytes, fileName: 'plan.dxf', options }, null)
}

/**
 * A floor in millimetres: `doors` doors and `windows` windows, walls of the given lengths on
 * Walls, a 1,000 × 1,000 slab on Slabs.
 */
function floor(options: { doors: number; windows: number; walls: number[]; sinks?: number }) {
  const w = new DxfWriter()
  w.insunits = 4
  w.block('DOOR', (to, owner) => w.line(to, owner, '0', [0, 0], [900, 0]))
  w.block('WINDOW', (to, owner) => w.line(to, owner, '0', [0, 0], [1200, 0]))
  w.block('SINK', (to, owner) => w.circle(to, owner, '0', [0, 0], 200))
  const { to, owner } = w.target('model')
  for (let i = 0; i < options.doors; i++) w.insert(to, owner, 'Doors', 'DOOR', [i * 1000, 0])
  for (let i = 0; i < options.windows; i++)
    w.insert(to, owner, 'Windows', 'WINDOW', [i * 1500, 5000])
  for (let i = 0; i < (options.sinks ?? 0); i++) w.insert(to, owner, 'Fittings', 'SINK', [i, 9000])
  options.walls.forEach((length, i) => {
    w.line(to, owner, 'Walls', [0, i * 100], [length, i * 100])
  })
  const slab = [
    { x: 0, y: 0 },
    { x: 1000, y: 0 },
    { x: 1000, y: 1000 },
    { x: 0, y: 1000 },
  ]
  w.lwpolyline(to, owner, 'Slabs', slab, true)
  return w
}

describe('compareBills', () => {
  const before = boqOf(floor({ doors: 12, windows: 5, walls: [4000, 6000] }))
  const after = boqOf(floor({ doors: 9, windows: 5, walls: [4000, 6000, 2500], sinks: 1 }))

  it('gives each item of either bill with its figures before and after, largest change first', () => {
    const { lines, units, notes } = compareBills(before, after)
    expect(units).toEqual({ length: 'm', area: 'm²' })
    expect(notes).toEqual([])
    const pick = ({ description, unit, before, after, change, state }: (typeof lines)[number]) => ({
      description,
      unit,
      before,
      after,
      change,
      state,
    })
    expect(lines.map(pick)).toEqual([
      { description: 'SINK', unit: 'nr', before: 0, after: 1, change: 1, state: 'added' },
      { description: 'DOOR', unit: 'nr', before: 12, after: 9, change: -3, state: 'changed' },
      {
        description: 'Lines on layer Walls',
        unit: 'm',
        before: 10,
        after: 12.5,
        change: 2.5,
        state: 'changed',
      },
      expect.objectContaining({ description: 'WINDOW', change: 0, state: 'unchanged' }),
      expect.objectContaining({ description: 'Polylines on layer Slabs', state: 'unchanged' }),
      expect.objectContaining({ description: 'Area on layer Slabs', state: 'unchanged' }),
    ])
    const doors = lines.find((line) => line.block === 'DOOR')
    expect(doors?.changePercent).toBe(-25)
    expect(lines.find((line) => line.layer === 'Walls')?.changePercent).toBeCloseTo(25, 9)
    expect(lines.find((line) => line.block === 'SINK')?.changePercent).toBeNull()
  })

  it('lists an item only the older bill has as removed, in the newer bill units', () => {
    const { lines } = compareBills(after, before)
    expect(lines[0]).toMatchObject({
      block: 'SINK',
      before: 1,
      after: 0,
      change: -1,
      state: 'removed',
    })
  })

  it('names the entities only one drawing has, a reference at the same place under a new handle in neither', () => {
    const { entities } = compareBills(before, after)
    const at = (boq: Boq, block: string) =>
      boq.references.filter((r) => r.block === block).map((r) => `${r.x},${r.y}:${r.handle}`)
    // Fewer doors before them give the windows new handles: the same windows all the same.
    expect(at(after, 'WINDOW')).not.toEqual(at(before, 'WINDOW'))
    const windows = [...before.references, ...after.references]
      .filter((r) => r.block === 'WINDOW')
      .map((r) => r.handle)
    expect(
      windows.filter((h) => entities.added.includes(h) || entities.removed.includes(h)),
    ).toEqual([])
    // The rest by handle: each added one only the newer bill names, each removed only the older.
    const named = (boq: Boq) => boq.bill.flatMap((l) => l.breakdown.flatMap((r) => r.handles))
    expect(entities.added.filter((h) => named(before).includes(h))).toEqual([])
    expect(entities.added.every((h) => named(after).includes(h))).toBe(true)
    expect(entities.removed.length).toBeGreaterThan(0)
    expect(entities.removed.filter((h) => named(after).includes(h))).toEqual([])
    expect(compareBills(before, before).entities).toEqual({ added: [], removed: [] })
  })

  it('gives each line its own item number: a removed one its old number marked, an added one a number neither bill uses', () => {
    // Blocks and layers sort by name: DOOR is A1 and Slabs B1 before; SINK A1 and Beams B1 after.
    const drawing = (blocks: string[], layers: string[]) => {
      const w = new DxfWriter()
      w.insunits = 4
      for (const name of ['DOOR', 'SINK', 'WINDOW'])
        w.block(name, (to, owner) => w.line(to, owner, '0', [0, 0], [900, 0]))
      const { to, owner } = w.target('model')
      for (const [i, name] of blocks.entries()) w.insert(to, owner, 'Fittings', name, [i * 1000, 0])
      for (const [i, layer] of layers.entries())
        w.line(to, owner, layer, [0, i * 100], [1000, i * 100])
      return boqOf(w)
    }
    const older = drawing(['DOOR', 'WINDOW'], ['Walls', 'Slabs', 'Roof'])
    const newer = drawing(['WINDOW', 'SINK'], ['Beams', 'Slabs', 'Roof', 'Stairs'])
    const refs = (boq: Boq) => boq.bill.map((line) => `${line.ref} ${line.description}`)
    expect(refs(older)).toEqual([
      'A1 DOOR',
      'A2 WINDOW',
      'B1 Lines on layer Roof',
      'B2 Lines on layer Slabs',
      'B3 Lines on layer Walls',
    ])
    expect(refs(newer)).toEqual([
      'A1 SINK',
      'A2 WINDOW',
      'B1 Lines on layer Beams',
      'B2 Lines on layer Roof',
      'B3 Lines on layer Slabs',
      'B4 Lines on layer Stairs',
    ])
    const { lines } = compareBills(older, newer)
    const numbered = Object.fromEntries(lines.map((line) => [line.description, line.ref]))
    expect(numbered).toEqual({
      // Removed: the older bill's number, marked.
      DOOR: 'A1 (removed)',
      'Lines on layer Walls': 'B3 (removed)',
      // Added where the older bill had the number for another item: past both bills' numbers.
      SINK: 'A3',
      'Lines on layer Beams': 'B5',
      // Added on a number the older bill never used: the newer bill's.
      'Lines on layer Stairs': 'B4',
      // In both: the newer bill's number.
      WINDOW: 'A2',
      'Lines on layer Roof': 'B2',
      'Lines on layer Slabs': 'B3',
    })
    expect(new Set(lines.map((line) => line.ref)).size).toBe(lines.length)
    const added = lines.filter((line) => line.state === 'added' && line.ref !== 'B4')
    const used = new Set([...older.bill, ...newer.bill].map((line) => line.ref))
    expect(added.filter((line) => used.has(line.ref))).toEqual([])
  })

  it('leaves out a line of 0 a bill kept from before may hold: neither added nor removed', () => {
    const kept = (boq: Boq): Boq => ({
      ...boq,
      bill: [
        ...boq.bill,
        { ...(boq.bill.at(-1) as Boq['bill'][number]), layer: 'Empty', quantity: 0 },
      ],
    })
    const { lines } = compareBills(kept(before), kept(after))
    expect(lines.map((line) => line.layer)).not.toContain('Empty')
    expect(lines).toHaveLength(compareBills(before, after).lines.length)
  })

  it('finds every line unchanged between identical drawings', () => {
    const again = boqOf(floor({ doors: 12, windows: 5, walls: [4000, 6000] }))
    const { lines } = compareBills(before, again)
    expect(lines).toHaveLength(before.bill.length)
    expect(lines.every((line) => line.state === 'unchanged' && line.change === 0)).toBe(true)
    expect(compareBills(before, again).notes).toEqual([])
  })

  it('puts the older bill in the newer bill units, and says so', () => {
    const imperial = boqOf(floor({ doors: 12, windows: 5, walls: [4000, 6000] }), {
      units: 'imperial',
    })
    const { lines, units, notes } = compareBills(imperial, before)
    expect(units).toEqual({ length: 'm', area: 'm²' })
    expect(notes).toEqual([
      'The earlier bill is in ft and ft²; its figures are converted to m and m².',
    ])
    expect(lines.every((line) => line.state === 'unchanged')).toBe(true)
    expect(lines.find((line) => line.layer === 'Walls')?.before).toBeCloseTo(10, 9)
  })

  it('matches a kept bill of one linework line per layer with the lines per kind, kind by kind', async () => {
    const engine = createBoqEngine({ workers: 1 })
    try {
      const now = await engine.extract({ bytes: fixture('example_2018.dwg'), fileName: 'a.dwg' })
      const kept = keptPerLayer(now)
      const table = kept.bill.find((line) => line.description === 'Linework on layer Tavolo 2')
      expect(table?.breakdown.map((row) => row.kind)).toEqual(['arc', 'polyline', 'spline'])
      const { lines } = compareBills(kept, now)
      expect(lines.filter((line) => line.state !== 'unchanged')).toEqual([])
      const tavolo = lines.filter((line) => line.layer === 'Tavolo 2' && line.kind === 'length')
      expect(tavolo.map((l) => l.description)).toEqual([
        'Arcs on layer Tavolo 2',
        'Polylines on layer Tavolo 2',
        'Splines on layer Tavolo 2',
      ])
      // A kind the kept bill has and the newer one not: removed, under the kept line's number.
      const noSplines: Boq = {
        ...now,
        bill: now.bill.filter((l) => l.description !== 'Splines on layer Tavolo 2'),
      }
      const removed = compareBills(kept, noSplines).lines.filter((l) => l.state !== 'unchanged')
      expect(removed.map((l) => [l.ref, l.description, l.state])).toEqual([
        [`${table?.ref} (removed)`, 'Splines on layer Tavolo 2', 'removed'],
      ])
      // And the other way round: what the newer bill has past the kept one is added.
      const added = compareBills(keptPerLayer(noSplines), now).lines
      expect(added.filter((l) => l.state !== 'unchanged').map((l) => l.description)).toEqual([
        'Splines on layer Tavolo 2',
      ])
    } finally {
      await engine.close()
    }
  })

  it('finds no change between a DWG and its DXF twin', async () => {
    const engine = createBoqEngine({ workers: 1 })
    try {
      const dwg = await engine.extract({ bytes: fixture('example_2018.dwg'), fileName: 'a.dwg' })
      const dxf = await engine.extract({ bytes: fixture('example_2018.dxf'), fileName: 'a.dxf' })
      const { lines, notes } = compareBills(dwg, dxf)
      expect(lines.length).toBeGreaterThan(0)
      expect(lines.filter((line) => line.state !== 'unchanged')).toEqual([])
      // The splines the two files keep differently (fit points, control points) are within the
      // tolerance, and said so.
      expect(notes).toEqual([expect.stringMatching(/^\d+ lines? differs? by less than 0\.05%/)])
    } finally {
      await engine.close()
    }
  })
})

/** A bill as kept before linework was billed by kind: one line per layer, its kinds its rows. */
function keptPerLayer(boq: Boq): Boq {
  const others = boq.bill.filter((line) => line.kind !== 'length')
  const layers = new Map<string, Boq['bill'][number]>()
  for (const line of boq.bill) {
    if (line.kind !== 'length') continue
    const layer = line.layer ?? ''
    const was = layers.get(layer)
    if (was) {
      was.breakdown = [...was.breakdown, ...line.breakdown]
      was.quantity += line.quantity
    } else layers.set(layer, { ...line, description: `Linework on layer ${layer}` })
  }
  const linework = [...layers.values()].map((line, i) => ({ ...line, ref: `B${i + 1}` }))
  const areas = others.filter((line) => line.kind === 'area')
  return { ...boq, bill: [...others.filter((l) => l.kind === 'count'), ...linework, ...areas] }
}
