import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BoqSchema } from '#contract/boq.ts'
import { fixture, fixtureNames } from '../../testing/boq/fixtures.ts'
import type { Boq } from '../model/schema.ts'
import { createReader } from '../read/libredwg.ts'
import { type BoqEngine, createBoqEngine } from './engine.ts'

const EXAMPLES = ['r13', 'r14', '2000', '2004', '2007', '2010', '2013', '2018'].map(
  (v) => `example_${v}.dwg`,
)

// R13/R14 keep symbol names in capitals with underscores for spaces ("Tavolo 3" → "TAVOLO_3").
const norm = (name: string) => name.toUpperCase().replace(/\s/g, '_')

function near(actual: number, expected: number, what: string): void {
  const tolerance = 1e-6 * Math.max(1, Math.abs(expected))
  expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(
    tolerance,
  )
}

/** The quantities of a BOQ in a comparable shape: names normalised, numbers kept. */
function quantities(boq: Boq, withHatches = true) {
  return {
    blocks: boq.blocks
      .map((b) => [norm(b.block), norm(b.layer), b.count, b.nested].join('|'))
      .sort(),
    lengths: new Map(boq.lengths.map((l) => [`${norm(l.layer)}|${l.kind}|${l.count}`, l.length])),
    areas: new Map(
      boq.areas.flatMap((a) => {
        const rows: [string, number][] = [
          [`${norm(a.layer)}|closed|${a.closedPolylines}`, a.closedPolylineArea],
          [`${norm(a.layer)}|net`, a.net],
        ]
        if (withHatches)
          rows.push([`${norm(a.layer)}|hatch|${a.hatches}|${a.filledByHatch}`, a.hatchArea])
        return rows
      }),
    ),
  }
}

function expectSameQuantities(
  actual: Boq,
  expected: Boq,
  withHatches = true,
  splineTolerance = 1e-6,
): void {
  const a = quantities(actual, withHatches)
  const e = quantities(expected, withHatches)
  expect(a.blocks).toEqual(e.blocks)
  expect([...a.lengths.keys()].sort()).toEqual([...e.lengths.keys()].sort())
  for (const [key, value] of e.lengths) {
    const got = a.lengths.get(key) ?? Number.NaN
    if (key.includes('|spline|'))
      expect(Math.abs(got - value) / value, key).toBeLessThanOrEqual(splineTolerance)
    else near(got, value, key)
  }
  expect([...a.areas.keys()].sort()).toEqual([...e.areas.keys()].sort())
  for (const [key, value] of e.areas) near(a.areas.get(key) ?? Number.NaN, value, key)
}

