import { describe, expect, it } from 'vitest'
import { DxfWriter } from '../../testing/boq/dxf-writer.ts'
import type { Boq } from '../model/schema.ts'
import { compileRuleSet, priceBill } from '../price/price.ts'
import { extractBoq } from '../run/extract.ts'

// Circles and whole ellipses enclose areas, as AutoCAD's Area property gives them: round columns,
// manholes and tanks drawn as circles are area lines, once even when a hatch fills them.

function boqOf(draw: (w: DxfWriter, to: unknown[], owner: string) => void): Boq {
  const w = new DxfWriter()
  w.insunits = 6
  const { to, owner } = w.target('model')
  draw(w, to, owner)
  return extractBoq({ bytes: new TextEncoder().encode(w.toString()), fileName: 'c.dxf' }, null)
}

const close = (actual: number | undefined, expected: number) =>
  expect(Math.abs((actual ?? Number.NaN) - expected)).toBeLessThanOrEqual(1e-9 * expected)

describe('circles and whole ellipses as closed areas', () => {
  it('gives a circle and a whole ellipse their areas on their layer, each entity by handle', () => {
    const boq = boqOf((w, to, owner) => {
      w.circle(to as never, owner, 'Columns', [10, 10], 0.3)
      w.circle(to as never, owner, 'Columns', [20, 10], 0.3)
      w.ellipse(to as never, owner, 'Tanks', [0, 0], [3, 4], 0.5)
    })
    const columns = boq.bill.find((line) => line.kind === 'area' && line.layer === 'Columns')
    close(columns?.quantity, 2 * Math.PI * 0.09)
    expect(columns?.breakdown).toEqual([
      expect.objectContaining({
        label: 'circles (not filled by a hatch)',
        kind: 'circle',
        count: 2,
        perimeters: [expect.any(Number), expect.any(Number)],
      }),
    ])
    close(columns?.breakdown[0]?.perimeters?.[0], 2 * Math.PI * 0.3)
    const tanks = boq.bill.find((line) => line.kind === 'area' && line.layer === 'Tanks')
    close(tanks?.quantity, Math.PI * 5 * 2.5)
    expect(tanks?.breakdown[0]).toMatchObject({ kind: 'ellipse', count: 1 })
    expect(boq.areas.find((a) => a.layer === 'Tanks')).toMatchObject({
      closedPolylines: 0,
      closedCurves: 1,
      filledByHatch: 0,
    })
    // Their lengths are linework all the same.
    close(
      boq.bill.find((line) => line.kind === 'length' && line.layer === 'Columns')?.quantity,
      2 * 2 * Math.PI * 0.3,
    )
  })

  it('counts a circle or an ellipse a hatch fills once, and an open arc of an ellipse not at all', () => {
    const boq = boqOf((w, to, owner) => {
      w.circle(to as never, owner, 'Slabs', [5, 5], 2)
      w.hatch(to as never, owner, 'Slabs', [
        { edges: [{ arc: { center: [5, 5], radius: 2, start: 0, end: 360 } }] },
      ])
      w.ellipse(to as never, owner, 'Pools', [0, 0], [4, 0], 0.5)
      w.hatch(to as never, owner, 'Pools', [
        {
          edges: [
            {
              ellipse: { center: [0, 0], major: [4, 0], ratio: 0.5, start: 0, end: 360 },
            },
          ],
        },
      ])
      w.ellipse(to as never, owner, 'Arcs', [0, 0], [4, 0], 0.5, 0, Math.PI)
    })
    const slabs = boq.areas.find((a) => a.layer === 'Slabs')
    expect(slabs).toMatchObject({ closedCurves: 1, hatches: 1, filledByHatch: 1 })
    close(slabs?.net, Math.PI * 4)
    const pools = boq.areas.find((a) => a.layer === 'Pools')
    expect(pools).toMatchObject({ closedCurves: 1, hatches: 1, filledByHatch: 1 })
    close(pools?.net, Math.PI * 4 * 2)
    expect(boq.areas.find((a) => a.layer === 'Arcs')).toBeUndefined()
  })

  it('lists a circle of no size once, and takes circles by kind in takeoff rules', () => {
    const boq = boqOf((w, to, owner) => {
      w.circle(to as never, owner, 'Columns', [0, 0], 0)
      w.circle(to as never, owner, 'Columns', [5, 0], 0.5)
      w.lwpolyline(
        to as never,
        owner,
        'Columns',
        [
          { x: 0, y: 0 },
          { x: 1, y: 0 },
          { x: 1, y: 1 },
        ],
        true,
      )
    })
    expect(boq.notMeasured.map((row) => [row.type, row.count])).toEqual([
      ['CIRCLE (zero length)', 1],
    ])
    const priced = priceBill(
      boq,
      compileRuleSet([
        {
          match: 'area',
          kind: 'circle',
          code: 'C1',
          description: 'Round columns',
          unit: 'nr',
          quantity: 'count',
        },
        { match: 'area', code: 'C2', description: 'Other areas' },
      ]),
    )
    expect(priced.items.map((item) => [item.code, item.quantity])).toEqual([
      ['C1', 1],
      ['C2', 0.5],
    ])
  })
})
