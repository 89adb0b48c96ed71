import { describe, expect, it } from 'vitest'
import type { LocationRow } from '#contract/locations.ts'
import { DxfWriter } from '../../testing/boq/dxf-writer.ts'
import { expectLinesAddUp } from '../../testing/boq/locations.ts'
import type { BillLine, Boq } from '../model/schema.ts'
import { priceWithTables } from '../price/price.ts'
import { extractBoq } from '../run/extract.ts'

const ROOMS: LocationRow[] = [{ layer: 'A-AREA', label: 'text' }]

function boqOf(writer: DxfWriter, locations: LocationRow[] = ROOMS): Boq {
  const bytes = new TextEncoder().encode(writer.toString())
  return extractBoq({ bytes, fileName: 'plan.dxf', locations }, null)
}

type Pairs = (string | number)[]

/** A line's quantities by zone id ("null" for unallocated). */
function byZoneOf(line: BillLine | undefined): Record<string, number> {
  return Object.fromEntries((line?.byZone ?? []).map((p) => [String(p.zone), p.quantity]))
}

function text(
  w: DxfWriter,
  to: Pairs,
  owner: string,
  layer: string,
  at: [number, number],
  words: string,
) {
  return w.entity(to, owner, layer, 'TEXT', 'AcDbText', [
    10,
    at[0],
    20,
    at[1],
    30,
    0,
    40,
    250,
    1,
    words,
  ])
}

function rect(x: number, y: number, width: number, height: number) {
  return [
    { x, y },
    { x: x + width, y },
    { x: x + width, y: y + height },
    { x, y: y + height },
  ]
}

/**
 * A flat in millimetres: a level outline (0..10 m × 0..5 m) holding a kitchen (0..4 m) and a
 * living room (4..10 m); a chair in each room and one outside; a pipe from the kitchen into the
 * living room and beyond; a screed hatch over both rooms.
 */
function flat() {
  const w = new DxfWriter()
  w.insunits = 4
  w.block('CHAIR', (to, owner) => w.circle(to, owner, '0', [0, 0], 200))
  const { to, owner } = w.target('model')
  w.lwpolyline(to, owner, 'A-AREA', rect(0, 0, 10_000, 5000), true)
  w.lwpolyline(to, owner, 'A-AREA', rect(0, 0, 4000, 5000), true)
  w.lwpolyline(to, owner, 'A-AREA', rect(4000, 0, 6000, 5000), true)
  text(w, to, owner, 'A-TEXT', [2000, 2500], 'Kitchen')
  text(w, to, owner, 'A-TEXT', [7000, 2500], 'Living')
  w.insert(to, owner, 'Furniture', 'CHAIR', [1000, 1000])
  w.insert(to, owner, 'Furniture', 'CHAIR', [6000, 1000])
  w.insert(to, owner, 'Furniture', 'CHAIR', [20_000, 1000])
  w.line(to, owner, 'Pipes', [2000, 4000], [14_000, 4000])
  w.hatch(to, owner, 'Screed', [{ polyline: rect(1000, 500, 6000, 1000) }])
  return w
}

