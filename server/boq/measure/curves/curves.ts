import type { HelixParameters } from '../../model/drawing.ts'
import type { Point, SplineGeometry } from '../../model/primitives.ts'
import { fitPointSpline } from './spline-fit.ts'

const TWO_PI = 2 * Math.PI

/** Sweep from start to end counter-clockwise, in (0, 2π]; equal angles mean a full turn. */
export function sweep(start: number, end: number): number {
  let s = (end - start) % TWO_PI
  if (s <= 1e-12) s += TWO_PI
  return s
}

/** An angle in [0, 2π), never −0. */
export function normalAngle(angle: number): number {
  const a = angle % TWO_PI
  if (a < 0) return a + TWO_PI
  return a === 0 ? 0 : a
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

/**
 * Gauss–Legendre pieces for an ellipse arc: the flatter the ellipse, the sharper the integrand
 * near the ends of the major axis. Measured relative error on a full turn: ratio 0.5 with 8
 * pieces 8e-12, 0.2 with 16 4e-11, 0.1 with 32 1e-11; flatter ones keep 64 (1e-8 at 0.01).
 */
function ellipsePieces(ratio: number, sweepAngle: number): number {
  const r = Math.min(1, Math.abs(ratio))
  const perTurn = r >= 0.5 ? 8 : r >= 0.2 ? 16 : r >= 0.1 ? 32 : 64
  return Math.max(2, Math.ceil((perTurn * sweepAngle) / TWO_PI))
}

/** Length of an ellipse arc between parameters start and end (counter-clockwise). */
export function ellipseLength(major: Point, ratio: number, start: number, end: number): number {
  const a = Math.hypot(major.x, major.y, major.z)
  const b = a * Math.abs(ratio)
  const s = sweep(start, end)
  if (Math.abs(ratio) === 1) return a * s // a circle
  return integrate(
    (t) => Math.hypot(a * Math.sin(t), b * Math.cos(t)),
    start,
    start + s,
    ellipsePieces(ratio, s),
  )
}

/** Points along a NURBS curve (de Boor), `perSpan` per non-empty knot span, ends included. */
export function sampleSpline(spline: SplineGeometry, perSpan: number): Point[] {
  if (spline.control.length < 2 && spline.fit.length >= 2) {
    const nurbs = asNurbs(spline)
    if (nurbs !== spline) return sampleSpline(nurbs, perSpan)
  }
  const { degree: p, knots, control, weights } = spline
  const n = control.length
  if (n < 2 || p < 1 || knots.length !== n + p + 1) return fitOrControl(spline)
  const rational = weights.length === n && weights.some((w) => w !== 1)
  const points: Point[] = []
  const scratch = new Float64Array(4 * (p + 1))
  const lo = knots[p]
  const hi = knots[n]
  for (let span = p; span < n; span++) {
    const u0 = knots[span]
    const u1 = knots[span + 1]
    if (u1 <= u0) continue
    const first = points.length === 0 ? 0 : 1
    for (let s = first; s <= perSpan; s++) {
      const u = Math.min(hi, Math.max(lo, u0 + ((u1 - u0) * s) / perSpan))
      points.push(deBoor(span, u, p, knots, control, rational ? weights : null, scratch))
    }
  }
  return points.length > 1 ? points : fitOrControl(spline)
}

function fitOrControl(spline: SplineGeometry): Point[] {
  return spline.fit.length > 1 ? spline.fit : spline.control
}

/** De Boor's algorithm; `d` is scratch space for (p + 1) homogeneous points (no allocation). */
function deBoor(
  span: number,
  u: number,
  p: number,
  knots: number[],
  control: Point[],
  weights: number[] | null,
  d: Float64Array,
): Point {
  for (let j = 0; j <= p; j++) {
    const c = control[j + span - p]
    const w = weights ? weights[j + span - p] : 1
    d[4 * j] = c.x * w
    d[4 * j + 1] = c.y * w
    d[4 * j + 2] = c.z * w
    d[4 * j + 3] = w
  }
  for (let r = 1; r <= p; r++) {
    for (let j = p; j >= r; j--) {
      const i = j + span - p
      const denom = knots[i + p - r + 1] - knots[i]
      const alpha = denom === 0 ? 0 : (u - knots[i]) / denom
      for (let k = 0; k < 4; k++)
        d[4 * j + k] = (1 - alpha) * d[4 * (j - 1) + k] + alpha * d[4 * j + k]
    }
  }
  const w = d[4 * p + 3]
  return { x: d[4 * p] / w, y: d[4 * p + 1] / w, z: d[4 * p + 2] / w }
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
 * error fall with the fourth power of the step instead of the square (worst 8e-8 relative on the
 * fixtures' splines; fewer samples would cost accuracy: 1e-6 at half the density).
 */
export function splineLength(spline: SplineGeometry): number {
  const curve = asNurbs(spline)
  const coarse = chordLength(sampleSpline(curve, 32))
  const fine = chordLength(sampleSpline(curve, 64))
  return fine + (fine - coarse) / 3
}

/** A fit-point spline solved once to its NURBS form (sampling it several times is then cheap). */
function asNurbs(spline: SplineGeometry): SplineGeometry {
  if (spline.control.length >= 2 || spline.fit.length < 2) return spline
  const nurbs = fitPointSpline(spline.fit, spline.startTangent, spline.endTangent)
  return nurbs ? { ...spline, ...nurbs, weights: [], fit: [] } : spline
}

/**
 * A helix's length: from its own parameters when the file gives usable ones (exactly), else the
 * length of the spline the file keeps with it (AutoCAD's approximation of the path).
 */
export function helixLength(helix: SplineGeometry & { parameters?: HelixParameters }): number {
  const exact = helix.parameters ? helixPathLength(helix.parameters) : null
  return exact ?? splineLength(helix)
}

/**
 * The length of the path a helix's parameters describe: the radius goes linearly from the base
 * radius r0 (the start point's distance from the axis) to the top radius r1 while the angle goes
 * through the turns and the height to turns × turn height, so with t in [0, 1]
 * L = ∫ √((2π·turns·r(t))² + (r1 − r0)² + h²) dt (a cylindrical helix: turns × √((2πr)² + pitch²)).
 * The integrand is smooth; its sharpest bend, near r = 0 of a flat spiral, is 1 / (2π·turns)
 * wide, so the Gauss–Legendre pieces grow with the turns. Null when the parameters describe no
 * path (no axis direction, no turns, numbers that are not finite).
 */
export function helixPathLength(p: HelixParameters): number | null {
  const { axisBase: base, start, axis } = p
  const axisLength = Math.hypot(axis.x, axis.y, axis.z)
  const numbers = [base.x, base.y, base.z, start.x, start.y, start.z, axisLength]
  numbers.push(p.radius, p.turns, p.turnHeight)
  if (!numbers.every(Number.isFinite) || !(axisLength > 0) || !(p.turns > 0)) return null
  const d = { x: start.x - base.x, y: start.y - base.y, z: start.z - base.z }
  const along = (d.x * axis.x + d.y * axis.y + d.z * axis.z) / axisLength
  const r0 = Math.sqrt(Math.max(0, d.x * d.x + d.y * d.y + d.z * d.z - along * along))
  const r1 = Math.abs(p.radius)
  const height = p.turns * p.turnHeight
  const k = TWO_PI * p.turns
  const slope = (r1 - r0) ** 2 + height ** 2
  const pieces = Math.min(4096, Math.max(16, Math.ceil(4 * p.turns)))
  return integrate(
    (t) => {
      const r = r0 + (r1 - r0) * t
      return Math.sqrt(k * k * r * r + slope)
    },
    0,
    1,
    pieces,
  )
}
