import { describe, expect, it } from 'vitest'
import { drawnGeometryOf } from '#contract/testing/drawing-geometry.ts'
import { ownerAt } from './geometry-pick'

const TURN = 2 * Math.PI

describe('picking', () => {
  const geometry = drawnGeometryOf({
    handles: ['LINE', 'POLY', 'ARC', 'FILL', 'OVER'],
    paths: [
      { points: [0, 0, 100, 0], owner: 0 },
      { points: [0, 10, 50, 10, 50, 60], owner: 1 },
      { points: [200, 200, 300, 300], owner: 4 },
    ],
    // The upper half of a circle round (100, 100).
    arcs: [{ x: 100, y: 100, radius: 20, start: 0, sweep: TURN / 2, owner: 2 }],
    triangles: [{ points: [200, 200, 400, 200, 200, 400], owner: 3 }],
  })

  it('finds the nearest shape within the tolerance', () => {
    expect(ownerAt(geometry, 30, 1, 2)).toBe(0)
    expect(ownerAt(geometry, 30, 9, 2)).toBe(1)
    expect(ownerAt(geometry, 51, 40, 2)).toBe(1)
    expect(ownerAt(geometry, 30, 4, 2)).toBeUndefined()
    expect(ownerAt(geometry, 30, 4, 5)).toBe(0)
    expect(ownerAt(geometry, 30, 6, 5)).toBe(1)
  })

  it('finds an arc along its sweep only', () => {
    expect(ownerAt(geometry, 100, 121, 2)).toBe(2)
    expect(ownerAt(geometry, 100, 100, 2)).toBeUndefined()
    // On its circle, but on the half it does not sweep.
    expect(ownerAt(geometry, 100, 79, 2)).toBeUndefined()
    // Just past its end, by the end.
    expect(ownerAt(geometry, 79, 99, 2)).toBe(2)
  })

  it('finds an arc swept clockwise', () => {
    const clockwise = drawnGeometryOf({
      arcs: [{ x: 0, y: 0, radius: 10, start: 0, sweep: -TURN / 4 }],
    })
    expect(ownerAt(clockwise, 0, -10, 1)).toBe(0)
    expect(ownerAt(clockwise, 0, 10, 1)).toBeUndefined()
  })

  it('finds a fill under the point, but a line over it first', () => {
    expect(ownerAt(geometry, 220, 300, 2)).toBe(3)
    expect(ownerAt(geometry, 251, 250, 2)).toBe(4)
    expect(ownerAt(geometry, 390, 390, 2)).toBeUndefined()
  })

  it('finds the one drawn last of two as near', () => {
    const twice = drawnGeometryOf({
      handles: ['UNDER', 'TOP'],
      paths: [
        { points: [0, 0, 10, 0], owner: 0 },
        { points: [0, 0, 10, 0], owner: 1 },
      ],
    })
    expect(ownerAt(twice, 5, 0, 1)).toBe(1)
  })

  it('finds nothing in a geometry without shapes', () => {
    expect(ownerAt(drawnGeometryOf(), 0, 0, 10)).toBeUndefined()
  })
})
