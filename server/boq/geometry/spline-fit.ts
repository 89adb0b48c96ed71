import type { Point } from '../drawing.ts'

/**
 * A fit-point spline (what AutoCAD stores when a spline is drawn through points) as the cubic
 * NURBS it stands for: C2 cubic interpolation with end tangents, knots at the cumulative chord
 * lengths (Piegl & Tiller, The NURBS Book, A9.2) — the same control points LibreDWG writes to DXF.
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
  const d0 = unit(startTangent) ?? unit(sub(q[1], q[0])) ?? { x: 0, y: 0, z: 0 }
  const dn = unit(endTangent) ?? unit(sub(q[n], q[n - 1])) ?? { x: 0, y: 0, z: 0 }
  const knots = [0, 0, 0, 0, ...u.slice(1, n), total, total, total, total]
  const p: Point[] = new Array(n + 3)
  p[0] = q[0]
  p[1] = add(q[0], scale(d0, u[1] / 3))
  p[n + 2] = q[n]
  p[n + 1] = add(q[n], scale(dn, -(total - u[n - 1]) / 3))
  if (n === 1) return { degree: 3, knots, control: p }
  // Tridiagonal system for P2 … Pn (A9.2), basis functions evaluated at the knots.
  const dd: number[] = new Array(n + 2).fill(0)
  let abc = basis(knots, 4, knots[4])
  let den = abc[1]
  p[2] = scale(sub(q[1], scale(p[1], abc[0])), 1 / den)
  for (let i = 3; i < n; i++) {
    dd[i] = abc[2] / den
    abc = basis(knots, i + 2, knots[i + 2])
    den = abc[1] - abc[0] * dd[i]
    p[i] = scale(sub(q[i - 1], scale(p[i - 1], abc[0])), 1 / den)
  }
  dd[n] = abc[2] / den
  abc = basis(knots, n + 2, knots[n + 2])
  den = abc[1] - abc[0] * dd[n]
  p[n] = scale(sub(sub(q[n - 1], scale(p[n + 1], abc[2])), scale(p[n - 1], abc[0])), 1 / den)
  for (let i = n - 1; i >= 2; i--) p[i] = sub(p[i], scale(p[i + 1], dd[i + 1]))
  return { degree: 3, knots, control: p }
}

/** The cubic basis functions non-zero in knot span `span` at u (A2.2). */
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
