import { describe, expect, it } from 'vitest'
import { sweep } from '../measure/curves/curves.ts'
import type { LoopEdge, Point, Vertex } from '../model/primitives.ts'
import { mirroredShape } from './mirrored.ts'

/**
 * The world point of a point in the object coordinate system of extrusion `n` (AutoCAD's
 * arbitrary axis rule), to check the mirrored shapes against the general transform.
 */
function toWorld(p: Point, n: Point = { x: 0, y: 0, z: -1 }): Point {
  const cross = (a: Point, b: Point): Point => ({
    x: a.y * b.z - a.z * b.y,
    y: a.z * b.x - a.x * b.z,
    z: a.x * b.y - a.y * b.x,
  })
  const near = Math.abs(n.x) < 1 / 64 && Math.abs(n.y) < 1 / 64
  const ax = cross(near ? { x: 0, y: 1, z: 0 } : { x: 0, y: 0, z: 1 }, n)
  const length = Math.hypot(ax.x, ax.y, ax.z)
  const xAxis = { x: ax.x / length, y: ax.y / length, z: ax.z / length }
  const yAxis = cross(n, xAxis)
  return {
    x: p.x * xAxis.x + p.y * yAxis.x + p.z * n.x,
    y: p.x * xAxis.y + p.y * yAxis.y + p.z * n.y,
    z: p.x * xAxis.z + p.y * yAxis.z + p.z * n.z,
  }
}

const at = (x: number, y: number, z = 0): Point => ({ x, y, z })
const STEPS = 8

function expectSamePoints(actual: Point[], expected: Point[]): void {
  expect(actual).toHaveLength(expected.length)
  actual.forEach((p, i) => {
    expect(p.x).toBeCloseTo(expected[i].x, 9)
    expect(p.y).toBeCloseTo(expected[i].y, 9)
    expect(p.z).toBeCloseTo(expected[i].z, 9)
  })
}

/** Points along a counter-clockwise arc from start to end. */
function arcPoints(center: Point, radius: number, start: number, end: number): Point[] {
  const span = sweep(start, end)
  return Array.from({ length: STEPS + 1 }, (_, i) => {
    const t = start + (span * i) / STEPS
    return at(center.x + radius * Math.cos(t), center.y + radius * Math.sin(t), center.z)
  })
}

/** Points along a hatch edge in its direction of travel (a clockwise edge's angles negated). */
function edgePoints(edge: LoopEdge & { kind: 'arc' | 'ellipse' }): Point[] {
  let { start, end } = edge
  const ratio = edge.kind === 'ellipse' ? edge.ratio : 1
  if (edge.kind === 'ellipse') {
    start = Math.atan2(Math.sin(start) / ratio, Math.cos(start))
    end = Math.atan2(Math.sin(end) / ratio, Math.cos(end))
  }
  const from = edge.ccw ? start : -start
  const span = edge.ccw ? sweep(start, end) : -sweep(start, end)
  const u = edge.kind === 'ellipse' ? edge.major : at(edge.radius, 0)
  const v = at(-u.y * ratio, u.x * ratio)
  return Array.from({ length: STEPS + 1 }, (_, i) => {
    const t = from + (span * i) / STEPS
    const { center: c } = edge
    return at(
      c.x + u.x * Math.cos(t) + v.x * Math.sin(t),
      c.y + u.y * Math.cos(t) + v.y * Math.sin(t),
      c.z,
    )
  })
}

/** The middle of a bulged segment (or of the straight one). */
function segmentMiddle(a: Vertex, b: Vertex): Point {
  const dx = b.x - a.x
  const dy = b.y - a.y
  // A positive bulge turns counter-clockwise: the arc lies right of the chord, sagitta bulge·chord/2.
  const sagitta = a.bulge / 2
  return at((a.x + b.x) / 2 + sagitta * dy, (a.y + b.y) / 2 - sagitta * dx, (a.z + b.z) / 2)
}

