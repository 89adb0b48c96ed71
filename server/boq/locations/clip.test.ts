import type { Path64, Paths64, Point64 } from 'clipper2-ts'
import { describe, expect, it } from 'vitest'
import { xorshift } from '../../testing/boq/noise.ts'
import { difference, Placer, placeIn, regionOf } from './clip.ts'

/**
 * A revision cloud in frame units (zones span about 2³⁶ steps): a rectangle of `bumps` arcs a
 * side, each flattened into `steps` segments, as a polyline of bulged vertices is.
 */
function cloud(x0: number, y0: number, side: number, bumps: number, steps = 20): Path64 {
  const ring: Path64 = []
  const width = side / bumps
  const corners = [
    [x0, y0, 1, 0],
    [x0 + side, y0, 0, 1],
    [x0 + side, y0 + side, -1, 0],
    [x0, y0 + side, 0, -1],
  ]
  for (const [x, y, dx, dy] of corners)
    for (let k = 0; k < bumps; k++)
      for (let s = 0; s < steps; s++) {
        const t = (k + s / steps) * width
        // Outward of the side: a bump of a fifth of its width.
        const lift = Math.sin((Math.PI * s) / steps) * (width / 5)
        ring.push({ x: Math.round(x + dx * t + dy * lift), y: Math.round(y + dy * t - dx * lift) })
      }
  return ring
}

function square(x0: number, y0: number, side: number): Path64 {
  return [
    { x: x0, y: y0 },
    { x: x0 + side, y: y0 },
    { x: x0 + side, y: y0 + side },
    { x: x0, y: y0 + side },
  ]
}

/** Points where a test of place is easy to get wrong: corners, edges, their rows and columns. */
function hardPoints(region: Paths64, seed: number): Point64[] {
  const random = xorshift(seed)
  const points: Point64[] = []
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity]
  for (const ring of region)
    for (let i = 0; i < ring.length; i++) {
      const a = ring[i]
      const b = ring[(i + 1) % ring.length]
      ;[x0, y0, x1, y1] = [
        Math.min(x0, a.x),
        Math.min(y0, a.y),
        Math.max(x1, a.x),
        Math.max(y1, a.y),
      ]
      const mid = { x: Math.round((a.x + b.x) / 2), y: Math.round((a.y + b.y) / 2) }
      points.push(a, mid, { x: mid.x + 1, y: mid.y }, { x: mid.x, y: mid.y - 1 })
      // On the corner's row or column, a little way off.
      const off = 1 + (random() % 1000)
      points.push({ x: a.x - off, y: a.y }, { x: a.x + off, y: a.y }, { x: a.x, y: a.y + off })
    }
  for (let i = 0; i < 2000; i++) {
    const u = random() / 2 ** 32
    const v = random() / 2 ** 32
    points.push({
      x: Math.round(x0 + (u * 1.2 - 0.1) * (x1 - x0)),
      y: Math.round(y0 + (v * 1.2 - 0.1) * (y1 - y0)),
    })
  }
  return points
}

describe('Placer', () => {
  // A floor holding a finely drawn room (a hole of it) and a plain one, as the regions make it.
  const floor = square(-(2 ** 35), -(2 ** 35), 2 ** 36)
  const room = cloud(-(2 ** 34), -(2 ** 34), 2 ** 34, 60)
  const region = difference([floor], [room, square(2 ** 33, 2 ** 33, 2 ** 32)])

  it('places every point as Clipper’s own test does, in, on or out', () => {
    expect(region.reduce((n, ring) => n + ring.length, 0)).toBeGreaterThan(4000)
    const placer = new Placer(region)
    const points = hardPoints(region, 7)
    const answers = points.map((p) => placer.place(p))
    expect(answers).toEqual(points.map((p) => placeIn(p, region)))
    // The test reaches each answer many times over.
    for (const kind of ['in', 'on', 'out'] as const)
      expect(answers.filter((a) => a === kind).length).toBeGreaterThan(500)
  })

  it('places points in a self-crossing outline’s region and in a cloud of its own as Clipper does', () => {
    const bow: Path64 = cloud(0, 0, 2 ** 30, 40).map((p, i) =>
      i % 97 === 0 ? { x: p.y, y: p.x } : p,
    )
    const cases: [number, Paths64][] = [
      [3, regionOf([bow])],
      [5, [cloud(0, 0, 2 ** 36, 80)]],
      [11, [cloud(0, 0, 10_000, 10, 8)]],
    ]
    for (const [seed, rings] of cases) {
      const placer = new Placer(rings)
      for (const p of hardPoints(rings, seed)) expect(placer.place(p)).toBe(placeIn(p, rings))
    }
  })

  it('places points as Clipper does in rings too small to index', () => {
    const rings = [square(0, 0, 100), square(20, 20, 10)]
    const placer = new Placer(rings)
    for (const p of hardPoints(rings, 13)) expect(placer.place(p)).toBe(placeIn(p, rings))
  })
})
