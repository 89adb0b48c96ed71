import { sampleSpline, sweep } from '../measure/curves/curves.ts'
import { loopOutline } from '../measure/curves/loops.ts'
import { endsMeet, flattenPolyline } from '../measure/curves/polyline.ts'
import type { Shape } from '../model/picture.ts'
import type { Point } from '../model/primitives.ts'
import { arcSegments, splineSamplesPerSpan } from '../view/tessellate.ts'

/**
 * The picture's shapes (world coordinates, seen from above) as flat paths for clipping: the
 * linework a piece runs along, and the rings an area or a zone encloses. Flattened finely enough
 * that only the shares of a figure come from it, never the figure itself.
 */

export type XY = { x: number; y: number }
export type Path = XY[]

const TWO_PI = 2 * Math.PI

function conic(center: XY, u: XY, v: XY, t0: number, turn: number, tolerance: number): Path {
  const radius = Math.max(Math.hypot(u.x, u.y), Math.hypot(v.x, v.y))
  const segments = arcSegments(turn, radius, tolerance)
  const out: Path = []
  for (let s = 0; s <= segments; s++) {
    const t = t0 + (turn * s) / segments
    const c = Math.cos(t)
    const n = Math.sin(t)
    out.push({ x: center.x + u.x * c + v.x * n, y: center.y + u.y * c + v.y * n })
  }
  return out
}

function ellipseAxes(shape: { major: Point; ratio: number }): { u: XY; v: XY } {
  const { major, ratio } = shape
  return { u: { x: major.x, y: major.y }, v: { x: -major.y * ratio, y: major.x * ratio } }
}

function splinePath(shape: Extract<Shape, { kind: 'spline' }>, tolerance: number): Path {
  const samples = splineSamplesPerSpan(shape.spline, 1, tolerance)
  return sampleSpline(shape.spline, samples).map((p) => ({ x: p.x, y: p.y }))
}

function closes(path: Path): boolean {
  if (path.length < 4) return false
  const a = path[0]
  const b = path[path.length - 1]
  let size = 0
  for (const p of path) size = Math.max(size, Math.abs(p.x), Math.abs(p.y))
  return Math.hypot(a.x - b.x, a.y - b.y) <= 1e-9 * Math.max(1, size)
}

/** What linework a shape runs along (a closed one ends where it began); empty for none. */
export function lineworkOf(shape: Shape, tolerance: number): Path[] {
  switch (shape.kind) {
    case 'line':
      return [[shape.a, shape.b].map(({ x, y }) => ({ x, y }))]
    case 'circle': {
      const r = Math.abs(shape.radius)
      return [conic(shape.center, { x: r, y: 0 }, { x: 0, y: r }, 0, TWO_PI, tolerance)]
    }
    case 'arc': {
      const r = Math.abs(shape.radius)
      const turn = sweep(shape.start, shape.end)
      return [conic(shape.center, { x: r, y: 0 }, { x: 0, y: r }, shape.start, turn, tolerance)]
    }
    case 'ellipse': {
      const { u, v } = ellipseAxes(shape)
      return [conic(shape.center, u, v, shape.start, sweep(shape.start, shape.end), tolerance)]
    }
    case 'polyline': {
      const points = flattenPolyline(shape.vertices, shape.closed)
      if (shape.closed && points.length > 0) points.push(points[0])
      return points.length >= 2 ? [points] : []
    }
    case 'spline':
      return [splinePath(shape, tolerance)]
    case 'hatch':
      return shape.loops.map((loop) => {
        const ring = loopOutline(loop).map(({ x, y }) => ({ x, y }))
        if (ring.length > 0) ring.push(ring[0])
        return ring
      })
    default:
      return []
  }
}

/**
 * The rings a shape encloses: a closed polyline (or one drawn back to its start), a circle, a
 * whole ellipse, a closed spline, a hatch's loops. Null for a shape that encloses nothing.
 */
export function ringsOf(shape: Shape, tolerance: number): Path[] | null {
  switch (shape.kind) {
    case 'circle':
    case 'ellipse': {
      if (shape.kind === 'ellipse' && sweep(shape.start, shape.end) < TWO_PI - 1e-9) return null
      const ring = lineworkOf(shape, tolerance)[0]
      ring.pop()
      return ring.length >= 3 ? [ring] : null
    }
    case 'polyline': {
      const closed =
        (shape.closed &&
          (shape.vertices.length >= 3 || shape.vertices.some((v) => v.bulge !== 0))) ||
        endsMeet(shape.vertices)
      if (!closed) return null
      const ring = flattenPolyline(shape.vertices, true)
      return ring.length >= 3 ? [ring] : null
    }
    case 'spline': {
      const path = splinePath(shape, tolerance)
      if (!closes(path)) return null
      path.pop()
      return [path]
    }
    case 'hatch': {
      const rings = shape.loops.map((loop) => loopOutline(loop).map(({ x, y }) => ({ x, y })))
      const kept = rings.filter((ring) => ring.length >= 3)
      return kept.length > 0 ? kept : null
    }
    default:
      return null
  }
}

/** Whether a shape is an outline that could be a zone but is not closed (reported as such). */
export function isOpenOutline(shape: Shape, tolerance: number): boolean {
  if (shape.kind === 'polyline' || shape.kind === 'spline')
    return ringsOf(shape, tolerance) === null
  return false
}

export function pathLength(path: Path): number {
  let total = 0
  for (let i = 1; i < path.length; i++)
    total += Math.hypot(path[i].x - path[i - 1].x, path[i].y - path[i - 1].y)
  return total
}

export type Box = [number, number, number, number]

export function boxOfPaths(paths: Path[]): Box {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity]
  for (const path of paths)
    for (const p of path) {
      if (p.x < x0) x0 = p.x
      if (p.y < y0) y0 = p.y
      if (p.x > x1) x1 = p.x
      if (p.y > y1) y1 = p.y
    }
  return [x0, y0, x1, y1]
}

/** Whether two boxes share some area (boxes that only touch share none). */
export function boxesOverlap(a: Box, b: Box): boolean {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}