describe('the sample drawings', () => {
  let engine: BoqEngine
  const boqs = new Map<string, Boq>()
  const read = async (name: string) => {
    let boq = boqs.get(name)
    if (!boq) {
      boq = await engine.extract({ bytes: fixture(name), fileName: name })
      boqs.set(name, boq)
    }
    return boq
  }

  beforeAll(() => {
    engine = createBoqEngine({ workers: 2 })
  })
  afterAll(async () => {
    await engine.close()
  })

  it.each(fixtureNames('.dwg'))('%s gives a BOQ', async (name) => {
    const boq = await read(name)
    // As the JSON download carries it, it is the contract's BOQ.
    expect(v.safeParse(BoqSchema, JSON.parse(JSON.stringify(boq))).issues).toBeUndefined()
    expect(boq.schema).toBe('boq')
    expect(boq.source.fileName).toBe(name)
    expect(boq.source.format).toBe('dwg')
    expect(boq.source.version).toMatch(/^AC10\d\d$/)
    expect(boq.blocks.every((b) => !b.block.startsWith('*'))).toBe(true)
    if (name.startsWith('r11')) expect(boq.warnings.join(' ')).toMatch(/partly readable/)
  })

  it('example_2018: bloko ×2 with ETIKEDO, CIRKLO_PUNKTOJ ×8, layers Tavolo 2/3, one hatch', async () => {
    const boq = await read('example_2018.dwg')
    expect(boq.blocks).toEqual([
      { block: 'bloko', layer: 'Tavolo 3', count: 2, nested: 0 },
      { block: 'CIRKLO_PUNKTOJ', layer: 'Tavolo 3', count: 8, nested: 0 },
    ])
    expect(boq.attributeTags).toEqual(['ETIKEDO'])
    expect(
      boq.references.filter((r) => r.block === 'bloko').every((r) => 'ETIKEDO' in r.attributes),
    ).toBe(true)
    expect(new Set(boq.lengths.map((l) => l.layer))).toEqual(new Set(['Tavolo 2', 'Tavolo 3']))
    expect(boq.areas.reduce((n, a) => n + a.hatches, 0)).toBe(1)
    expect(boq.areas.reduce((n, a) => n + a.closedPolylines, 0)).toBeGreaterThan(0)
    expect(boq.source.units.name).toBe('millimetres')
    // The reference figure, 78,633.143 on Tavolo 3, counts lines, arcs and polylines with the
    // closed 3D polyline left open; its closing segment is 1,929.279 (from the DXF twin).
    const t3 = boq.lengths.filter(
      (l) => l.layer === 'Tavolo 3' && ['line', 'arc', 'polyline'].includes(l.kind),
    )
    near(t3.reduce((s, l) => s + l.length, 0) - 1929.278707, 78633.143, 'Tavolo 3 linework')
  })

  it('the eight versions of example_*.dwg give the same BOQ (R13: its hatch is an anonymous block)', async () => {
    const reference = await read('example_2018.dwg')
    for (const name of EXAMPLES) {
      const boq = await read(name)
      expectSameQuantities(boq, reference, name !== 'example_r13.dwg')
    }
    const r13 = await read('example_r13.dwg')
    expect(r13.notMeasured.some((s) => s.type === 'INSERT *X')).toBe(true)
  })

  // The DWGs keep their splines as fit points; the DXF twins carry the control points AutoCAD
  // computed. One spline was fitted with a fit tolerance of 1 (AutoCAD's curve passes near its
  // points, not through them): the cubic through them differs by 0.03%, and the DWG's bill warns
  // of it. Everything else agrees to 1e-6.
  it('warns of the spline fitted with a fit tolerance where only its fit points are kept: the DWGs, not the DXF twins', async () => {
    const nearFit = (boq: Boq) => boq.warnings.filter((w) => /fit tolerance/.test(w))
    for (const name of EXAMPLES) {
      const layer =
        name === 'example_r13.dwg' || name === 'example_r14.dwg' ? 'TAVOLO_3' : 'Tavolo 3'
      expect(nearFit(await read(name)), name).toEqual([
        expect.stringMatching(
          new RegExp(
            `^1 spline on layer ${layer} was drawn with a fit tolerance: AutoCAD's curve passes near its fit points`,
          ),
        ),
      ])
    }
    // The twins keep AutoCAD's curve as control points; 2000_TS1's spline has a fit tolerance of 0.
    for (const name of ['example_2000.dxf', 'example_2018.dxf', '2000_TS1.dwg'])
      expect(nearFit(await read(name)), name).toEqual([])
    // Nor is there a new warning where no spline is drawn.
    expect((await read('sample_2018.dwg')).warnings).toEqual([])
  })

  it('example_2000.dwg agrees with example_2000.dxf, and 2018 with its DXF twin', async () => {
    expectSameQuantities(await read('example_2000.dxf'), await read('example_2000.dwg'), true, 5e-4)
    expectSameQuantities(await read('example_2018.dxf'), await read('example_2018.dwg'), true, 5e-4)
    const dxf = await read('example_2000.dxf')
    expect(dxf.source.format).toBe('dxf')
    expect(dxf.references.map((r) => r.attributes.ETIKEDO ?? '').sort()).toEqual(
      (await read('example_2000.dwg')).references.map((r) => r.attributes.ETIKEDO ?? '').sort(),
    )
  })

  it("2018_Dynblocks: every reference counted under its real name, in feet; LibreDWG's DXF of it agrees", async () => {
    const boq = await read('2018_Dynblocks.dwg')
    const counted = boq.bill.filter((l) => l.kind === 'count')
    const top = boq.references.reduce((n, r) => n + r.count, 0)
    expect(top).toBe(43)
    expect(counted.some((l) => l.block?.startsWith('*'))).toBe(false)
    const names = new Set(counted.map((l) => l.block))
    for (const name of [
      'alteZZa',
      'Trees - Imperial',
      'Toilet - Imperial',
      'Door - Imperial',
      'Door Elevation - Imperial',
      'Aluminum Window (Elevation) - Imperial',
    ])
      expect(names, name).toContain(name)
    expect(boq.units).toMatchObject({ length: 'ft', area: 'ft²', lengthFactor: 1 / 12 })
    expect(boq.notMeasured.some((n) => n.type.startsWith('INSERT'))).toBe(false)

    // The same drawing written as DXF by LibreDWG itself, read by the DXF reader.
    const lib = await createReader()
    const dxf = lib.dwg_write_dxf(fixture('2018_Dynblocks.dwg').slice().buffer)
    expect(dxf).not.toBeNull()
    const twin = await engine.extract({ bytes: dxf as Uint8Array, fileName: 'twin.dxf' })
    const totals = (b: Boq) =>
      Object.fromEntries(b.bill.filter((l) => l.kind === 'count').map((l) => [l.block, l.quantity]))
    expect(totals(twin)).toEqual(totals(boq))
  })

  it('sample_2000 and sample_2018: one closed polyline, the same figures', async () => {
    const a = await read('sample_2000.dwg')
    expect(a.areas.reduce((n, r) => n + r.closedPolylines, 0)).toBe(1)
    expectSameQuantities(await read('sample_2018.dwg'), a)
  })

  it('2004_HatchG: two hatches fill the two closed polylines, counted once in the net area', async () => {
    const [row] = (await read('2004_HatchG.dwg')).areas
    expect(row).toMatchObject({ closedPolylines: 2, hatches: 2, filledByHatch: 2 })
    near(row.net, row.hatchArea, 'net')
  })

  it('2010_gh209_1: block references with attributes, the border found as title block', async () => {
    const boq = await read('2010_gh209_1.dwg')
    expect(boq.blocks.map((b) => `${b.block}×${b.count}`)).toEqual([
      'symbol_border×1',
      'symbol_work×2',
    ])
    expect(boq.attributeTags.length).toBeGreaterThan(0)
    expect(boq.source.titleBlock?.block).toBe('symbol_border')
  })

  it('2000_TS1 and 2000_entities-2d: blocks with attributes; 2004_PolyLine3D: a heavy 3D polyline', async () => {
    expect((await read('2000_TS1.dwg')).blocks.map((b) => b.block)).toEqual(['some block'])
    expect((await read('2000_entities-2d.dwg')).blocks.map((b) => b.block)).toEqual([
      'BLOCK1',
      'BLOCK2',
    ])
    const p3d = await read('2004_PolyLine3D.dwg')
    expect(p3d.lengths).toHaveLength(1)
    expect(p3d.lengths[0].length).toBeGreaterThan(0)
  })

  it('2013_gh109_1: objects of another application are listed as not measured', async () => {
    const boq = await read('2013_gh109_1.dwg')
    expect(boq.notMeasured.find((s) => s.type === 'TCH_WALL')?.count).toBe(9)
  })
})
