import { describe, expect, it } from 'vitest'
import { DxfWriter } from '../../testing/boq/dxf-writer.ts'
import type { BillLine, BillOptions, Boq } from '../model/schema.ts'
import { compileRuleSet, priceBill } from '../price/price.ts'
import { extractBoq } from '../run/extract.ts'

function boqOf(writer: DxfWriter, options?: BillOptions): Boq {
  const bytes = new TextEncoder().encode(writer.toString())
  return extractBoq({ bytes, fileName: 'test.dxf', options }, null)
}

const close = (actual: number | undefined, expected: number) =>
  expect(Math.abs((actual ?? Number.NaN) - expected)).toBeLessThanOrEqual(
    1e-9 * Math.max(1, Math.abs(expected)),
  )

function line(boq: Boq, predicate: (line: BillLine) => boolean): BillLine {
  const found = boq.bill.find(predicate)
  if (!found)
    throw new Error(`no such bill line in ${JSON.stringify(boq.bill.map((l) => l.description))}`)
  return found
}

/** Every line's quantity is the sum of its breakdown. */
function expectSums(boq: Boq): void {
  for (const l of boq.bill) {
    close(
      l.breakdown.reduce((s, r) => s + r.quantity, 0),
      l.quantity,
    )
  }
}

/** A 2,500-unit line on Walls and a closed 1,000 × 1,000 square on Slabs, in the given units. */
function measuredDrawing(insunits: number): DxfWriter {
  const w = new DxfWriter()
  w.insunits = insunits
  const { to, owner } = w.target('model')
  w.line(to, owner, 'Walls', [0, 0], [2500, 0])
  const square: [number, number][] = [
    [0, 0],
    [1000, 0],
    [1000, 1000],
    [0, 1000],
  ]
  w.lwpolyline(
    to,
    owner,
    'Slabs',
    square.map(([x, y]) => ({ x, y })),
    true,
  )
  return w
}

describe('units of the bill', () => {
  const cases: [string, number, string, number][] = [
    // name, INSUNITS, bill unit, metres (or feet) in one drawing unit
    ['millimetres', 4, 'm', 0.001],
    ['centimetres', 5, 'm', 0.01],
    ['metres', 6, 'm', 1],
    ['inches', 1, 'ft', 1 / 12],
    ['feet', 2, 'ft', 1],
  ]

  it.each(cases)(
    'a drawing in %s (INSUNITS %i) gives a bill in %s by default',
    (_, code, unit, factor) => {
      const boq = boqOf(measuredDrawing(code))
      const walls = line(boq, (l) => l.kind === 'length' && l.layer === 'Walls')
      expect(walls.unit).toBe(unit)
      close(walls.quantity, 2500 * factor)
      const slabs = line(boq, (l) => l.kind === 'area' && l.layer === 'Slabs')
      expect(slabs.unit).toBe(`${unit}²`)
      close(slabs.quantity, 1_000_000 * factor * factor)
      expect(boq.units.lengthFactor).toBe(factor)
      // The per-layer tables stay in drawing units, so every figure can be traced back.
      close(boq.lengths.find((l) => l.layer === 'Walls')?.length, 2500)
      expectSums(boq)
    },
  )

  it('the person can ask for imperial, metric or the drawing units', () => {
    const mm = measuredDrawing(4)
    close(line(boqOf(mm, { units: 'imperial' }), (l) => l.layer === 'Walls').quantity, 2.5 / 0.3048)
    const inches = boqOf(measuredDrawing(1), { units: 'metric' })
    close(line(inches, (l) => l.layer === 'Walls').quantity, 2500 * 0.0254)
    expect(line(inches, (l) => l.kind === 'area').unit).toBe('m²')
    const own = boqOf(mm, { units: 'drawing' })
    expect(line(own, (l) => l.layer === 'Walls')).toMatchObject({ unit: 'mm', quantity: 2500 })
    expect(line(own, (l) => l.kind === 'area')).toMatchObject({ unit: 'mm²', quantity: 1e6 })
  })

  it('a unitless drawing stays in drawing units and says so, unless its unit is stated', () => {
    const unitless = boqOf(measuredDrawing(0))
    expect(line(unitless, (l) => l.layer === 'Walls')).toMatchObject({
      unit: 'units',
      quantity: 2500,
    })
    expect(unitless.warnings.join(' ')).toMatch(/does not state its units/)
    const stated = boqOf(measuredDrawing(0), { drawingUnits: 'mm' })
    expect(line(stated, (l) => l.layer === 'Walls')).toMatchObject({ unit: 'm', quantity: 2.5 })
    expect(stated.units).toMatchObject({ stated: 'mm', system: 'metric', lengthFactor: 0.001 })
    expect(stated.warnings.join(' ')).not.toMatch(/does not state its units/)
    // A drawing that states its units keeps them, whatever is stated.
    const metres = boqOf(measuredDrawing(6), { drawingUnits: 'mm' })
    close(line(metres, (l) => l.layer === 'Walls').quantity, 2500)
  })
})

