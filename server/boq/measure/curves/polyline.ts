import type { Vertex } from '../../model/primitives.ts'

/** The arc a bulge describes over a chord: its sweep θ (radians, ≥ 0) and radius. */
function sweepAndRadius(chord: number, bulge: number): { sweep: number; radius: number } {
  const sweep = 4 * Math.atan(Math.abs(bulge))
  return { sweep, radius: chord / (2 * Math.sin(sweep / 2)) }
}

/**
 * The arc a's bulge describes from a to b: its centre, radius, start angle and sweep, signed
 * (negative: clockwise). Null for a straight segment or one of no length.
 */
export function bulgeArc(
  a: Vertex,
  b: Vertex,
): { center: { x: number; y: number }; radius: number; start: number; sweep: number } | null {
  const chord = Math.hypot(b.x - a.x, b.y - a.y)
  if (chord === 0 || a.bulge === 0 || !Number.isFinite(a.bulge)) return null
  const { sweep, radius } = sweepAndRadius(chord, a.bulge)
  // Centre: from the chord's midpoint along its normal, on the side the bulge says.
  const toCenter = radius * Math.cos(sweep / 2) * Math.sign(a.bulge)
  const center = {
    x: (a.x + b.x) / 2 - ((b.y - a.y) / chord) * toCenter,
    y: (a.y + b.y) / 2 + ((b.x - a.x) / chord) * toCenter,
  }
  const start = Math.atan2(a.y - center.y, a.x - center.x)
  return { center, radius, start, sweep: Math.sign(a.bulge) * sweep }
}

function segmentLength(a: Vertex, b: Vertex): number {
  const dx = b.x - a.x
  const dy = b.y - a.y
  const dz = b.z - a.z
  if (a.bulge === 0) return Math.hypot(dx, dy, dz)
  const chord = Math.hypot(dx, dy)
  if (chord === 0) return 0
  const { sweep, radius } = sweepAndRadius(chord, a.bulge)
  return sweep * radius
}

/** Length along the vertices; a closed polyline includes its closing segment. */
export function polylineLength(vertices: Vertex[], closed: boolean): number {
  let length = 0
  for (let i = 0; i + 1 < vertices.length; i++)
    length += segmentLength(vertices[i], vertices[i + 1])
  if (closed && vertices.length > 1)
    length += segmentLength(vertices[vertices.length - 1], vertices[0])
  return length
}

/** Signed area (counter-clockwise positive) of the closed outline, bulged segments included. */
export function polylineSignedArea(vertices: Vertex[]): number {
  const n = vertices.length
  if (n < 2) return 0
  let twice = 0
  let arcs = 0
  for (let i = 0; i < n; i++) {
    const a = vertices[i]
    const b = vertices[(i + 1) % n]
    twice += a.x * b.y - b.x * a.y
    if (a.bulge !== 0) {
      const chord = Math.hypot(b.x - a.x, b.y - a.y)
      if (chord > 0) {
        const { sweep, radius } = sweepAndRadius(chord, a.bulge)
        // The circular segment between chord and arc lies left of the chord for a positive bulge.
        arcs += Math.sign(a.bulge) * ((radius * radius) / 2) * (sweep - Math.sin(sweep))
      }
    }
  }
  return twice / 2 + arcs
}

/** Whether the two ends meet (a polyline drawn back to its start, without the closed flag). */
export function endsMeet(vertices: Vertex[]): boolean {
  if (vertices.length < 3) return false
  const a = vertices[0]
  const b = vertices[vertices.length - 1]
  let size = 0
  for (const v of vertices) size = Math.max(size, Math.abs(v.x), Math.abs(v.y))
  return Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z) <= 1e-9 * Math.max(1, size)
}

/** The outline as points, bulges flattened (for containment tests, not for measures). */
export function flattenPolyline(vertices: Vertex[], closed: boolean): { x: number; y: number }[] {
  const points: { x: number; y: number }[] = []
  const n = vertices.length
  const last = closed ? n : n - 1
  for (let i = 0; i < last; i++) {
    const a = vertices[i]
    const b = vertices[(i + 1) % n]
    points.push({ x: a.x, y: a.y })
    const arc = bulgeArc(a, b)
    if (!arc) continue
    const { center, radius, start, sweep } = arc
    const steps = Math.max(2, Math.ceil(Math.abs(sweep) / (Math.PI / 32)))
    for (let s = 1; s < steps; s++) {
      const t = start + (sweep * s) / steps
      points.push({ x: center.x + radius * Math.cos(t), y: center.y + radius * Math.sin(t) })
    }
  }
  if (!closed && n > 0) points.push({ x: vertices[n - 1].x, y: vertices[n - 1].y })
  return points
}
