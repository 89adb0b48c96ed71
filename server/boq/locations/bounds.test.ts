import { describe, expect, it } from 'vitest'
import type { Shape } from '../model/picture.ts'
import { boundsOf } from './bounds.ts'
import { lineworkOf } from './flatten.ts'

/** A small deterministic generator: the same shapes every run. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1664525 + 1013904223) % 2 ** 32
    return state / 2 ** 32
  }
}

const at = (r: () => number) => ({ x: r() * 100 - 50, y: r() * 100 - 50, z: 0 })

function shapes(r: () => number): Shape[] {
  const out: Shape[] = []
  for (let i = 0; i < 200; i++) {
    const vertices = Array.from({ length: 2 + Math.floor(r() * 5) }, () => ({
      ...at(r),
      bulge: r() < 0.3 ? 0 : (r() - 0.5) * 6,
    }))
    out.push({ kind: 'polyline', vertices, closed: r() < 0.5 })
    out.push({ kind: 'arc', center: at(r), radius: r() * 20, start: r() * 7, end: r() * 7 })
    out.push({ kind: 'circle', center: at(r), radius: r() * 20 })
    const major = { x: (r() - 0.5) * 40, y: (r() - 0.5) * 40, z: 0 }
    out.push({ kind: 'ellipse', center: at(r), major, ratio: r(), start: 0, end: 2 * Math.PI })
    out.push({
      kind: 'spline',
      spline: {
        degree: 3,
        knots: [0, 0, 0, 0, 1, 2, 2, 2, 2],
        control: Array.from({ length: 5 }, () => at(r)),
        weights: [],
        fit: [],
      },
    })
  }
  return out
}

describe('a piece’s box from its own figures', () => {
  it('holds every point of the piece as it is flattened (bulges, arcs, ellipses, splines)', () => {
    const outside: string[] = []
    let points = 0
    for (const shape of shapes(random(7))) {
      const box = boundsOf(shape)
      if (!box) throw new Error(`no box for a ${shape.kind}`)
      const slack = 1e-9 * 100
      for (const path of lineworkOf(shape, 1e-3))
        for (const p of path) {
          points++
          const inside =
            p.x >= box[0] - slack &&
            p.y >= box[1] - slack &&
            p.x <= box[2] + slack &&
            p.y <= box[3] + slack
          if (!inside) outside.push(`${shape.kind} (${p.x}, ${p.y}) outside [${box.join(', ')}]`)
        }
    }
    expect(points).toBeGreaterThan(10_000)
    expect(outside).toEqual([])
  })

  it('gives none where no cheap box is sure (a spline with a weight of 0)', () => {
    const spline = {
      degree: 1,
      knots: [0, 0, 1, 1],
      control: [at(random(1)), at(random(2))],
      weights: [1, 0],
      fit: [],
    }
    expect(boundsOf({ kind: 'spline', spline })).toBeNull()
  })
})
