import { describe, expect, it } from 'vitest'
import { DxfWriter } from '../../testing/boq/dxf-writer.ts'
import type { Boq } from '../model/schema.ts'
import { extractBoq } from '../run/extract.ts'

type P = [number, number, number?]

function boqOf(text: string): Boq {
  return extractBoq({ bytes: new TextEncoder().encode(text), fileName: 'fitted.dxf' }, null)
}

/** A SPLINE kept as fit points only (no knots, no control points), with fit tolerance `tol`. */
function fitSpline(w: DxfWriter, layer: string, fit: P[], tol?: number): void {
  const { to, owner } = w.target('model')
  const pairs = [210, 0, 220, 0, 230, 1, 70, 8 | 1024, 71, 3, 72, 0, 73, 0, 74, fit.length]
  if (tol !== undefined) pairs.push(44, tol)
  for (const [x, y, z] of fit) pairs.push(11, x, 21, y, 31, z ?? 0)
  w.entity(to, owner, layer, 'SPLINE', 'AcDbSpline', pairs)
}

const WAVE: P[] = [
  [0, 0],
  [10, 4],
  [20, -3],
  [30, 2],
]

const fitted = (boq: Boq) => boq.warnings.filter((w) => /fit tolerance/.test(w))

describe('splines drawn with a fit tolerance', () => {
  it('one warning naming how many and on which layers', () => {
    const w = new DxfWriter()
    w.insunits = 6
    fitSpline(w, 'Kerb', WAVE, 0.5)
    fitSpline(
      w,
      'Kerb',
      WAVE.map(([x, y]) => [x, y + 50]),
      2,
    )
    fitSpline(w, 'Edge', WAVE, 1)
    const boq = boqOf(w.toString())
    expect(fitted(boq)).toEqual([
      "3 splines on layers Edge (1), Kerb (2) were drawn with a fit tolerance: AutoCAD's curve passes near their fit points, not through them; measured through the points, their lengths may differ slightly from AutoCAD's.",
    ])
    // Still measured, through the points.
    expect(boq.lengths.find((l) => l.layer === 'Kerb')?.count).toBe(2)
  })

  it('one spline on one layer', () => {
    const w = new DxfWriter()
    fitSpline(w, 'Kerb', WAVE, 0.5)
    expect(fitted(boqOf(w.toString()))).toEqual([
      "1 spline on layer Kerb was drawn with a fit tolerance: AutoCAD's curve passes near its fit points, not through them; measured through the points, its length may differ slightly from AutoCAD's.",
    ])
  })

  it('none for a fit tolerance of 0 (AutoCAD keeps it as 1e-10), none given (dxf-json: 1e-9), or control points stored', () => {
    const w = new DxfWriter()
    w.insunits = 6
    fitSpline(w, 'Through', WAVE, 1e-10)
    fitSpline(w, 'Through', WAVE, 0)
    fitSpline(w, 'Through', WAVE)
    const { to, owner } = w.target('model')
    // AutoCAD's own curve, kept as control points: measured as it is, whatever its fit tolerance.
    w.entity(to, owner, 'Stored', 'SPLINE', 'AcDbSpline', [
      ...[210, 0, 220, 0, 230, 1, 70, 8, 71, 3, 72, 8, 73, 4, 74, 4, 42, 1e-10, 43, 1e-10, 44, 1],
      ...[0, 0, 0, 0, 1, 1, 1, 1].flatMap((k) => [40, k]),
      ...[0, 10, 20, 30].flatMap((x, i) => [10, x, 20, i % 2, 30, 0]),
      ...WAVE.flatMap(([x, y]) => [11, x, 21, y, 31, 0]),
    ])
    const boq = boqOf(w.toString())
    expect(boq.lengths.map((l) => [l.layer, l.count])).toEqual([
      ['Stored', 1],
      ['Through', 3],
    ])
    expect(fitted(boq)).toEqual([])
    expect(boq.warnings).toEqual([])
  })

  it('a spline of no length is left out, not counted', () => {
    const w = new DxfWriter()
    fitSpline(
      w,
      'Kerb',
      [
        [5, 5],
        [5, 5],
      ],
      1,
    )
    const boq = boqOf(w.toString())
    expect(boq.notMeasured.map((n) => n.type)).toContain('SPLINE (zero length)')
    expect(fitted(boq)).toEqual([])
  })
})
