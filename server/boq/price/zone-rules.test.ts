import { describe, expect, it } from 'vitest'
import type { LocationRow } from '#contract/locations.ts'
import type { PricedItem, TakeoffRule } from '#contract/takeoff-rules.ts'
import { tableCsv, tableXlsx } from '../../rules/rules-export.ts'
import { DxfWriter } from '../../testing/boq/dxf-writer.ts'
import { expectLinesAddUp } from '../../testing/boq/locations.ts'
import type { Boq } from '../model/schema.ts'
import { extractBoq } from '../run/extract.ts'
import { compileRules } from './compile.ts'
import { priceWithTables } from './price.ts'
import { readRules } from './read.ts'

const TAGS: LocationRow[] = [{ layer: 'A-AREA', label: 'attribute:NAME' }]

function rect(x: number, y: number, width: number, height: number) {
  return [
    { x, y },
    { x: x + width, y },
    { x: x + width, y: y + height },
    { x, y: y + height },
  ]
}

/**
 * A flat in metres: a bathroom (0..3 × 0..4) and a kitchen (3..8 × 0..4), each named by a room
 * tag whose HEIGHT says how high its walls are; a tiles hatch over part of both rooms (1..5 ×
 * 1..2: 2 m² in the bathroom, 2 m² in the kitchen) and another wholly in the kitchen (1 m²).
 */
function flat(): Boq {
  const w = new DxfWriter()
  w.insunits = 6
  w.block('TAG', (to, owner) => w.circle(to, owner, '0', [0, 0], 0.1))
  const { to, owner } = w.target('model')
  w.lwpolyline(to, owner, 'A-AREA', rect(0, 0, 3, 4), true)
  w.lwpolyline(to, owner, 'A-AREA', rect(3, 0, 5, 4), true)
  w.insert(to, owner, 'A-TAGS', 'TAG', [1.5, 3], { NAME: 'Bathroom', HEIGHT: '2.4' })
  w.insert(to, owner, 'A-TAGS', 'TAG', [5.5, 3], { NAME: 'Kitchen', HEIGHT: '2.6' })
  w.hatch(to, owner, 'Tiles', [{ polyline: rect(1, 1, 4, 1) }])
  w.hatch(to, owner, 'Tiles', [{ polyline: rect(6, 2, 1, 1) }])
  const bytes = new TextEncoder().encode(w.toString())
  return extractBoq({ bytes, fileName: 'flat.dxf', locations: TAGS }, null)
}

const SCHEDULE: TakeoffRule[] = [
  { match: 'zone', layer: 'A-AREA', code: 'F1', description: 'Floor finish', rate: 30 },
  {
    match: 'zone',
    layer: 'A-AREA',
    code: 'S1',
    description: 'Skirting',
    unit: 'm',
    quantity: 'perimeter',
    rate: 8,
  },
  {
    match: 'zone',
    layer: 'A-AREA',
    code: 'P1',
    description: 'Wall paint',
    unit: 'm²',
    quantity: 'perimeter * HEIGHT',
    rate: 4,
  },
  {
    match: 'area',
    layer: 'Tiles',
    zone: 'bath*',
    code: 'T1',
    description: 'Wall tiles, wet rooms',
    rate: 50,
  },
  { match: 'area', layer: 'Tiles', code: 'T2', description: 'Floor tiles', rate: 40 },
]

function item(items: PricedItem[], code: string): PricedItem {
  const found = items.find((i) => i.code === code)
  if (!found) throw new Error(`no item ${code}`)
  return found
}