describe('block totals', () => {
  /** SPRINKLER: 38 on "Sprinkler Head", 2 on "Sprinkler Pipe", and 3 in each of 2 BRANCHes. */
  function sprinklers(): DxfWriter {
    const w = new DxfWriter()
    w.insunits = 4
    w.block('SPRINKLER', (to, owner) => w.circle(to, owner, '0', [0, 0], 50))
    w.block('BRANCH', (to, owner) => {
      for (const x of [0, 3000, 6000]) w.insert(to, owner, '0', 'SPRINKLER', [x, 0])
    })
    const { to, owner } = w.target('model')
    for (let i = 0; i < 38; i++) w.insert(to, owner, 'Sprinkler Head', 'SPRINKLER', [i * 100, 0])
    for (let i = 0; i < 2; i++) w.insert(to, owner, 'Sprinkler Pipe', 'SPRINKLER', [i, 500])
    for (let i = 0; i < 2; i++) w.insert(to, owner, 'Branches', 'BRANCH', [0, 1000 * i])
    return w
  }

  it('one line per block: the total over every layer and nesting, equal to its breakdown', () => {
    const boq = boqOf(sprinklers())
    const sprinkler = line(boq, (l) => l.block === 'SPRINKLER')
    expect(sprinkler).toMatchObject({ kind: 'count', unit: 'nr', quantity: 46 })
    expect(sprinkler.breakdown.map((r) => [r.layer, r.count, r.nested])).toEqual(
      expect.arrayContaining([
        ['Sprinkler Head', 38, 0],
        ['Sprinkler Pipe', 2, 0],
        ['Branches', 6, 6],
      ]),
    )
    // Nested ones point at the model-space references that hold them.
    expect(sprinkler.breakdown.find((r) => r.layer === 'Branches')?.handles).toHaveLength(2)
    expect(sprinkler.breakdown.find((r) => r.layer === 'Sprinkler Head')?.handles).toHaveLength(38)
    expect(line(boq, (l) => l.block === 'BRANCH').quantity).toBe(2)
    expect(boq.bill.filter((l) => l.kind === 'count').map((l) => l.ref)).toEqual(['A1', 'A2'])
    expectSums(boq)
  })

  it('multiplies through a nested MINSERT: 2 tables of a 2 × 3 grid of chairs are 12 chairs, 12 cushions', () => {
    const w = new DxfWriter()
    w.block('CUSHION', (to, owner) => w.circle(to, owner, '0', [0, 0], 0.2))
    w.block('CHAIR', (to, owner) => w.insert(to, owner, '0', 'CUSHION', [0, 0]))
    w.block('TABLE', (to, owner) =>
      w.insert(to, owner, '0', 'CHAIR', [0, 0], {}, { cols: 2, rows: 3 }),
    )
    const { to, owner } = w.target('model')
    for (const x of [0, 10]) w.insert(to, owner, 'Furniture', 'TABLE', [x, 0])
    const boq = boqOf(w)
    expect(line(boq, (l) => l.block === 'CHAIR').quantity).toBe(12)
    // Each chair's cushion, through the grid: 12 too.
    expect(line(boq, (l) => l.block === 'CUSHION').quantity).toBe(12)
    const table = [
      { block: 'CHAIR', count: 6 },
      { block: 'CUSHION', count: 6 },
    ]
    expect(boq.references.map((r) => r.nested)).toEqual([table, table])
  })

  it('splits a block by attribute values when asked', () => {
    const w = new DxfWriter()
    w.block('DOOR', (to, owner) => w.line(to, owner, '0', [0, 0], [900, 0]))
    const { to, owner } = w.target('model')
    for (const type of ['D1', 'D1', 'D2'])
      w.insert(to, owner, 'Doors', 'DOOR', [0, 0], { TYPE: type })
    const boq = boqOf(w, { splitBy: ['TYPE'] })
    const doors = boq.bill.filter((l) => l.block === 'DOOR')
    expect(doors.map((l) => [l.values, l.quantity])).toEqual([
      [{ TYPE: 'D1' }, 2],
      [{ TYPE: 'D2' }, 1],
    ])
    expect(doors[0].description).toBe('DOOR (TYPE: D1)')
  })

  it('counts a million nested references by multiplication, with one reference row', () => {
    const w = new DxfWriter()
    w.block('L6', (to, owner) => w.line(to, owner, '0', [0, 0], [1, 0]))
    for (let level = 5; level >= 1; level--) {
      w.block(`L${level}`, (to, owner) => {
        for (let i = 0; i < 10; i++) w.insert(to, owner, '0', `L${level + 1}`, [i, 0])
      })
    }
    const { to, owner } = w.target('model')
    for (let i = 0; i < 10; i++) w.insert(to, owner, 'Top', 'L1', [i, 0])
    const boq = boqOf(w)
    expect(line(boq, (l) => l.block === 'L6').quantity).toBe(1_000_000)
    expect(line(boq, (l) => l.block === 'L2').quantity).toBe(100)
    expect(boq.references).toHaveLength(10)
    expect(boq.references[0].nested).toEqual(
      expect.arrayContaining([{ block: 'L6', count: 100_000 }]),
    )
  })

  it('a block that contains itself is reported, and counting ends', () => {
    const w = new DxfWriter()
    w.block('LOOP', (to, owner) => {
      w.line(to, owner, '0', [0, 0], [1, 0])
      w.insert(to, owner, '0', 'LOOP', [5, 0])
    })
    const { to, owner } = w.target('model')
    w.insert(to, owner, 'A', 'LOOP', [0, 0])
    const boq = boqOf(w)
    expect(boq.warnings.join(' ')).toMatch(/"LOOP" contains itself/)
    expect(line(boq, (l) => l.block === 'LOOP').quantity).toBeGreaterThanOrEqual(1)
  })

  it('blocks in a loop count the same whatever order the drawing places them in', () => {
    const loop = (order: string[]) => {
      const w = new DxfWriter()
      w.block('A', (to, owner) => w.insert(to, owner, '0', 'B', [0, 0]))
      w.block('B', (to, owner) => w.insert(to, owner, '0', 'A', [0, 0]))
      const { to, owner } = w.target('model')
      for (const name of order) w.insert(to, owner, 'Top', name, [0, 0])
      const totals = (boq: Boq) => boq.bill.map((l) => [l.block, l.quantity])
      return totals(boqOf(w))
    }
    expect(loop(['A', 'B'])).toEqual(loop(['B', 'A']))
  })

  it('an anonymous block whose dynamic block is unknown is counted under its name, with a warning', () => {
    const w = new DxfWriter()
    w.block('*U12', (to, owner) => w.line(to, owner, '0', [0, 0], [1, 0]))
    const { to, owner } = w.target('model')
    for (let i = 0; i < 7; i++) w.insert(to, owner, 'Doors', '*U12', [i, 0])
    const boq = boqOf(w)
    expect(line(boq, (l) => l.block === '*U12').quantity).toBe(7)
    expect(boq.warnings).toContain(
      '7 references of anonymous block `*U12` counted under that name: their dynamic block could not be identified.',
    )
  })
})

