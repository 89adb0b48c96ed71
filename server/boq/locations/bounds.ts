import type { Shape } from '../model/picture.ts'
import type { Vertex } from '../model/primitives.ts'
import type { Box } from './flatten.ts'

/**
 * A box sure to hold a shape (world coordinates), worked out from its own figures without
 * flattening it: most pieces lie wholly inside one zone, and a box that meets no zone boundary
 * says so at once. Null when no such box is cheap to give (the piece is then flattened). Written
 * into `out` when given: a bill's many pieces need no box each.
 */
export function boundsOf(shape: Shape, out: Box = [0, 0, 0, 0]): Box | null {
  empty(out)
  switch (shape.kind) {
    case 'line':
      return set(
        out,
        Math.min(shape.a.x, shape.b.x),
        Math.min(shape.a.y, shape.b.y),
        Math.max(shape.a.x, shape.b.x),
        Math.max(shape.a.y, shape.b.y),
      )
    case 'circle':
    case 'arc': {
      const r = Math.abs(shape.radius)
      const { x, y } = shape.center
      return set(out, x - r, y - r, x + r, y + r)
    }
    case 'ellipse': {
      // The ellipse's points are centre + u cos t + v sin t.
      const { major, ratio, center } = shape
      const dx = Math.abs(major.x) + Math.abs(major.y * ratio)
      const dy = Math.abs(major.y) + Math.abs(major.x * ratio)
      return set(out, center.x - dx, center.y - dy, center.x + dx, center.y + dy)
    }
    case 'polyline':
      return polylineBounds(shape.vertices, shape.closed, out)
    case 'spline': {
      // A B-spline lies in its control points' hull while no weight is negative or zero.
      const { control, weights } = shape.spline
      if (control.length < 2 || weights.some((w) => !(w > 0))) return null
      for (const p of control) grow(out, p.x, p.y, 0)
      return out
    }
    case 'hatch': {
      const loop: Box = [0, 0, 0, 0]
      for (const one of shape.loops) {
        if (one.kind !== 'polyline' || !polylineBounds(one.vertices, true, loop)) return null
        grow(out, loop[0], loop[1], 0)
        grow(out, loop[2], loop[3], 0)
      }
      return out[0] <= out[2] ? out : null
    }
    default:
      return null
  }
}

function empty(box: Box): void {
  set(box, Infinity, Infinity, -Infinity, -Infinity)
}

function set(box: Box, x0: number, y0: number, x1: number, y1: number): Box {
  box[0] = x0
  box[1] = y0
  box[2] = x1
  box[3] = y1
  return box
}

function grow(box: Box, x: number, y: number, pad: number): void {
  if (x - pad < box[0]) box[0] = x - pad
  if (y - pad < box[1]) box[1] = y - pad
  if (x + pad > box[2]) box[2] = x + pad
  if (y + pad > box[3]) box[3] = y + pad
}

/**
 * A polyline's corners, and around each bulged segment its arc: an arc of at most a half turn
 * strays from its chord's box by no more than its sagitta (bulge × half the chord); a longer one
 * stays within its diameter of either end.
 */
function polylineBounds(vertices: Vertex[], closed: boolean, out: Box): Box | null {
  if (vertices.length === 0) return null
  empty(out)
  const n = vertices.length
  for (let i = 0; i < n; i++) {
    const a = vertices[i]
    grow(out, a.x, a.y, 0)
    const bulge = Math.abs(a.bulge)
    if (bulge === 0 || (i === n - 1 && !closed)) continue
    const b = vertices[(i + 1) % n]
    const chord = Math.hypot(b.x - a.x, b.y - a.y)
    const pad = bulge <= 1 ? (bulge * chord) / 2 : (chord * (1 + bulge * bulge)) / (2 * bulge)
    grow(out, a.x, a.y, pad)
    grow(out, b.x, b.y, pad)
  }
  return out
}
