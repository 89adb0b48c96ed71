import type { Point } from '../model/primitives.ts'

/** A 2D affine map: x' = a x + c y + e, y' = b x + d y + f. */
export type Affine = { a: number; b: number; c: number; d: number; e: number; f: number }

export const IDENTITY: Affine = { a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 }

/** `outer` after `inner`: a point goes through `inner` first. */
export function compose(outer: Affine, inner: Affine): Affine {
  return {
    a: outer.a * inner.a + outer.c * inner.b,
    b: outer.b * inner.a + outer.d * inner.b,
    c: outer.a * inner.c + outer.c * inner.d,
    d: outer.b * inner.c + outer.d * inner.d,
    e: outer.a * inner.e + outer.c * inner.f + outer.e,
    f: outer.b * inner.e + outer.d * inner.f + outer.f,
  }
}

/** What places a block: a reference's position, scale and rotation, and a MINSERT's spacing. */
export type Placement = {
  position: Point
  scale: Point
  rotation: number
  columnSpacing: number
  rowSpacing: number
}

/**
 * Where a reference puts its block's first copy, translate(position) · rotate(rotation) ·
 * scale(sx, sy) · translate(−base), and how far each further MINSERT column and row moves it:
 * its spacing turned with the reference, not scaled.
 */
export function placementOf(
  placement: Placement,
  base: Point,
): { first: Affine; column: [number, number]; row: [number, number] } {
  const { position, scale, rotation } = placement
  const cos = Math.cos(rotation)
  const sin = Math.sin(rotation)
  const a = cos * scale.x
  const b = sin * scale.x
  const c = -sin * scale.y
  const d = cos * scale.y
  return {
    first: {
      a,
      b,
      c,
      d,
      e: position.x - (a * base.x + c * base.y),
      f: position.y - (b * base.x + d * base.y),
    },
    column: [cos * placement.columnSpacing, sin * placement.columnSpacing],
    row: [-sin * placement.rowSpacing, cos * placement.rowSpacing],
  }
}

/** The map followed by a move of (dx, dy). */
export const moved = (m: Affine, dx: number, dy: number): Affine => ({
  ...m,
  e: m.e + dx,
  f: m.f + dy,
})

/** A vector (no position) through the map. */
export const mapVector = (m: Affine, [x, y]: [number, number]): [number, number] => [
  m.a * x + m.c * y,
  m.b * x + m.d * y,
]

// Relative difference below which a map counts as keeping circles circles: far below what shows.
const SIMILAR = 1e-6

/**
 * The map's scale factor when it keeps circles circles (a rotation and one scale, possibly
 * mirrored); null when it stretches one way more than another.
 */
export function uniformScale(m: Affine): number | null {
  const s = Math.sqrt(Math.abs(m.a * m.d - m.b * m.c))
  const eps = SIMILAR * Math.max(Math.abs(m.a), Math.abs(m.b), Math.abs(m.c), Math.abs(m.d))
  const turned = Math.abs(m.a - m.d) <= eps && Math.abs(m.b + m.c) <= eps
  const mirrored = Math.abs(m.a + m.d) <= eps && Math.abs(m.b - m.c) <= eps
  return turned || mirrored ? s : null
}

export const isMirrored = (m: Affine) => m.a * m.d - m.b * m.c < 0

/** The most the map stretches any length (its largest singular value). */
export const largestStretch = (m: Affine) => largestSingularValue(m.a, m.b, m.c, m.d)

/** The largest singular value of the 2 × 2 matrix with columns (a, b) and (c, d). */
export function largestSingularValue(a: number, b: number, c: number, d: number): number {
  const sum = a * a + b * b + c * c + d * d
  const det = a * d - b * c
  return Math.sqrt((sum + Math.sqrt(Math.max(0, sum * sum - 4 * det * det))) / 2)
}

/** The direction an angle's unit vector points in once mapped. */
export const mapAngle = (m: Affine, angle: number) => {
  const cos = Math.cos(angle)
  const sin = Math.sin(angle)
  return Math.atan2(m.b * cos + m.d * sin, m.a * cos + m.c * sin)
}

/** A MINSERT's columns or rows as a count of copies: at least one (an INSERT has 1 × 1). */
export const gridSize = (count: number) =>
  Number.isFinite(count) && count >= 1 ? Math.floor(count) : 1
