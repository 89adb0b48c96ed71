import earcut from 'earcut'
import { loopOutline } from '../measure/curves/loops.ts'
import type { Loop, Point } from '../model/primitives.ts'

/** A hatch in its own coordinates: its loops' outlines (x y pairs) and its fill, if solid. */
export type HatchDrawing = { outlines: Float64Array[]; fill: Triangles | null }

/** Triangles as index triples into `xy` (x y pairs). */
export type Triangles = { xy: Float64Array; indices: number[] }

export function hatchDrawing(loops: Loop[], solid: boolean): HatchDrawing {
  const outlines: Float64Array[] = []
  for (const loop of loops) {
    const points = loopOutline(loop)
    const xy = new Float64Array(points.length * 2)
    points.forEach((p, i) => {
      xy[2 * i] = p.x
      xy[2 * i + 1] = p.y
    })
    if (points.length > 0) outlines.push(xy)
  }
  return { outlines, fill: solid ? fillLoops(outlines) : null }
}

type Ring = {
  xy: Float64Array
  area: number
  minX: number
  minY: number
  maxX: number
  maxY: number
  depth: number
  /** For an outer ring (even depth): itself and the holes directly inside it. */
  group: Ring[]
}

/**
 * Fills closed outlines the way AutoCAD's normal hatch style does: a ring inside one other ring
 * is a hole in it, a ring inside a hole is filled again, and so on. Each ring's parent is the
 * smallest larger ring that holds a point of its first chord; each filled ring is triangulated
 * with the holes directly inside it.
 */
export function fillLoops(outlines: Float64Array[]): Triangles {
  const rings = outlines.filter((xy) => xy.length >= 6).map(ringOf)
  rings.sort((p, q) => q.area - p.area)
  for (let i = 0; i < rings.length; i++) {
    const ring = rings[i]
    const probeX = (ring.xy[0] + ring.xy[2]) / 2
    const probeY = (ring.xy[1] + ring.xy[3]) / 2
    let parent: Ring | undefined
    for (let j = i - 1; j >= 0 && parent === undefined; j--) {
      const other = rings[j]
      if (other.area > ring.area && contains(other, probeX, probeY)) parent = other
    }
    ring.depth = parent ? parent.depth + 1 : 0
    if (ring.depth % 2 === 0) ring.group.push(ring)
    else parent?.group.push(ring)
  }
  const xy: number[] = []
  const indices: number[] = []
  for (const outer of rings) {
    if (outer.group.length === 0) continue
    const data: number[] = []
    const holes: number[] = []
    for (const ring of outer.group) {
      if (ring !== outer) holes.push(data.length / 2)
      for (const value of ring.xy) data.push(value)
    }
    const offset = xy.length / 2
    for (const index of earcut(data, holes)) indices.push(offset + index)
    for (const value of data) xy.push(value)
  }
  return { xy: Float64Array.from(xy), indices }
}

function ringOf(xy: Float64Array): Ring {
  let twice = 0
  let minX = Number.POSITIVE_INFINITY
  let minY = Number.POSITIVE_INFINITY
  let maxX = Number.NEGATIVE_INFINITY
  let maxY = Number.NEGATIVE_INFINITY
  const n = xy.length / 2
  for (let i = 0; i < n; i++) {
    const x = xy[2 * i]
    const y = xy[2 * i + 1]
    const next = ((i + 1) % n) * 2
    twice += x * xy[next + 1] - xy[next] * y
    minX = Math.min(minX, x)
    minY = Math.min(minY, y)
    maxX = Math.max(maxX, x)
    maxY = Math.max(maxY, y)
  }
  return { xy, area: Math.abs(twice) / 2, minX, minY, maxX, maxY, depth: 0, group: [] }
}

function contains(ring: Ring, x: number, y: number): boolean {
  if (x < ring.minX || x > ring.maxX || y < ring.minY || y > ring.maxY) return false
  const { xy } = ring
  const n = xy.length / 2
  let inside = false
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const ax = xy[2 * i]
    const ay = xy[2 * i + 1]
    const bx = xy[2 * j]
    const by = xy[2 * j + 1]
    if (ay > y !== by > y && x < ((bx - ax) * (y - ay)) / (by - ay) + ax) inside = !inside
  }
  return inside
}

/**
 * A SOLID's or TRACE's triangles as corner index triples: corners come in DXF order, so the
 * quadrilateral runs 1-2-4-3; a fourth corner on the third (or none) makes it a triangle.
 */
export function solidTriangles(corners: Point[]): number[] {
  if (corners.length < 3) return []
  const fourth = corners[3]
  const third = corners[2]
  if (!fourth || (fourth.x === third.x && fourth.y === third.y)) return [0, 1, 2]
  return [0, 1, 3, 0, 3, 2]
}
