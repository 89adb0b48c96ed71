import { describe, expect, it } from 'vitest'
import { drawnGeometryOf } from '#contract/testing/drawing-geometry.ts'
import { extentsOf, mainBoxOf, ownerExtents } from './geometry-extents'
import { type Extents, mainExtents, nth, withSomeSize } from './main-extents'

const TURN = 2 * Math.PI

describe('owner extents', () => {
  it('boxes everything drawn for an owner: paths, arcs by their sweep, triangles', () => {
    const geometry = drawnGeometryOf({
      handles: ['A', 'B', 'C', 'D', 'E'],
      paths: [
        { points: [0, 0, 10, 5], owner: 0 },
        { points: [-3, 2, 1, 1], owner: 0 },
      ],
      arcs: [
        // A quarter turn from the east to the north: no further than its ends.
        { x: 100, y: 100, radius: 10, start: 0, sweep: TURN / 4, owner: 1 },
        // From north-east past the north to north-west: up to the top of its circle.
        { x: 0, y: 0, radius: 2, start: TURN / 8, sweep: TURN / 4, owner: 2 },
      ],
      triangles: [{ points: [5, 5, 7, 5, 5, 9], owner: 3 }],
    })
    const box = ownerExtents(geometry)
    const [a, b, c, d] = extentsOf(box)
    expect(a).toEqual({ minX: -3, minY: 0, maxX: 10, maxY: 5 })
    expect(b.minX).toBeCloseTo(100)
    expect(b.minY).toBeCloseTo(100)
    expect(b.maxX).toBeCloseTo(110)
    expect(b.maxY).toBeCloseTo(110)
    expect(c.minX).toBeCloseTo(-Math.SQRT2)
    expect(c.minY).toBeCloseTo(Math.SQRT2)
    expect(c.maxX).toBeCloseTo(Math.SQRT2)
    expect(c.maxY).toBeCloseTo(2)
    expect(d).toEqual({ minX: 5, minY: 5, maxX: 7, maxY: 9 })
    // E has nothing drawn: no extents.
    expect(extentsOf(box)).toHaveLength(4)
    expect(extentsOf(box, [4])).toEqual([])
  })

  it('boxes a whole circle, whatever its start', () => {
    const box = ownerExtents(drawnGeometryOf({ arcs: [{ x: 1, y: 2, radius: 3, start: 1 }] }))
    const [circle] = extentsOf(box)
    expect(circle.minX).toBeCloseTo(-2)
    expect(circle.minY).toBeCloseTo(-1)
    expect(circle.maxX).toBeCloseTo(4)
    expect(circle.maxY).toBeCloseTo(5)
  })
})

/** Pseudo-random numbers, the same at each run. */
function random(seed: number) {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
}

describe('main box', () => {
  it('frames what mainExtents frames, leaving out what lies far from the rest', () => {
    const next = random(7)
    const boxes: number[] = []
    for (let i = 0; i < 5000; i++) {
      const x = next() * 1000
      const y = next() * 700
      boxes.push(x, y, x + next() * 20, y + next() * 20)
    }
    // A grid's runs of equal centres, a stray point far off, a huge block.
    for (let i = 0; i < 2000; i++) boxes.push(i % 10, 5, (i % 10) + 1, 6)
    boxes.push(90_000, 90_000, 90_001, 90_001, -50_000, -50_000, 50_000, 50_000)
    const extents = new Float64Array(boxes)
    const expected = mainExtents(extentsOf(extents)) as Extents
    expect(mainBoxOf(extents)).toEqual(expected)
    expect(expected.maxX).toBeLessThan(2000)
    const some = Array.from({ length: 1500 }, (_, i) => i * 3)
    expect(mainBoxOf(extents, some)).toEqual(mainExtents(extentsOf(extents, some)))
  })

  it('frames a few owners as mainExtents does, and none as nothing', () => {
    const extents = new Float64Array([
      0,
      0,
      1,
      1,
      5,
      5,
      6,
      7,
      Infinity,
      Infinity,
      -Infinity,
      -Infinity,
    ])
    expect(mainBoxOf(extents)).toEqual({ minX: 0, minY: 0, maxX: 6, maxY: 7 })
    expect(mainBoxOf(extents, [2])).toBeUndefined()
  })

  it('selects the value a sort would put at a place', () => {
    const next = random(3)
    const values = Float64Array.from({ length: 3001 }, () => Math.floor(next() * 50))
    const sorted = [...values].sort((a, b) => a - b)
    for (const k of [0, 60, 1500, 2940, 3000]) expect(nth(values.slice(), k)).toBe(sorted[k])
    // Every place of many small arrays, of few values and of many.
    for (let round = 0; round < 300; round++) {
      const few = Float64Array.from({ length: 1 + (round % 40) }, () =>
        Math.floor(next() * (round % 2 ? 4 : 1000)),
      )
      const order = [...few].sort((a, b) => a - b)
      for (let k = 0; k < few.length; k++) expect(nth(few.slice(), k)).toBe(order[k])
    }
  })
})

describe('with some size', () => {
  const drawing = { minX: 0, minY: 0, maxX: 500, maxY: 100 }

  it('keeps a box with an area', () => {
    const box = { minX: 1, minY: 2, maxX: 3, maxY: 4 }
    expect(withSomeSize(box, drawing)).toBe(box)
  })

  it('gives a point or a line along an axis a fiftieth of the drawing around it', () => {
    expect(withSomeSize({ minX: 10, minY: 20, maxX: 30, maxY: 20 }, drawing)).toEqual({
      minX: 0,
      minY: 10,
      maxX: 40,
      maxY: 30,
    })
  })
})
