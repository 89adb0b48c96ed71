import { describe, expect, it } from 'vitest'
import { readDwgFixture } from '../../../testing/boq/dwg-fixtures.ts'
import { fixture } from '../../../testing/boq/fixtures.ts'
import type { DrawingEntity } from '../../model/drawing.ts'
import type { Point, SplineGeometry } from '../../model/primitives.ts'
import { readDxf } from '../../read/dxf-reader.ts'
import { splineLength } from './curves.ts'
import { fitPointSpline } from './spline-fit.ts'

/**
 * Spline 225 of LibreDWG's sample `test/test-data/2000/TS1.dxf`, the DXF AutoCAD wrote of
 * 2000_TS1.dwg: the curve AutoCAD built from the five fit points the DWG keeps (no end tangents),
 * as knots and control points.
 */
const TS1_225 = {
  knots: [
    0, 0, 0, 0, 3.395125564783143, 7.354600289545956, 10.65350327337877, 13.53033168210706,
    13.53033168210706, 13.53033168210706, 13.53033168210706,
  ],
  control: [
    [25.62621049725817, 12.37189999821604],
    [25.34885040204111, 14.12682716616591],
    [24.74802648620394, 17.92839138264598],
    [29.5336468321851, 10.72643392370707],
    [29.05477696649714, 18.25518476135446],
    [30.83162019051585, 15.68870531066294],
    [31.65932345994084, 14.49316740189634],
  ],
}

function splineOf(entities: DrawingEntity[], handle: string): SplineGeometry {
  const found = entities.find((e) => e.type === 'spline' && e.handle === handle)
  expect(found, handle).toBeDefined()
  return found as SplineGeometry
}

const relative = (a: number, b: number) => Math.abs(a - b) / Math.abs(b)

describe('fit-point splines rebuilt as AutoCAD builds them', () => {
  it("2000_TS1's spline 225 (five fit points, zero end tangents) is the curve its DXF twin stores", async () => {
    const dwg = splineOf((await readDwgFixture('2000_TS1.dwg')).entities, '225')
    expect(dwg.control).toEqual([])
    expect(dwg.fit).toHaveLength(5)
    expect(dwg.startTangent).toEqual({ x: 0, y: 0, z: 0 })
    expect(dwg.endTangent).toEqual({ x: 0, y: 0, z: 0 })

    const twin: SplineGeometry = {
      degree: 3,
      knots: TS1_225.knots,
      control: TS1_225.control.map(([x, y]) => ({ x, y, z: 0 })),
      weights: [],
      fit: [],
    }
    const twinLength = splineLength(twin) // 14.0651
    // Within 0.01% of AutoCAD's curve (it was 13.901, 1.2% short, with the chord's direction as
    // the unset tangents).
    expect(relative(splineLength(dwg), twinLength)).toBeLessThan(1e-4)

    // The same cubic: chord-length knots, zero second derivative at both ends.
    const rebuilt = fitPointSpline(dwg.fit, dwg.startTangent, dwg.endTangent)
    expect(rebuilt).not.toBeNull()
    const { knots, control } = rebuilt as { knots: number[]; control: Point[] }
    for (const [i, k] of knots.entries())
      expect(Math.abs(k - twin.knots[i]), `knot ${i}`).toBeLessThan(1e-12)
    for (const [i, p] of control.entries()) {
      const q = twin.control[i]
      expect(Math.hypot(p.x - q.x, p.y - q.y, p.z - q.z), `control ${i}`).toBeLessThan(1e-12)
    }
    // Zero-length tangents are no tangents.
    expect(fitPointSpline(dwg.fit, null, null)).toEqual(rebuilt)
  })

  it("example_2000's splines: an unset start tangent is the natural end, a stored one is kept", async () => {
    const dwg = (await readDwgFixture('example_2000.dwg')).entities
    const dxf = readDxf(fixture('example_2000.dxf')).entities
    // 16E: both tangents stored; AutoCAD's DXF holds the same cubic.
    const withTangents = splineOf(dwg, '16E')
    expect(relative(splineLength(withTangents), splineLength(splineOf(dxf, '16E')))).toBeLessThan(
      1e-7,
    )
    // 894: the start tangent unset, the end one stored. AutoCAD fitted it with a fit tolerance of
    // 1 (its curve passes up to 0.42 from the inner points), so the interpolating cubic is close
    // but not equal: 0.03% (it was 0.46% short with the chord's direction at the start).
    const startUnset = splineOf(dwg, '894')
    expect(startUnset.startTangent).toEqual({ x: 0, y: 0, z: 0 })
    // Both readers give the fit tolerance (the bill warns of it); 16E's is AutoCAD's 0.
    expect(startUnset.fitTolerance).toBe(1)
    expect(splineOf(dxf, '894').fitTolerance).toBe(1)
    expect(withTangents.fitTolerance).toBe(1e-10)
    expect(relative(splineLength(startUnset), splineLength(splineOf(dxf, '894')))).toBeLessThan(
      5e-4,
    )
  })

  it('two fit points are the segment between them; points on a line, the line', () => {
    const a = { x: 1, y: 2, z: 3 }
    const b = { x: 4, y: 6, z: 3 }
    const segment = fitPointSpline([a, b])
    expect(segment?.control).toHaveLength(4)
    const two: SplineGeometry = { degree: 3, knots: [], control: [], weights: [], fit: [a, b] }
    expect(relative(splineLength(two), 5)).toBeLessThan(1e-12)
    const onLine = [0, 1, 3, 7].map((x) => ({ x, y: 2 * x, z: 0 }))
    const line: SplineGeometry = { degree: 3, knots: [], control: [], weights: [], fit: onLine }
    expect(relative(splineLength(line), 7 * Math.sqrt(5))).toBeLessThan(1e-12)
  })
})
