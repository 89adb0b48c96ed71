import { describe, expect, it } from 'vitest'
import { arcsOf, pathsOf, triangleArea, trianglesOf } from '#contract/testing/drawing-geometry.ts'
import { entity, picture, point } from '../../testing/boq/view/picture-factory.ts'
import type { Shape } from '../model/picture.ts'
import type { Vertex } from '../model/primitives.ts'
import { buildGeometry } from './build.ts'

const build = (...shapes: Shape[]) =>
  buildGeometry(picture(shapes.map((shape) => entity(shape)))).geometry

const vertex = (x: number, y: number, bulge = 0): Vertex => ({ x, y, z: 0, bulge })

/** The largest distance of a path's points and chord midpoints from a circle. */
function strayFromCircle(points: [number, number][], cx: number, cy: number, r: number): number {
  let worst = 0
  for (let i = 0; i < points.length; i++) {
    const [x, y] = points[i]
    worst = Math.max(worst, Math.abs(Math.hypot(x - cx, y - cy) - r))
    if (i > 0) {
      const [px, py] = points[i - 1]
      worst = Math.max(worst, Math.abs(Math.hypot((x + px) / 2 - cx, (y + py) / 2 - cy) - r))
    }
  }
  return worst
}

describe('buildGeometry: shapes', () => {
  it('gives an empty picture zero bounds and empty arrays', () => {
    const { geometry, warnings } = buildGeometry(picture([]))
    expect(warnings).toEqual([])
    expect(geometry.origin).toEqual([0, 0])
    expect(geometry.bounds).toEqual([0, 0, 0, 0])
    expect(geometry.handles).toEqual([])
    expect(geometry.colours).toEqual([])
    expect(Array.from(geometry.pathStarts)).toEqual([0])
    for (const array of [geometry.points, geometry.arcs, geometry.triangles, geometry.pathOwners]) {
      expect(array.length).toBe(0)
    }
  })

  it('draws a line as a two-point path, around the centre of the extents', () => {
    const geometry = build({ kind: 'line', a: point(1000, 2000), b: point(1010, 2004) })
    expect(geometry.origin).toEqual([1005, 2002])
    expect(geometry.bounds).toEqual([-5, -2, 5, 2])
    expect(Array.from(geometry.points)).toEqual([-5, -2, 5, 2])
    expect(Array.from(geometry.pathStarts)).toEqual([0, 2])
  })

  it('lists every model-space handle in order, those that draw nothing too, and owns by index', () => {
    const line = { kind: 'line', a: point(0, 0), b: point(1, 0) } as const
    const { geometry } = buildGeometry(
      picture([
        entity(null, { handle: 'A1' }),
        entity(line, { handle: 'B2' }),
        entity({ kind: 'polyline', vertices: [], closed: false }, { handle: 'C3' }),
        entity(line, { handle: 'D4' }),
      ]),
    )
    expect(geometry.handles).toEqual(['A1', 'B2', 'C3', 'D4'])
    expect(Array.from(geometry.pathOwners)).toEqual([1, 3])
  })

  it('draws polylines open as they are and closed back to their first point', () => {
    const vertices = [vertex(0, 0), vertex(10, 0), vertex(10, 5)]
    const [open, closed] = pathsOf(
      build(
        { kind: 'polyline', vertices, closed: false },
        { kind: 'polyline', vertices, closed: true },
      ),
    )
    expect(open.points).toEqual([
      [0, 0],
      [10, 0],
      [10, 5],
    ])
    expect(closed.points).toEqual([
      [0, 0],
      [10, 0],
      [10, 5],
      [0, 0],
    ])
  })

  it('flattens a bulge to within the tolerance, on the side its sign says', () => {
    // A bulge of 1 is a half circle: counter-clockwise from (0, 0) to (10, 0) runs below.
    const [path] = pathsOf(
      build({ kind: 'polyline', vertices: [vertex(0, 0, 1), vertex(10, 0)], closed: false }),
    )
    expect(path.points[0]).toEqual([0, 0])
    expect(path.points.at(-1)?.[0]).toBeCloseTo(10, 5)
    expect(Math.min(...path.points.map(([, y]) => y))).toBeCloseTo(-5, 2)
    expect(Math.max(...path.points.map(([, y]) => y))).toBeLessThanOrEqual(1e-6)
    // The drawing is 10 across: half a pixel of a 2000 px view zoomed in 10×.
    expect(strayFromCircle(path.points, 5, 0, 5)).toBeLessThanOrEqual(10 / 40_000 + 1e-5)
    expect(path.points.length).toBeLessThan(200)
  })

  it('keeps circles and arcs as arcs: centre, radius, start and counter-clockwise sweep', () => {
    const arcs = arcsOf(
      build(
        { kind: 'circle', center: point(10, 20), radius: 3 },
        { kind: 'arc', center: point(0, 0), radius: 2, start: (3 * Math.PI) / 2, end: Math.PI / 2 },
      ),
    )
    expect(arcs[0]).toMatchObject({ x: 10, y: 20, radius: 3, start: 0 })
    expect(arcs[0].sweep).toBeCloseTo(2 * Math.PI, 6)
    expect(arcs[1]).toMatchObject({ x: 0, y: 0, radius: 2 })
    expect(arcs[1].start).toBeCloseTo((3 * Math.PI) / 2, 6)
    expect(arcs[1].sweep).toBeCloseTo(Math.PI, 6)
  })

  it('bounds an arc by the part of the circle it sweeps', () => {
    const { bounds, origin } = build({
      kind: 'arc',
      center: point(0, 0),
      radius: 10,
      start: 0,
      end: Math.PI / 2,
    })
    expect([bounds[0] + origin[0], bounds[1] + origin[1]]).toEqual([0, 0])
    expect([bounds[2] + origin[0], bounds[3] + origin[1]]).toEqual([10, 10])
  })

  it('flattens an ellipse onto the ellipse, a whole one closed', () => {
    const [whole, half] = pathsOf(
      build(
        {
          kind: 'ellipse',
          center: point(5, 5),
          major: point(0, 4),
          ratio: 0.5,
          start: 0,
          end: 2 * Math.PI,
        },
        {
          kind: 'ellipse',
          center: point(0, 0),
          major: point(4, 0),
          ratio: 0.5,
          start: 0,
          end: Math.PI,
        },
      ),
    )
    // Major axis along y (4), minor along x (2).
    for (const [x, y] of whole.points)
      expect(((x - 5) / 2) ** 2 + ((y - 5) / 4) ** 2).toBeCloseTo(1, 5)
    expect(whole.points.at(-1)).toEqual(whole.points[0])
    expect(whole.points[0][0]).toBeCloseTo(5, 5)
    expect(whole.points[0][1]).toBeCloseTo(9, 5)
    expect(half.points[0][0]).toBeCloseTo(4, 5)
    expect(half.points.at(-1)?.[0]).toBeCloseTo(-4, 5)
    expect(Math.max(...half.points.map(([, y]) => y))).toBeCloseTo(2, 3)
  })

  it('samples a spline from end to end; a degree-1 spline is its control polygon', () => {
    const control = [point(0, 0), point(10, 10), point(20, 0), point(30, 10)]
    const [cubic, linear] = pathsOf(
      build(
        {
          kind: 'spline',
          spline: { degree: 3, knots: [0, 0, 0, 0, 1, 1, 1, 1], control, weights: [], fit: [] },
        },
        {
          kind: 'spline',
          spline: { degree: 1, knots: [0, 0, 1, 2, 3, 3], control, weights: [], fit: [] },
        },
      ),
    )
    expect(cubic.points[0]).toEqual([0, 0])
    expect(cubic.points.at(-1)?.[0]).toBeCloseTo(30, 4)
    expect(cubic.points.length).toBeGreaterThan(8)
    expect(linear.points).toEqual(control.map((p) => [p.x, p.y]))
  })

  it("draws a hatch's loops as closed paths, and fills a solid one around its holes", () => {
    const square = (x: number, y: number, size: number) => ({
      kind: 'polyline' as const,
      vertices: [
        vertex(x, y),
        vertex(x + size, y),
        vertex(x + size, y + size),
        vertex(x, y + size),
      ],
    })
    const loops = [square(0, 0, 10), square(2, 2, 6), square(4, 4, 2)]
    const geometry = build(
      { kind: 'hatch', loops, solid: true },
      { kind: 'hatch', loops, solid: false },
    )
    const paths = pathsOf(geometry)
    expect(paths).toHaveLength(6)
    expect(paths[0].points).toEqual([
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
      [0, 0],
    ])
    const triangles = trianglesOf(geometry)
    // The island inside the hole is filled again: 100 − 36 + 4.
    expect(triangles.every((t) => t.owner === 0)).toBe(true)
    expect(triangles.reduce((sum, t) => sum + triangleArea(t), 0)).toBeCloseTo(68, 6)
  })

  it('fills a hatch bounded by edges (a line and an arc: a half disc)', () => {
    const geometry = build({
      kind: 'hatch',
      solid: true,
      loops: [
        {
          kind: 'edges',
          edges: [
            { kind: 'line', a: point(-1, 0), b: point(1, 0) },
            { kind: 'arc', center: point(0, 0), radius: 1, start: 0, end: Math.PI, ccw: true },
          ],
        },
      ],
    })
    const area = trianglesOf(geometry).reduce((sum, t) => sum + triangleArea(t), 0)
    expect(area).toBeCloseTo(Math.PI / 2, 2)
  })

  it('fills a solid as the quadrilateral 1-2-4-3, or one triangle', () => {
    const geometry = build(
      { kind: 'solid', corners: [point(0, 0), point(10, 0), point(0, 10), point(10, 20)] },
      { kind: 'solid', corners: [point(0, 0), point(10, 0), point(0, 10), point(0, 10)] },
    )
    const triangles = trianglesOf(geometry)
    expect(triangles.map((t) => t.owner)).toEqual([0, 0, 1])
    // (0, 0) (10, 0) (10, 20) (0, 10): 150; read 1-2-3-4 it would be a bow tie of 100.
    expect(triangleArea(triangles[0]) + triangleArea(triangles[1])).toBe(150)
    expect(triangles[2].corners).toEqual([
      [0, 0],
      [10, 0],
      [0, 10],
    ])
  })

  it('leaves out shapes whose numbers are not finite', () => {
    const geometry = build(
      { kind: 'line', a: point(0, 0), b: point(Number.NaN, 0) },
      { kind: 'circle', center: point(0, Number.POSITIVE_INFINITY), radius: 1 },
      { kind: 'line', a: point(0, 0), b: point(2, 2) },
    )
    expect(Array.from(geometry.pathOwners)).toEqual([2])
    expect(geometry.arcOwners.length).toBe(0)
    expect(geometry.bounds).toEqual([-1, -1, 1, 1])
  })
})
