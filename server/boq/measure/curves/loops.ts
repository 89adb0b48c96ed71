import type { Loop, LoopEdge } from '../../model/primitives.ts'
import { integrate, sampleSpline, sweep } from './curves.ts'
import { flattenPolyline, polylineSignedArea } from './polyline.ts'

type XY = { x: number; y: number }

/**
 * A hatch edge's arc or elliptic arc as a parameter interval traversed in its real direction.
 * A clockwise edge stores its angles mirrored (as AutoCAD writes them): it runs from −start to −end.
 */
function interval(edge: LoopEdge & { kind: 'arc' | 'ellipse' }): [number, number] {
  let { start, end } = edge
  if (edge.kind === 'ellipse') {
    // Elliptic edges store angles: the curve's parameter is the angle on the unstretched circle.
    start = Math.atan2(Math.sin(start) / edge.ratio, Math.cos(start))
    end = Math.atan2(Math.sin(end) / edge.ratio, Math.cos(end))
  }
  if (edge.ccw) return [start, start + sweep(start, end)]
  return [-start, -start - sweep(start, end)]
}

/** ∫ (x dy − y dx) / 2 along one edge: summed over a closed loop it is the signed area. */
function edgeAreaTerm(edge: LoopEdge): number {
  switch (edge.kind) {
    case 'line':
      return (edge.a.x * edge.b.y - edge.b.x * edge.a.y) / 2
    case 'arc': {
      const [t0, t1] = interval(edge)
      const { x: cx, y: cy } = edge.center
      const r = edge.radius
      return (
        (r * r * (t1 - t0) +
          r * cx * (Math.sin(t1) - Math.sin(t0)) -
          r * cy * (Math.cos(t1) - Math.cos(t0))) /
        2
      )
    }
    case 'ellipse': {
      const [t0, t1] = interval(edge)
      const { x: cx, y: cy } = edge.center
      const ux = edge.major.x
      const uy = edge.major.y
      // Minor axis: the major axis turned a quarter counter-clockwise, scaled by the ratio.
      const vx = -uy * edge.ratio
      const vy = ux * edge.ratio
      return integrate(
        (t) => {
          const c = Math.cos(t)
          const s = Math.sin(t)
          const x = cx + ux * c + vx * s
          const y = cy + uy * c + vy * s
          const dx = -ux * s + vx * c
          const dy = -uy * s + vy * c
          return (x * dy - y * dx) / 2
        },
        t0,
        t1,
        32,
      )
    }
    case 'spline': {
      const points = sampleSpline(edge.spline, 64)
      let total = 0
      for (let i = 1; i < points.length; i++) {
        total += (points[i - 1].x * points[i].y - points[i].x * points[i - 1].y) / 2
      }
      return total
    }
  }
}

function edgePoints(edge: LoopEdge): XY[] {
  switch (edge.kind) {
    case 'line':
      return [edge.a]
    case 'arc':
    case 'ellipse': {
      const [t0, t1] = interval(edge)
      const steps = Math.max(4, Math.ceil(Math.abs(t1 - t0) / (Math.PI / 32)))
      const out: XY[] = []
      const ux = edge.kind === 'arc' ? edge.radius : edge.major.x
      const uy = edge.kind === 'arc' ? 0 : edge.major.y
      const ratio = edge.kind === 'arc' ? 1 : edge.ratio
      for (let s = 0; s < steps; s++) {
        const t = t0 + ((t1 - t0) * s) / steps
        const c = Math.cos(t)
        const si = Math.sin(t)
        out.push({
          x: edge.center.x + ux * c - uy * ratio * si,
          y: edge.center.y + uy * c + ux * ratio * si,
        })
      }
      return out
    }
    case 'spline':
      return sampleSpline(edge.spline, 16).slice(0, -1)
  }
}

/** Signed area of one loop (counter-clockwise positive); an edge loop is closed implicitly. */
export function loopSignedArea(loop: Loop): number {
  if (loop.kind === 'polyline') return polylineSignedArea(loop.vertices)
  let total = 0
  for (const edge of loop.edges) total += edgeAreaTerm(edge)
  // Close a gap between the last line and the first (zero when they meet).
  const first = loop.edges[0]
  const last = loop.edges[loop.edges.length - 1]
  if (first?.kind === 'line' && last?.kind === 'line') {
    total += (last.b.x * first.a.y - first.a.x * last.b.y) / 2
  }
  return total
}

/** The loop's corners: polyline vertices, or where each edge starts (what a polyline would have). */
export function loopCorners(loop: Loop): XY[] {
  if (loop.kind === 'polyline') return loop.vertices
  return loop.edges.map((edge) => edgePoints(edge)[0]).filter((p): p is XY => p !== undefined)
}

export function loopOutline(loop: Loop): XY[] {
  if (loop.kind === 'polyline') return flattenPolyline(loop.vertices, true)
  const out: XY[] = []
  for (const edge of loop.edges) out.push(...edgePoints(edge))
  return out
}

function inside(point: XY, polygon: XY[]): boolean {
  let result = false
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i]
    const b = polygon[j]
    if (a.y > point.y !== b.y > point.y) {
      const x = ((b.x - a.x) * (point.y - a.y)) / (b.y - a.y) + a.x
      if (point.x < x) result = !result
    }
  }
  return result
}

/**
 * Area of a hatch: loops nested inside others are holes, islands inside holes count again
 * (AutoCAD's normal style); style 1 (outer) fills only the outermost level minus its holes,
 * style 2 (ignore) only the outermost loops.
 */
export function hatchArea(
  loops: Loop[],
  style = 0,
): { area: number; loopAreas: number[]; corners: XY[][] } {
  const outlines = loops.map(loopOutline)
  const areas = loops.map((l) => Math.abs(loopSignedArea(l)))
  let total = 0
  for (let i = 0; i < loops.length; i++) {
    if (outlines[i].length < 3) continue
    // A point just inside the loop's own outline stands for it: the midpoint of its first chord.
    const a = outlines[i][0]
    const b = outlines[i][1]
    const probe = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }
    let depth = 0
    for (let j = 0; j < loops.length; j++) {
      if (j === i || areas[j] <= areas[i] || outlines[j].length < 3) continue
      if (inside(probe, outlines[j])) depth++
    }
    if (style === 2 && depth > 0) continue
    if (style === 1 && depth > 1) continue
    total += depth % 2 === 0 ? areas[i] : -areas[i]
  }
  return { area: Math.max(0, total), loopAreas: areas, corners: loops.map(loopCorners) }
}