describe('nothing of zero', () => {
  /** No line or breakdown row of the bill is 0 (or less). */
  function expectNoZero(boq: Boq): void {
    for (const l of boq.bill) {
      expect(l.quantity, l.description).toBeGreaterThan(0)
      for (const row of l.breakdown) expect(row.quantity, row.label).toBeGreaterThan(0)
    }
  }

  it('a drawing of one line of no length has an empty bill, the line listed as not measured', () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('model')
    w.line(to, owner, '0', [10, 10], [10, 10])
    const boq = boqOf(w)
    expect(boq.bill).toEqual([])
    expect(boq.lengths).toEqual([])
    expect(boq.notMeasured).toEqual([
      { type: 'LINE (zero length)', count: 1, reason: 'no length: nothing to measure' },
    ])
    expect(boq.warnings[0]).toMatch(/^No quantities measured: .*LINE \(zero length\) × 1/)
  })

  it('linework of no length is left out of its layer’s line, which counts only what it measures', () => {
    const w = new DxfWriter()
    w.insunits = 4
    const { to, owner } = w.target('model')
    const far = 1_234_567.891
    w.line(to, owner, 'Walls', [0, 0], [2500, 0])
    w.line(to, owner, 'Walls', [far, far], [far, far])
    // Far from the origin, a difference of rounding is no length either.
    w.line(to, owner, 'Walls', [far, far], [far + 1e-10, far])
    w.circle(to, owner, 'Walls', [5, 5], 0)
    w.arc(to, owner, 'Walls', [5, 5], 0, 0, 90)
    w.lwpolyline(
      to,
      owner,
      'Walls',
      [
        { x: 3, y: 3 },
        { x: 3, y: 3 },
      ],
      false,
    )
    const boq = boqOf(w)
    const walls = line(boq, (l) => l.layer === 'Walls')
    close(walls.quantity, 2.5)
    expect(walls.breakdown.map((row) => [row.label, row.count])).toEqual([['lines', 1]])
    expect(boq.notMeasured.map((n) => [n.type, n.count])).toEqual([
      ['ARC (zero length)', 1],
      ['CIRCLE (zero length)', 1],
      ['LINE (zero length)', 2],
      ['POLYLINE (zero length)', 1],
    ])
    expectNoZero(boq)
  })

  it('an outline enclosing no area gives no area line; a closed polyline keeps its length', () => {
    const w = new DxfWriter()
    w.insunits = 4
    const { to, owner } = w.target('model')
    // Corners in a row, far from the origin: the shoelace sum rounds to a speck, not to 0.
    const row = [0, 1, 3].map((t) => ({ x: 1_000_000.1 + 0.3 * t, y: 2_000_000.7 + 0.7 * t }))
    w.lwpolyline(to, owner, 'Slabs', row, true)
    w.hatch(to, owner, 'Slabs', [{ polyline: row }])
    w.hatch(to, owner, 'Slabs', [])
    const boq = boqOf(w)
    expect(boq.bill.map((l) => [l.kind, l.layer])).toEqual([['length', 'Slabs']])
    expect(boq.areas).toEqual([])
    expect(boq.notMeasured.map((n) => [n.type, n.count])).toEqual([
      ['closed POLYLINE (zero area)', 1],
      ['HATCH (zero area)', 2],
    ])
    expectNoZero(boq)
  })

  it('a real area beside an outline of none is billed alone', () => {
    const w = measuredDrawing(4)
    const { to, owner } = w.target('model')
    w.lwpolyline(
      to,
      owner,
      'Slabs',
      [
        { x: 0, y: 0 },
        { x: 5, y: 0 },
        { x: 10, y: 0 },
      ],
      true,
    )
    const boq = boqOf(w)
    const slabs = line(boq, (l) => l.kind === 'area')
    close(slabs.quantity, 1)
    expect(slabs.breakdown.map((row) => row.count)).toEqual([1])
    expect(boq.areas[0]).toMatchObject({ closedPolylines: 1 })
    expectNoZero(boq)
  })
})