describe('shapes in a mirrored object coordinate system (extrusion 0,0,−1)', () => {
  it('a whole turn stays one, and nothing on an axis becomes −0', () => {
    const arc = { kind: 'arc' as const, center: at(0, 2), radius: 1, start: 0, end: 2 * Math.PI }
    const turned = mirroredShape(arc) as typeof arc
    expect(turned.end - turned.start).toBeCloseTo(2 * Math.PI, 12)
    expect(turned.center).toEqual({ x: 0, y: 2, z: 0 })
  })

  it('an arc lands where the general transform puts it', () => {
    const arc = { kind: 'arc' as const, center: at(3, 2, 1), radius: 2, start: 0.3, end: 2.1 }
    const turned = mirroredShape(arc) as typeof arc
    const expected = arcPoints(arc.center, arc.radius, arc.start, arc.end).map((p) => toWorld(p))
    // Its points, run the other way round.
    expectSamePoints(
      arcPoints(turned.center, turned.radius, turned.start, turned.end),
      expected.reverse(),
    )
    const across = { ...arc, start: 5.5, end: 0.4 } // through angle 0
    const turnedAcross = mirroredShape(across) as typeof arc
    expectSamePoints(
      arcPoints(turnedAcross.center, 2, turnedAcross.start, turnedAcross.end),
      arcPoints(across.center, 2, across.start, across.end)
        .map((p) => toWorld(p))
        .reverse(),
    )
  })

  it('a polyline’s vertices and the middles of its bulged segments land where they should', () => {
    const vertices: Vertex[] = [
      { x: 0, y: 0, z: 2, bulge: 0.4 },
      { x: 4, y: 1, z: 2, bulge: -0.7 },
      { x: 5, y: 5, z: 2, bulge: 0 },
    ]
    const turned = mirroredShape({ kind: 'polyline', vertices, closed: false })
    if (turned.kind !== 'polyline') throw new Error('not a polyline')
    expectSamePoints(
      turned.vertices,
      vertices.map((v) => toWorld(v)),
    )
    for (let i = 0; i < 2; i++) {
      expectSamePoints(
        [segmentMiddle(turned.vertices[i], turned.vertices[i + 1])],
        [toWorld(segmentMiddle(vertices[i], vertices[i + 1]))],
      )
    }
  })

  it('a reference (and a MINSERT’s grid) places its block’s points where the general transform does', () => {
    const reference = {
      kind: 'insert' as const,
      definition: 'B',
      position: at(10, 4, 1),
      scale: at(2, -0.5, 3),
      rotation: 0.7,
      columns: 3,
      rows: 2,
      columnSpacing: 5,
      rowSpacing: 7,
    }
    const base = at(1, 1, 0)
    const place = (shape: typeof reference, q: Point, column: number, row: number): Point => {
      const x = shape.scale.x * (q.x - base.x) + column * shape.columnSpacing
      const y = shape.scale.y * (q.y - base.y) + row * shape.rowSpacing
      const c = Math.cos(shape.rotation)
      const s = Math.sin(shape.rotation)
      return at(
        shape.position.x + c * x - s * y,
        shape.position.y + s * x + c * y,
        shape.position.z + shape.scale.z * (q.z - base.z),
      )
    }
    const turned = mirroredShape(reference) as typeof reference
    for (const q of [at(0, 0), at(3, -2, 1), at(-4, 6, 2)]) {
      for (const [column, row] of [
        [0, 0],
        [2, 1],
      ]) {
        expectSamePoints(
          [place(turned, q, column, row)],
          [toWorld(place(reference, q, column, row))],
        )
      }
    }
  })

  it('hatch edges keep their direction of travel', () => {
    // Each edge both ways round.
    const edges = [true, false].flatMap((ccw): (LoopEdge & { kind: 'arc' | 'ellipse' })[] => [
      { kind: 'arc', center: at(1, 2), radius: 3, start: 0.2, end: 1.9, ccw },
      { kind: 'ellipse', center: at(1, 2), major: at(3, 1), ratio: 0.4, start: 0.5, end: 2.5, ccw },
    ])
    const turned = mirroredShape({ kind: 'hatch', loops: [{ kind: 'edges', edges }], solid: false })
    if (turned.kind !== 'hatch' || turned.loops[0].kind !== 'edges') throw new Error('not a hatch')
    turned.loops[0].edges.forEach((edge, i) => {
      if (edge.kind !== 'arc' && edge.kind !== 'ellipse') throw new Error('not a curve')
      expectSamePoints(
        edgePoints(edge),
        edgePoints(edges[i]).map((p) => toWorld(p)),
      )
    })
  })

  it('an ellipse (world coordinates) whose extrusion is −Z runs the other way round', () => {
    const ellipse = {
      kind: 'ellipse' as const,
      center: at(2, 3),
      major: at(4, 1),
      ratio: 0.5,
      start: 0.4,
      end: 2.2,
    }
    // Its minor axis is the extrusion × major, scaled by the ratio: (0,0,−1) × (x,y,0) = (y,−x,0).
    const minor = at(ellipse.major.y * ellipse.ratio, -ellipse.major.x * ellipse.ratio)
    const points = (start: number, end: number, u: Point, v: Point) =>
      Array.from({ length: STEPS + 1 }, (_, i) => {
        const t = start + (sweep(start, end) * i) / STEPS
        return at(
          2 + u.x * Math.cos(t) + v.x * Math.sin(t),
          3 + u.y * Math.cos(t) + v.y * Math.sin(t),
        )
      })
    const seen = mirroredShape(ellipse) as typeof ellipse
    // Seen from above, the minor axis is the major one turned a quarter counter-clockwise.
    const up = at(-ellipse.major.y * ellipse.ratio, ellipse.major.x * ellipse.ratio)
    expectSamePoints(
      points(seen.start, seen.end, ellipse.major, up),
      points(ellipse.start, ellipse.end, ellipse.major, minor).reverse(),
    )
  })
})
