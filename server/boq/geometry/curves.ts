import type { Point, SplineGeometry } from '../drawing.ts'
import { fitPointSpline } from './spline-fit.ts'

const TWO_PI = 2 * Math.PI

/** Sweep from start to end counter-clockwise, in (0, 2π]; equal angles mean a full turn. */
export function sweep(start: number, end: number): number {
  let s = (end - start) % TWO_PI
  if (s <= 1e-12) s += TWO_PI
  return s
}

export function arcLength(radius: number, start: number, end: number): number {
  return Math.abs(radius) * sweep(start, end)
}

// 8-point Gauss–Legendre nodes and weights on [-1, 1].
const GL_X = [
  -0.9602898564975363, -0.7966664774136267, -0.525532409916329, -0.1834346424956498,
  0.1834346424956498, 0.525532409916329, 0.7966664774136267, 0.9602898564975363,
]
const GL_W = [
  0.1012285362903763, 0.2223810344533745, 0.3137066458778873, 0.362683783378362, 0.362683783378362,
  0.3137066458778873, 0.2223810344533745, 0.1012285362903763,
]

/** ∫ f over [a, b] by composite Gauss–Legendre (smooth integrands: accurate to ~1e-12). */
export function integrate(f: (t: number) => number, a: number, b: number, pieces = 64): number {
  const h = (b - a) / pieces
  let total = 0
  for (let p = 0; p < pieces; p++) {
    const mid = a + (p + 0.5) * h
    for (let k = 0; k < 8; k++) total += GL_W[k] * f(mid + (GL_X[k] * h) / 2)
  }
  return (total * h) / 2
}

/** Length of an ellipse arc between parameters start and end (counter-clockwise). */
export function ellipseLength(major: Point, ratio: number, start: number, end: number): number {
  const a = Math.hypot(major.x, major.y, major.z)
  const b = a * Math.abs(ratio)
  const s = sweep(start, end)
  return integrate((t) => Math.hypot(a * Math.sin(t), b * Math.cos(t)), start, start + s)
}

/** Points along a NURBS curve (de Boor), `perSpan` per non-empty knot span, ends included. */
export function sampleSpline(spline: SplineGeometry, perSpan: number): Point[] {
  if (spline.control.length < 2 && spline.fit.length >= 2) {
    const nurbs = fitPointSpline(spline.fit, spline.startTangent, spline.endTangent)
    if (nurbs) return sampleSpline({ ...spline, ...nurbs, weights: [], fit: [] }, perSpan)
  }
  const { degree: p, knots, control, weights } = spline
  const n = control.length
  if (n < 2 || p < 1 || knots.length !== n + p + 1) return fitOrControl(spline)
  const rational = weights.length === n && weights.some((w) => w !== 1)
  const points: Point[] = []
  const lo = knots[p]
  const hi = knots[n]
  for (let span = p; span < n; span++) {
    const u0 = knots[span]
    const u1 = knots[span + 1]
    if (u1 <= u0) continue
    const first = points.length === 0 ? 0 : 1
    for (let s = first; s <= perSpan; s++) {
      const u = Math.min(hi, Math.max(lo, u0 + ((u1 - u0) * s) / perSpan))
      points.push(deBoor(span, u, p, knots, control, rational ? weights : null))
    }
  }
  return points.length > 1 ? points : fitOrControl(spline)
}

function fitOrControl(spline: SplineGeometry): Point[] {
  return spline.fit.length > 1 ? spline.fit : spline.control
}

function deBoor(
  span: number,
  u: number,
  p: number,
  knots: number[],
  control: Point[],
  weights: number[] | null,
): Point {
  const d: [number, number, number, number][] = []
  for (let j = 0; j <= p; j++) {
    const c = control[j + span - p]
    const w = weights ? weights[j + span - p] : 1
    d.push([c.x * w, c.y * w, c.z * w, w])
  }
  for (let r = 1; r <= p; r++) {
    for (let j = p; j >= r; j--) {
      const i = j + span - p
      const denom = knots[i + p - r + 1] - knots[i]
      const alpha = denom === 0 ? 0 : (u - knots[i]) / denom
      for (let k = 0; k < 4; k++) d[j][k] = (1 - alpha) * d[j - 1][k] + alpha * d[j][k]
    }
  }
  const [x, y, z, w] = d[p]
  return { x: x / w, y: y / w, z: z / w }
}

function chordLength(points: Point[]): number {
  let total = 0
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]
    const b = points[i]
    total += Math.hypot(b.x - a.x, b.y - a.y, b.z - a.z)
  }
  return total
}

/**
 * Spline length: chord sums at two sample densities, extrapolated (Richardson), which makes the
 * error fall with the fourth power of the step instead of the square.
 */
export function splineLength(spline: SplineGeometry): number {
  const coarse = chordLength(sampleSpline(spline, 32))
  const fine = chordLength(sampleSpline(spline, 64))
  return fine + (fine - coarse) / 3
}