describe('each entity measured on its own', () => {
  /** In mm: two lines and a circle on Walls; on Floors a hatch with a hole, and an unfilled outline; a half disc on Domes. */
  function entitiesDrawing() {
    const w = new DxfWriter()
    w.insunits = 4
    const { to, owner } = w.target('model')
    const handles = {
      short: w.line(to, owner, 'Walls', [0, 0], [1000, 0]),
      long: w.line(to, owner, 'Walls', [0, 0], [0, 3000]),
      circle: w.circle(to, owner, 'Walls', [0, 0], 500),
      holed: w.hatch(to, owner, 'Floors', [
        {
          edges: [
            {
              line: [
                [0, 0],
                [2000, 0],
              ],
            },
            {
              line: [
                [2000, 0],
                [2000, 2000],
              ],
            },
            {
              line: [
                [2000, 2000],
                [0, 2000],
              ],
            },
            {
              line: [
                [0, 2000],
                [0, 0],
              ],
            },
          ],
        },
        {
          polyline: [
            { x: 500, y: 500 },
            { x: 1500, y: 500 },
            { x: 1500, y: 1500 },
            { x: 500, y: 1500 },
          ],
        },
      ]),
      outline: w.lwpolyline(
        to,
        owner,
        'Floors',
        [
          { x: 5000, y: 0 },
          { x: 6000, y: 0 },
          { x: 6000, y: 2000 },
          { x: 5000, y: 2000 },
        ],
        true,
      ),
      dome: w.hatch(to, owner, 'Domes', [
        {
          edges: [
            {
              line: [
                [-1000, 0],
                [1000, 0],
              ],
            },
            { arc: { center: [0, 0], radius: 1000, start: 0, end: 180 } },
          ],
        },
      ]),
    }
    return { boq: boqOf(w), handles }
  }

  it('keeps each length beside its handle, in the bill unit', () => {
    const { boq, handles } = entitiesDrawing()
    const walls = boq.bill.filter((l) => l.kind === 'length' && l.layer === 'Walls')
    const byKind = Object.fromEntries(
      walls.flatMap((l) => l.breakdown).map((row) => [row.kind, row]),
    )
    expect(byKind.line.handles).toEqual([handles.short, handles.long])
    expect(byKind.line.quantities).toEqual([1, 3])
    expect(byKind.circle.handles).toEqual([handles.circle])
    close(byKind.circle.quantities?.[0], Math.PI)
    for (const row of walls.flatMap((l) => l.breakdown))
      close(
        (row.quantities ?? []).reduce((s, q) => s + q, 0),
        row.quantity,
      )
  })

  it('keeps each area and its perimeter beside its handle, holes in both', () => {
    const { boq, handles } = entitiesDrawing()
    const floors = line(boq, (l) => l.kind === 'area' && l.layer === 'Floors')
    const [hatch, outline] = floors.breakdown
    expect(hatch).toMatchObject({ kind: 'hatch', handles: [handles.holed] })
    close(hatch.quantities?.[0], 3)
    close(hatch.perimeters?.[0], 12)
    expect(outline).toMatchObject({ kind: 'closed polyline', handles: [handles.outline] })
    close(outline.quantities?.[0], 2)
    close(outline.perimeters?.[0], 6)
    const dome = line(boq, (l) => l.kind === 'area' && l.layer === 'Domes').breakdown[0]
    close(dome.quantities?.[0], Math.PI / 2)
    close(dome.perimeters?.[0], 2 + Math.PI)
  })
  it('prices each entity by its own figures: a perimeter formula per area', () => {
    const { boq } = entitiesDrawing()
    const rules = compileRuleSet([
      {
        match: 'area',
        layer: 'Floors',
        code: 'S1',
        description: 'Skirting',
        unit: 'm',
        quantity: 'perimeter',
        rate: 2,
      },
      {
        match: 'length',
        layer: 'Walls',
        kind: 'line',
        code: 'W1',
        description: 'Long walls',
        unit: 'm',
        quantity: 'max(length - 2, 0)',
        rate: 10,
      },
    ])
    const priced = priceBill(boq, rules)
    const [skirting, walls] = priced.items
    close(skirting.quantity, 18)
    close(skirting.amount ?? 0, 36)
    close(walls.quantity, 1)
    expect(priced.warnings).toEqual([])
  })
})

