import { bulgeArc } from '../measure/curves/polyline.ts'
import type { SplineGeometry, Vertex } from '../model/primitives.ts'
import type { GeometrySink } from './sink.ts'
import { type Affine, largestSingularValue } from './transform.ts'

/**
 * How far a flattened curve may stray from the true one: half a pixel when the drawing's extents
 * fill a 2000 px view zoomed in 10×.
 */
export function toleranceFor(drawingSize: number): number {
  return drawingSize > 0 && Number.isFinite(drawingSize) ? drawingSize / 40_000 : 1e-9
}

export const TWO_PI = 2 * Math.PI
// However small, a curve turns at most a sixteenth of a turn per segment (a symbol zoomed in
// further than the tolerance allows for still looks round); however large, a full turn has at
// most 4096 segments.
const MAX_STEP = Math.PI / 8
const MAX_SEGMENTS_PER_TURN = 4096

/** Segments for `sweep` radians of a circle of `radius` so that no chord strays more than `tolerance`. */
export function arcSegments(sweep: number, radius: number, tolerance: number): number {
  const turn = Math.abs(sweep)
  let step = radius > tolerance ? 2 * Math.acos(1 - tolerance / radius) : MAX_STEP
  step = Math.min(MAX_STEP, Math.max(TWO_PI / MAX_SEGMENTS_PER_TURN, step))
  return Math.max(1, Math.ceil(turn / step - 1e-9))
}

/**
 * Points of centre + u cos t + v sin t for t from t0 over `sweep` (signed), mapped by m: a
 * circle, an ellipse, or either as the map stretches it. The chord error is at most the curve's
 * largest semi-axis times (1 − cos(step / 2)), which sets the number of segments.
 */
export function conicPoints(
  sink: GeometrySink,
  m: Affine,
  center: { x: number; y: number },
  u: { x: number; y: number },
  v: { x: number; y: number },
  t0: number,
  sweep: number,
  tolerance: number,
  ends: { start: boolean; end: boolean },
): void {
  const cx = m.a * center.x + m.c * center.y + m.e
  const cy = m.b * center.x + m.d * center.y + m.f
  const ux = m.a * u.x + m.c * u.y
  const uy = m.b * u.x + m.d * u.y
  const vx = m.a * v.x + m.c * v.y
  const vy = m.b * v.x + m.d * v.y
  const segments = arcSegments(sweep, largestSingularValue(ux, uy, vx, vy), tolerance)
  const full = Math.abs(sweep) >= TWO_PI - 1e-12
  const first = ends.start ? 0 : 1
  const last = ends.end ? segments : segments - 1
  for (let s = first; s <= last; s++) {
    // A full turn ends exactly where it began.
    const t = full && s === segments ? t0 : t0 + (sweep * s) / segments
    const cos = Math.cos(t)
    const sin = Math.sin(t)
    sink.point(cx + ux * cos + vx * sin, cy + uy * cos + vy * sin)
  }
}

/** A polyline's points, bulges flattened; a closed one repeats its first point at its end. */
export function polylinePoints(
  sink: GeometrySink,
  m: Affine,
  vertices: Vertex[],
  closed: boolean,
  tolerance: number,
): void {
  const n = vertices.length
  if (n === 0) return
  const last = closed ? n : n - 1
  for (let i = 0; i < last; i++) {
    const a = vertices[i]
    sink.point(m.a * a.x + m.c * a.y + m.e, m.b * a.x + m.d * a.y + m.f)
    if (a.bulge !== 0) bulgePoints(sink, m, a, vertices[(i + 1) % n], tolerance)
  }
  const end = closed ? vertices[0] : vertices[n - 1]
  sink.point(m.a * end.x + m.c * end.y + m.e, m.b * end.x + m.d * end.y + m.f)
}

/** The points strictly between a and b on the arc a's bulge describes. */
function bulgePoints(sink: GeometrySink, m: Affine, a: Vertex, b: Vertex, tolerance: number) {
  const arc = bulgeArc(a, b)
  if (!arc) return
  const { center, radius } = arc
  conicPoints(
    sink,
    m,
    center,
    { x: radius, y: 0 },
    { x: 0, y: radius },
    arc.start,
    arc.sweep,
    tolerance,
    { start: false, end: false },
  )
}

/**
 * Samples per knot span for a spline: a span of degree p flattened into k chords strays at most
 * p(p − 1)/8 · |Δ²P| / k² (|Δ²P| its control points' largest second difference, the Bézier
 * bound, close enough for B-spline spans). Fit-point splines use their fit points instead.
 */
export function splineSamplesPerSpan(
  spline: SplineGeometry,
  stretch: number,
  tolerance: number,
): number {
  const byControl = spline.control.length >= 2
  const points = byControl ? spline.control : spline.fit
  const degree = byControl ? spline.degree : 3
  if (degree <= 1) return 1
  let worst = 0
  for (let i = 1; i + 1 < points.length; i++) {
    const dx = points[i - 1].x - 2 * points[i].x + points[i + 1].x
    const dy = points[i - 1].y - 2 * points[i].y + points[i + 1].y
    worst = Math.max(worst, Math.hypot(dx, dy))
  }
  const samples = Math.ceil(
    Math.sqrt(((degree * (degree - 1)) / 8) * ((worst * stretch) / tolerance)),
  )
  return Number.isFinite(samples) ? Math.min(256, Math.max(4, samples)) : 4
}