describe('locations', () => {
  it('finds the zones, nested by containment, named by the text inside', () => {
    const boq = boqOf(flat())
    const zones = boq.zones ?? []
    expect(zones.map((z) => [z.path, z.area, z.perimeter, z.label.source])).toEqual([
      ['Unnamed zone 1', 50, 30, 'none'],
      ['Unnamed zone 1 › Kitchen', 20, 18, 'text'],
      ['Unnamed zone 1 › Living', 30, 22, 'text'],
    ])
    expect(boq.warnings).toContain('1 zone has no label inside: named Unnamed zone 1.')
  })

  it('lists the zones by path, level by level, numbers in names in natural order', () => {
    const w = new DxfWriter()
    w.insunits = 4
    const { to, owner } = w.target('model')
    const room = (i: number, name?: string) => {
      w.lwpolyline(to, owner, 'A-AREA', rect(i * 2000, 0, 1000, 1000), true)
      if (name) text(w, to, owner, 'A-TEXT', [i * 2000 + 500, 500], name)
    }
    // A holds Z; AB beside it sorts after A's own zones, not between A and Z.
    w.lwpolyline(to, owner, 'A-AREA', rect(0, 5000, 4000, 4000), true)
    text(w, to, owner, 'A-TEXT', [500, 5500], 'A')
    w.lwpolyline(to, owner, 'A-AREA', rect(2000, 7000, 1000, 1000), true)
    text(w, to, owner, 'A-TEXT', [2500, 7500], 'Z')
    room(20, 'AB')
    room(21, 'Room 10')
    room(22, 'Room 9')
    for (let i = 0; i < 11; i++) room(i)
    const zones = boqOf(w).zones ?? []
    expect(zones.map((z) => z.path)).toEqual([
      'A',
      'A › Z',
      'AB',
      'Room 9',
      'Room 10',
      ...Array.from({ length: 11 }, (_, i) => `Unnamed zone ${i + 1}`),
    ])
    expect(zones.map((z) => z.id)).toEqual(zones.map((_, i) => `Z${i + 1}`))
    // Unnamed zones numbered in the drawing's order (their handles' order, as DxfWriter gives them).
    const drawn = zones.slice(5).map((z) => Number.parseInt(z.handle, 16))
    expect(drawn).toEqual([...drawn].sort((a, b) => a - b))
  })

  it('gives each reference to the zone holding its insertion point, linework and areas by their parts', () => {
    const boq = boqOf(flat())
    const id = (path: string) => boq.zones?.find((z) => z.path.endsWith(path))?.id
    const line = (description: string) => boq.bill.find((l) => l.description.includes(description))
    expect(line('CHAIR')?.byZone).toEqual([
      { zone: id('Kitchen'), quantity: 1 },
      { zone: id('Living'), quantity: 1 },
      { zone: null, quantity: 1 },
    ])
    const pipe = line('Pipes')?.byZone ?? []
    expect(pipe.map((p) => p.zone)).toEqual([id('Kitchen'), id('Living'), null])
    expect(pipe.map((p) => p.quantity)).toEqual([
      expect.closeTo(2, 6),
      expect.closeTo(6, 6),
      expect.closeTo(4, 6),
    ])
    const screed = line('Screed')?.byZone ?? []
    expect(screed.map((p) => [p.zone, p.quantity])).toEqual([
      [id('Kitchen'), expect.closeTo(3, 6)],
      [id('Living'), expect.closeTo(3, 6)],
    ])
    expect(boq.references.map((r) => r.zone)).toEqual([id('Kitchen'), id('Living'), null])
    expectLinesAddUp(boq)
  })

  it('gives the zone outlines themselves to their zones, never twice along a shared wall', () => {
    const boq = boqOf(flat())
    const id = (path: string) => boq.zones?.find((z) => z.path.endsWith(path))?.id
    const outlines = boq.bill.find((l) => l.kind === 'length' && l.layer === 'A-AREA')
    expect(outlines?.quantity).toBeCloseTo(70, 9)
    const parts = byZoneOf(outlines)
    // The shared wall (5 m of the living room's outline) goes to the first in the drawing of the
    // two rooms; the level's outline runs along the rooms' outer walls, which the rooms (deeper)
    // take: the kitchen 4 + 5 + 4 m of it, the living room 6 + 5 + 6 m.
    expect(parts[id('Kitchen') ?? '']).toBeCloseTo(18 + 5 + 13, 6)
    expect(parts[id('Living') ?? '']).toBeCloseTo(17 + 17, 6)
    expect(parts[id('Unnamed zone 1') ?? '']).toBeUndefined()
    expect(Object.values(parts).reduce((a, b) => a + b, 0)).toBeCloseTo(70, 9)
    expectLinesAddUp(boq)
  })

  it('gives each priced item its quantity by zone, from the pieces that made it', () => {
    const boq = boqOf(flat())
    const id = (path: string) => boq.zones?.find((z) => z.path.endsWith(path))?.id
    const priced = priceWithTables(boq, {
      rules: [
        { match: 'count', block: 'CHAIR', code: '1', description: 'Chairs', rate: 50 },
        { match: 'length', layer: 'Pipes', code: '2', description: 'Pipe', quantity: 'length * 2' },
        {
          match: 'area',
          layer: 'Screed',
          code: '3',
          description: 'Screed edge',
          unit: 'm',
          quantity: 'perimeter',
        },
      ],
      classification: [],
    })
    const item = (description: string) => priced.items.find((i) => i.description === description)
    expect(item('Chairs')?.byZone).toEqual([
      { zone: id('Kitchen'), quantity: 1 },
      { zone: id('Living'), quantity: 1 },
      { zone: null, quantity: 1 },
    ])
    expect(item('Pipe')?.byZone?.map((p) => [p.zone, p.quantity])).toEqual([
      [id('Kitchen'), expect.closeTo(4, 6)],
      [id('Living'), expect.closeTo(12, 6)],
      [null, expect.closeTo(8, 6)],
    ])
    // The screed's boundary (6 × 1 m) clipped by the rooms: 3 + 1 + 3 m in each.
    expect(item('Screed edge')?.byZone?.map((p) => [p.zone, p.quantity])).toEqual([
      [id('Kitchen'), expect.closeTo(7, 6)],
      [id('Living'), expect.closeTo(7, 6)],
    ])
    for (const each of priced.items) {
      const sum = (each.byZone ?? []).reduce((total, part) => total + part.quantity, 0)
      expect(sum).toBeCloseTo(each.measuredQuantity, 9)
    }
  })

  it('gives a finely drawn room its part of what crosses it, and the room around it the rest', () => {
    // A revision cloud 4 × 4 m of 100 bumps a side (8,000 segments flattened), a hole of the
    // 10 × 10 m floor holding it; a pipe from the floor into the cloud, a duct across the floor's
    // wall far from it.
    const w = new DxfWriter()
    w.insunits = 4
    const { to, owner } = w.target('model')
    w.lwpolyline(to, owner, 'A-AREA', rect(0, 0, 10_000, 10_000), true)
    const bumps: { x: number; y: number; bulge: number }[] = []
    for (const [x, y, dx, dy] of [
      [3000, 3000, 1, 0],
      [7000, 3000, 0, 1],
      [7000, 7000, -1, 0],
      [3000, 7000, 0, -1],
    ])
      for (let k = 0; k < 100; k++)
        bumps.push({ x: x + dx * 40 * k, y: y + dy * 40 * k, bulge: -0.5 })
    w.lwpolyline(to, owner, 'A-AREA-CLOUD', bumps, true)
    text(w, to, owner, 'A-TEXT', [5000, 5000], 'Cloud')
    text(w, to, owner, 'A-TEXT', [1000, 1000], 'Floor')
    w.line(to, owner, 'Pipes', [1000, 5000], [5000, 5000])
    w.line(to, owner, 'Ducts', [500, 9000], [12_500, 9000])
    const boq = boqOf(w, [{ layer: 'A-AREA*', label: 'text' }])
    expect(boq.zones?.map((z) => z.path)).toEqual(['Floor', 'Floor › Cloud'])
    const id = (name: string) => String(boq.zones?.find((z) => z.name === name)?.id)
    const parts = (layer: string) =>
      byZoneOf(boq.bill.find((l) => l.kind === 'length' && l.layer === layer))
    // The cloud's edge meets the pipe at a vertex: 2 m each side of it.
    expect(parts('Pipes')).toEqual({
      [id('Floor')]: expect.closeTo(2, 6),
      [id('Cloud')]: expect.closeTo(2, 6),
    })
    expect(parts('Ducts')).toEqual({
      [id('Floor')]: expect.closeTo(9.5, 6),
      null: expect.closeTo(2.5, 6),
    })
    expect(parts('A-AREA')).toEqual({ [id('Floor')]: expect.closeTo(40, 6) })
    expectLinesAddUp(boq)
  })

  it('gives linework running along a boundary to one zone, never to none', () => {
    // Three rows of three rooms, 4 × 4 m, their outlines measured as linework; a wall drawn on
    // the line two rooms share, a slanting one on the edge of a round room, and a round room's
    // own outline.
    const w = new DxfWriter()
    w.insunits = 4
    const { to, owner } = w.target('model')
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) {
        w.lwpolyline(to, owner, 'A-AREA', rect(i * 4000, j * 4000, 4000, 4000), true)
        text(w, to, owner, 'A-TEXT', [i * 4000 + 1000, j * 4000 + 1000], `Room ${i}${j}`)
      }
    w.circle(to, owner, 'A-AREA', [20_000, 2000], 1500)
    text(w, to, owner, 'A-TEXT', [20_000, 2000], 'Round')
    w.line(to, owner, 'Walls', [4000, 500], [4000, 3500])
    w.lwpolyline(
      to,
      owner,
      'Walls',
      [
        { x: 0, y: 12_000 },
        { x: 12_000, y: 12_000 },
      ],
      false,
    )
    const boq = boqOf(w)
    expect(boq.zones).toHaveLength(10)
    const id = (name: string) => String(boq.zones?.find((z) => z.name === name)?.id)
    const parts = (layer: string, kind: string) =>
      byZoneOf(boq.bill.find((l) => l.layer === layer && l.description.startsWith(kind)))
    const outlines = parts('A-AREA', 'Polylines')
    expect(outlines.null).toBeUndefined()
    // A side two rooms share goes to the first of them in the drawing: Room 00 keeps all its own
    // outline and takes the sides Room 01 and Room 10 share with it.
    expect(outlines[id('Room 00')]).toBeCloseTo(16 + 4 + 4, 6)
    expect(Object.values(outlines).reduce((a, b) => a + b, 0)).toBeCloseTo(9 * 16, 6)
    expect(parts('A-AREA', 'Circles')).toEqual({
      [id('Round')]: expect.closeTo((3000 * Math.PI) / 1000, 6),
    })
    // On the line Room 00 and Room 10 share: the first of them takes it.
    expect(parts('Walls', 'Lines')).toEqual({ [id('Room 00')]: expect.closeTo(3, 6) })
    // Along the top of the top row: each room its own stretch.
    expect(parts('Walls', 'Polylines')).toEqual({
      [id('Room 02')]: expect.closeTo(4, 6),
      [id('Room 12')]: expect.closeTo(4, 6),
      [id('Room 22')]: expect.closeTo(4, 6),
    })
    expectLinesAddUp(boq)
  })

  it('leaves the bill as it was without locations', () => {
    const bytes = new TextEncoder().encode(flat().toString())
    const without = extractBoq({ bytes, fileName: 'plan.dxf' }, null)
    expect(without.zones).toBeUndefined()
    expect(without.bill.every((line) => line.byZone === undefined)).toBe(true)
    expect(JSON.stringify(without)).not.toContain('byZone')
  })
})