describe('linework by kind', () => {
  /** On Tavolo 2 an arc, an open polyline and a spline; on Walls two lines. */
  function tableDrawing(): Boq {
    const w = new DxfWriter()
    w.insunits = 6
    const { to, owner } = w.target('model')
    w.arc(to, owner, 'Tavolo 2', [0, 0], 1, 0, 90)
    w.lwpolyline(
      to,
      owner,
      'Tavolo 2',
      [
        { x: 0, y: 0 },
        { x: 3, y: 0 },
        { x: 3, y: 4 },
      ],
      false,
    )
    w.spline(
      to,
      owner,
      'Tavolo 2',
      1,
      [0, 0, 1, 1],
      [
        [0, 0],
        [0, 2],
      ],
    )
    w.line(to, owner, 'Walls', [0, 0], [5, 0])
    w.line(to, owner, 'Walls', [0, 0], [0, 5])
    return boqOf(w)
  }

  it('one line per layer and kind, each named by its kind', () => {
    const boq = tableDrawing()
    const linework = boq.bill.filter((l) => l.kind === 'length')
    expect(linework.map((l) => [l.ref, l.description, l.breakdown.map((r) => r.kind)])).toEqual([
      ['B1', 'Arcs on layer Tavolo 2', ['arc']],
      ['B2', 'Polylines on layer Tavolo 2', ['polyline']],
      ['B3', 'Splines on layer Tavolo 2', ['spline']],
      ['B4', 'Lines on layer Walls', ['line']],
    ])
    close(linework[0]?.quantity, Math.PI / 2)
    close(linework[1]?.quantity, 7)
    close(linework[2]?.quantity, 2)
    expect(linework[3]?.breakdown[0]?.count).toBe(2)
    close(linework[3]?.quantity, 10)
    expectSums(boq)
  })

  it('rules by layer or by kind still take each kind’s line; what none takes is told apart', () => {
    const boq = tableDrawing()
    const rules = compileRuleSet([
      { match: 'length', layer: 'Tavolo 2', kind: 'arc,spline', code: 'T1', description: 'Edge' },
      { match: 'length', layer: 'walls', code: 'W1', description: 'Wall' },
    ])
    const priced = priceBill(boq, rules)
    const edge = priced.items.find((item) => item.code === 'T1')
    close(edge?.measuredQuantity, Math.PI / 2 + 2)
    expect(edge?.sources.map((s) => s.line)).toEqual(['B1', 'B3'])
    expect(priced.items.find((item) => item.code === 'W1')?.sources.map((s) => s.line)).toEqual([
      'B4',
    ])
    expect(priced.notClassified.map((n) => [n.line, n.description, n.kind])).toEqual([
      ['B2', 'Polylines on layer Tavolo 2', 'polyline'],
    ])
  })
})
