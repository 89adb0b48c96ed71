import { describe, expect, it } from 'vitest'
import { pathsOf } from '#contract/testing/drawing-geometry.ts'
import { entity, insert, picture, point } from '../../testing/boq/view/picture-factory.ts'
import { sampleSpline } from '../measure/curves/curves.ts'
import type { Shape } from '../model/picture.ts'
import { buildGeometry } from './build.ts'
import { arcSegments } from './tessellate.ts'

/** The paths drawn for a shape, beside a line that makes the drawing `size` across. */
function pathsWithin(shape: Shape, size: number) {
  const frame = entity({ kind: 'line', a: point(0, 0), b: point(size, 0) })
  return pathsOf(buildGeometry(picture([frame, entity(shape)])).geometry).slice(1)
}

function toSegment(x: number, y: number, a: { x: number; y: number }, b: { x: number; y: number }) {
  const dx = b.x - a.x
  const dy = b.y - a.y
  const t = Math.max(0, Math.min(1, ((x - a.x) * dx + (y - a.y) * dy) / (dx * dx + dy * dy || 1)))
  return Math.hypot(a.x + t * dx - x, a.y + t * dy - y)
}

describe('flattening', () => {
  it('keeps every chord of a circle within the tolerance', () => {
    for (const radius of [0.01, 1, 250, 1e6]) {
      const tolerance = radius / 3000
      const segments = arcSegments(2 * Math.PI, radius, tolerance)
      const sagitta = radius * (1 - Math.cos(Math.PI / segments))
      expect(sagitta).toBeLessThanOrEqual(tolerance)
      expect(segments).toBeLessThan(200)
    }
  })

  it('flattens by the size of the drawing: the same curve coarser in a larger drawing', () => {
    const ellipse: Shape = {
      kind: 'ellipse',
      center: point(0, 0),
      major: point(10, 0),
      ratio: 0.5,
      start: 0,
      end: 2 * Math.PI,
    }
    const [small] = pathsWithin(ellipse, 20)
    const [large] = pathsWithin(ellipse, 20_000)
    expect(small.points.length).toBeGreaterThan(large.points.length * 10)
    // However coarse the tolerance, a whole turn keeps 16 segments.
    expect(large.points.length).toBe(17)
  })

  it('samples a spline finely enough for the tolerance', () => {
    const spline = {
      degree: 3,
      knots: [0, 0, 0, 0, 1, 2, 2, 2, 2],
      control: [point(0, 0), point(0, 100), point(50, -100), point(100, 100), point(100, 0)],
      weights: [],
      fit: [],
    }
    const [path] = pathsWithin({ kind: 'spline', spline }, 100)
    expect(path.points.length).toBeLessThan(600)
    const dense = sampleSpline(spline, 4000)
    const tolerance = 200 / 40_000 // the control points make the drawing about 200 high
    for (let i = 1; i < path.points.length; i++) {
      const [ax, ay] = path.points[i - 1]
      const [bx, by] = path.points[i]
      const mx = (ax + bx) / 2
      const my = (ay + by) / 2
      let nearest = Number.POSITIVE_INFINITY
      for (let k = 1; k < dense.length; k++) {
        nearest = Math.min(nearest, toSegment(mx, my, dense[k - 1], dense[k]))
      }
      expect(nearest).toBeLessThanOrEqual(tolerance)
    }
  })

  it('flattens a circle in a block stretched by the reference by its stretched size', () => {
    const blocks = {
      C: {
        base: point(0, 0),
        entities: [entity({ kind: 'circle', center: point(0, 0), radius: 1 })],
      },
    }
    const pathOf = (sx: number) =>
      pathsOf(
        buildGeometry(
          picture([entity(insert('C', point(0, 0), { scale: point(sx, 1) }))], { blocks }),
        ).geometry,
      )[0]
    // The drawing grows with the stretch, so the tolerance does too: about as many points.
    const narrow = pathOf(2)
    const wide = pathOf(200)
    expect(Math.abs(wide.points.length - narrow.points.length)).toBeLessThan(narrow.points.length)
    for (const [x, y] of wide.points) expect((x / 200) ** 2 + y ** 2).toBeCloseTo(1, 4)
  })
})