describe('zones in the rules', () => {
  it('prices a room schedule from each zone: area, perimeter, the room tag’s values; each item by zone', () => {
    const boq = flat()
    expectLinesAddUp(boq)
    const zones = boq.zones ?? []
    const [bath, kitchen] = ['Bathroom', 'Kitchen'].map((name) => {
      const zone = zones.find((z) => z.name === name)
      if (!zone) throw new Error(`no zone ${name}`)
      return zone.id
    })
    const priced = priceWithTables(boq, { rules: SCHEDULE, classification: [] })
    const floor = item(priced.items, 'F1')
    expect(floor.measuredQuantity).toBeCloseTo(32, 9)
    expect(floor.byZone).toEqual([
      { zone: bath, quantity: expect.closeTo(12, 9) },
      { zone: kitchen, quantity: expect.closeTo(20, 9) },
    ])
    expect(item(priced.items, 'S1').byZone).toEqual([
      { zone: bath, quantity: expect.closeTo(14, 9) },
      { zone: kitchen, quantity: expect.closeTo(18, 9) },
    ])
    const paint = item(priced.items, 'P1')
    expect(paint.measuredQuantity).toBeCloseTo(14 * 2.4 + 18 * 2.6, 9)
    expect(paint.byZone).toEqual([
      { zone: bath, quantity: expect.closeTo(14 * 2.4, 9) },
      { zone: kitchen, quantity: expect.closeTo(18 * 2.6, 9) },
    ])
    expect(paint.amount).toBeCloseTo(Math.round((14 * 2.4 + 18 * 2.6) * 100) * 0.04, 6)
    // Zones no rule takes are in the room schedule, never listed as not classified.
    expect(priced.notClassified.filter((n) => n.match === 'zone')).toEqual([])
  })

  it('filters by zone: tiles in wet rooms only, a hatch cut by a wall priced part by part', () => {
    const boq = flat()
    const zones = boq.zones ?? []
    const bath = zones.find((z) => z.name === 'Bathroom')?.id
    const kitchen = zones.find((z) => z.name === 'Kitchen')?.id
    const priced = priceWithTables(boq, { rules: SCHEDULE, classification: [] })
    const wet = item(priced.items, 'T1')
    expect(wet.measuredQuantity).toBeCloseTo(2, 9)
    expect(wet.byZone).toEqual([{ zone: bath, quantity: expect.closeTo(2, 9) }])
    const dry = item(priced.items, 'T2')
    expect(dry.measuredQuantity).toBeCloseTo(3, 9)
    expect(dry.byZone).toEqual([{ zone: kitchen, quantity: expect.closeTo(3, 9) }])
    // Without a layer, the room's own outline is an area in the room too.
    const kitchenAreas = priceWithTables(boq, {
      rules: [{ match: 'area', zone: 'KITCH*', code: 'K', description: 'In the kitchen' }],
      classification: [],
    })
    expect(item(kitchenAreas.items, 'K').measuredQuantity).toBeCloseTo(3 + 20, 9)
  })

  it('says when the bill has no zones for the rules that need them', () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('model')
    w.hatch(to, owner, 'Tiles', [{ polyline: rect(0, 0, 1, 1) }])
    const boq = extractBoq(
      { bytes: new TextEncoder().encode(w.toString()), fileName: 'plain.dxf' },
      null,
    )
    const priced = priceWithTables(boq, { rules: SCHEDULE, classification: [] })
    expect(priced.warnings).toContainEqual(
      expect.stringMatching(/^The bill has no zones .*rules 1, 2, 3, 4/),
    )
    expect(priced.items.map((i) => i.code)).toEqual(['T2'])
  })

  it('refuses what a zone row cannot filter by, and a broken zone glob, naming the row', () => {
    const { problems } = compileRules([
      { match: 'zone', block: 'DOOR', code: 'A' },
      { match: 'zone', kind: 'hatch', code: 'B' },
      { match: 'zone', unit: 'm', code: 'C' },
      { match: 'area', zone: 'Bath\\', code: 'D' },
      { match: 'zone', attribute: 'FINISH=TILE*', quantity: 'area * FACTOR', code: 'E' },
    ])
    expect(problems.map((p) => `row ${p.row}: ${p.message}`)).toEqual([
      'row 1: block filters count rows only, not zone rows',
      'row 2: kind filters length and area rows only, not zone rows',
      "row 3: unit 'm' is not an area: give a quantity formula, or an area unit (m², ft²…)",
      expect.stringMatching(/^row 4: zone /),
    ])
  })

  it('keeps the zone column through CSV and XLSX files', async () => {
    expect(await readRules(tableCsv('rules', SCHEDULE), 'csv')).toEqual(SCHEDULE)
    expect(await readRules(await tableXlsx('rules', SCHEDULE), 'xlsx')).toEqual(SCHEDULE)
    const header = new TextDecoder().decode(tableCsv('rules', SCHEDULE)).split(/\r?\n/)[0]
    expect(header).toContain('visibility,zone,code')
  })
})
