import type { Point } from '../../model/primitives.ts'

/**
 * A fit-point spline (what AutoCAD stores when a spline is drawn through points) as the cubic
 * NURBS AutoCAD builds from it: the C2 cubic through the points, knots at the cumulative chord
 * lengths, and at each end either the stored tangent (a unit derivative along the chord length)
 * or, where none is stored (absent, or of zero length, which is how a DWG says unset), a zero
 * second derivative: the 'natural' end. (The control points AutoCAD writes to DXF for a spline of
 * fit points without tangents are this cubic's to 1e-14; with estimated tangents, such as the
 * chord's direction or a parabola's through three points, the length is 0.5% to 1.2% off.)
 */
export function fitPointSpline(
  fit: Point[],
  startTangent?: Point | null,
  endTangent?: Point | null,
): { degree: number; knots: number[]; control: Point[] } | null {
  const q = fit.filter((p, i) => i === 0 || dist(p, fit[i - 1]) > 0)
  const n = q.length - 1
  if (n < 1) return null
  const u = [0]
  for (let i = 1; i <= n; i++) u.push(u[i - 1] + dist(q[i], q[i - 1]))
  const total = u[n]
  const knots = [0, 0, 0, ...u, total, total, total]
  // The control points P0 … P(n+2): P0 and P(n+2) are the end points; P1 … P(n+1) solve a
  // tridiagonal system, row r in columns r − 1, r, r + 1 (P(r), P(r+1), P(r+2)).
  const a: number[] = new Array(n + 1).fill(0)
  const b: number[] = new Array(n + 1).fill(0)
  const c: number[] = new Array(n + 1).fill(0)
  const d: Point[] = new Array(n + 1)
  // Start: C'(0) = 3 (P1 − P0) / u1, or C''(0) = 0: (P1 − P0) / t4 = (P2 − P1) / t5.
  const d0 = unit(startTangent)
  if (d0) {
    b[0] = 1
    d[0] = add(q[0], scale(d0, u[1] / 3))
  } else {
    b[0] = knots[4] + knots[5]
    c[0] = -knots[4]
    d[0] = scale(q[0], knots[5])
  }
  // Each inner fit point is on the curve: the three cubic basis functions non-zero at its knot.
  for (let r = 1; r < n; r++) {
    const N = basis(knots, r + 3, u[r])
    a[r] = N[0]
    b[r] = N[1]
    c[r] = N[2]
    d[r] = q[r]
  }
  // End: the same, mirrored (α, β: the last span and the last two, in chord length).
  const dn = unit(endTangent)
  const alpha = total - knots[n + 2]
  const beta = total - knots[n + 1]
  if (dn) {
    a[n] = 0
    b[n] = 1
    d[n] = add(q[n], scale(dn, -alpha / 3))
  } else {
    a[n] = -alpha
    b[n] = alpha + beta
    d[n] = scale(q[n], beta)
  }
  const inner = solveTridiagonal(a, b, c, d)
  if (!inner) return null
  return { degree: 3, knots, control: [q[0], ...inner, q[n]] }
}

/**
 * Thomas's algorithm, for the rows above: diagonally dominant at the ends, and the rest rows of
 * B-spline values at their knots (totally positive), so no pivoting is needed.
 */
function solveTridiagonal(a: number[], b: number[], c: number[], d: Point[]): Point[] | null {
  const n = b.length
  const cp: number[] = new Array(n)
  const dp: Point[] = new Array(n)
  for (let r = 0; r < n; r++) {
    const m = r === 0 ? b[0] : b[r] - a[r] * cp[r - 1]
    if (m === 0 || !Number.isFinite(m)) return null
    cp[r] = c[r] / m
    dp[r] = scale(r === 0 ? d[0] : sub(d[r], scale(dp[r - 1], a[r])), 1 / m)
  }
  const x: Point[] = new Array(n)
  x[n - 1] = dp[n - 1]
  for (let r = n - 2; r >= 0; r--) x[r] = sub(dp[r], scale(x[r + 1], cp[r]))
  return x
}

/** The cubic basis functions non-zero in knot span `span` at u (The NURBS Book, A2.2). */
function basis(knots: number[], span: number, u: number): number[] {
  const N = [1, 0, 0, 0]
  const left = [0, 0, 0, 0]
  const right = [0, 0, 0, 0]
  for (let j = 1; j <= 3; j++) {
    left[j] = u - knots[span + 1 - j]
    right[j] = knots[span + j] - u
    let saved = 0
    for (let r = 0; r < j; r++) {
      const temp = N[r] / (right[r + 1] + left[j - r])
      N[r] = saved + right[r + 1] * temp
      saved = left[j - r] * temp
    }
    N[j] = saved
  }
  return N
}

const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z)
const sub = (a: Point, b: Point): Point => ({ x: a.x - b.x, y: a.y - b.y, z: a.z - b.z })
const add = (a: Point, b: Point): Point => ({ x: a.x + b.x, y: a.y + b.y, z: a.z + b.z })
const scale = (a: Point, k: number): Point => ({ x: a.x * k, y: a.y * k, z: a.z * k })
function unit(v?: Point | null): Point | null {
  if (!v) return null
  const len = Math.hypot(v.x, v.y, v.z ?? 0)
  return len > 0 ? { x: v.x / len, y: v.y / len, z: (v.z ?? 0) / len } : null
}
