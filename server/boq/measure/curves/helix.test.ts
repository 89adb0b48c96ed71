import { describe, expect, it } from 'vitest'
import { DxfWriter } from '../../../testing/boq/dxf-writer.ts'
import { AUTOCAD_HELIX, HALF_TURN_HELIX } from '../../../testing/boq/sample-helix.ts'
import type { HelixParameters } from '../../model/drawing.ts'
import { extractBoq } from '../../run/extract.ts'
import { helixPathLength, splineLength } from './curves.ts'

type Shape = Parameters<DxfWriter['helix']>[6]

/** The helix lengths of the bill of a DXF holding one helix of `spline` and `shape`. */
function measured(spline: typeof HALF_TURN_HELIX | typeof AUTOCAD_HELIX.spline, shape: Shape) {
  const w = new DxfWriter()
  const { to, owner } = w.target('model')
  w.helix(to, owner, 'Springs', spline.degree, spline.knots, spline.control, shape)
  const bytes = new TextEncoder().encode(w.toString())
  const boq = extractBoq({ bytes, fileName: 'helix.dxf' }, null)
  const rows = boq.lengths.filter((l) => l.kind === 'helix')
  expect(rows).toHaveLength(1)
  return rows[0].length
}

/** A helix up the Z axis from the origin, starting on the X axis at `r0`. */
function upright(r0: number, r1: number, turns: number, turnHeight: number): HelixParameters {
  return {
    axisBase: { x: 0, y: 0, z: 0 },
    start: { x: r0, y: 0, z: 0 },
    axis: { x: 0, y: 0, z: 1 },
    radius: r1,
    turns,
    turnHeight,
    handedness: 1,
    constraint: 1,
  }
}

/** The same length in closed form: ∫ √(k²s² + c²) ds over the radius, divided by r1 − r0. */
function closedForm(r0: number, r1: number, turns: number, height: number): number {
  const k = 2 * Math.PI * turns
  const c2 = (r1 - r0) ** 2 + height ** 2
  if (r0 === r1) return Math.sqrt(k * k * r0 * r0 + c2)
  const c = Math.sqrt(c2)
  const G = (s: number) =>
    (s / 2) * Math.sqrt(k * k * s * s + c2) + (c2 / (2 * k)) * Math.asinh((k * s) / c)
  return (G(r1) - G(r0)) / (r1 - r0)
}

const relative = (a: number, b: number) => Math.abs(a - b) / Math.abs(b)

describe('helixes measured from their own parameters', () => {
  it('a cylindrical helix is turns × √((2πr)² + pitch²), whatever spline the file keeps with it', () => {
    // Half a turn of radius 1 and pitch 3, with a spline through four points as its path.
    const exact = 0.5 * Math.hypot(2 * Math.PI * 1, 3)
    const { shape } = HALF_TURN_HELIX
    expect(relative(measured(HALF_TURN_HELIX, shape), exact)).toBeLessThan(1e-9)
    // Tilted, moved and wound more: the same length.
    const tilted: HelixParameters = {
      axisBase: { x: 10, y: -4, z: 2 },
      start: { x: 10 + 2.5 / Math.SQRT2, y: -4, z: 2 - 2.5 / Math.SQRT2 },
      axis: { x: 3, y: 0, z: 3 },
      radius: 2.5,
      turns: 12.25,
      turnHeight: 0.8,
      handedness: 0,
      constraint: 2,
    }
    const wound = 12.25 * Math.hypot(2 * Math.PI * 2.5, 0.8)
    expect(relative(helixPathLength(tilted) ?? 0, wound)).toBeLessThan(1e-9)
  })

  it("AutoCAD's conical helix (3 turns, radius 1.36885 to 6.82783) is its TotalLength, 77.4916", () => {
    const { spline, helix, totalLength } = AUTOCAD_HELIX
    const [axisBase, start, axis] = [helix.axisBase, helix.start, helix.axis]
    const shape = { ...helix, axisBase, start, axis }
    const length = measured(spline, shape)
    // AutoCAD lists six figures; its own spline of the path is 0.09% short (77.4213).
    expect(Math.abs(length - totalLength)).toBeLessThan(5e-5)
    expect(relative(measured(spline, null), totalLength)).toBeGreaterThan(5e-4)
    const r0 = Math.hypot(start[0] - axisBase[0], start[1] - axisBase[1])
    expect(relative(length, closedForm(r0, helix.radius, 3, 1))).toBeLessThan(1e-9)
  })

  it('to 1e-9 of the closed form, a flat spiral from the axis and many turns among them', () => {
    for (const [r0, r1, turns, turnHeight] of [
      [1, 1, 3, 2],
      [0, 10, 1, 0],
      [0, 10, 100, 0],
      [0, 10, 10_000, 0],
      [5, 0.001, 50, 0.01],
      [2, 3, 0.25, 4],
    ]) {
      const length = helixPathLength(upright(r0, r1, turns, turnHeight)) ?? 0
      expect(relative(length, closedForm(r0, r1, turns, turns * turnHeight))).toBeLessThan(1e-9)
    }
  })

  it('without usable parameters a helix is measured along its spline', () => {
    const spline = {
      degree: HALF_TURN_HELIX.degree,
      knots: HALF_TURN_HELIX.knots,
      control: HALF_TURN_HELIX.control.map(([x, y, z]) => ({ x, y, z })),
      weights: [],
      fit: [],
    }
    const along = splineLength(spline)
    expect(relative(measured(HALF_TURN_HELIX, null), along)).toBeLessThan(1e-12)
    for (const broken of [
      { ...upright(1, 1, 0, 3) },
      { ...upright(1, 1, 2, 3), axis: { x: 0, y: 0, z: 0 } },
      { ...upright(1, 1, 2, 3), radius: Number.NaN },
    ])
      expect(helixPathLength(broken)).toBeNull()
  })
})
