import { describe, expect, it } from 'vitest'
import { decodeDrawnGeometry, encodeGeometry } from '#contract/drawing-geometry.ts'
import { drawnGeometryOf, geometryOf } from '#contract/testing/drawing-geometry.ts'
import {
  arcSides,
  bufferSteps,
  buildBuffers,
  type GeometryBuffers,
  MAX_TURN_SIDES,
  MIN_TURN_SIDES,
} from './geometry-buffers'

const TURN = 2 * Math.PI

/** The segments of a buffer as [x1, y1, x2, y2] lists. */
function segments(lines: Float32Array): number[][] {
  const found: number[][] = []
  for (let at = 0; at < lines.length; at += 4) found.push([...lines.subarray(at, at + 4)])
  return found
}

describe('arc sides', () => {
  it('gives a small circle the fewest sides and a big one the most', () => {
    expect(arcSides(1.5, TURN, 1)).toBe(MIN_TURN_SIDES)
    expect(arcSides(10_000, TURN, 0.01)).toBe(MAX_TURN_SIDES)
  })

  it('gives a speck, no wider than the tolerance from its centre, one side', () => {
    expect(arcSides(1, TURN, 1)).toBe(1)
    expect(arcSides(0.2, TURN / 3, 1)).toBe(1)
    expect(arcSides(1.01, TURN, 1)).toBe(MIN_TURN_SIDES)
  })

  it('gives as many sides as keep each within the tolerance of its arc', () => {
    // A side spanning θ strays r (1 − cos θ/2): 10 sides of a radius of 4 stray 0.196.
    expect(arcSides(4, TURN, 0.2)).toBe(10)
    const sides = arcSides(100, TURN, 0.5)
    const stray = (n: number) => 100 * (1 - Math.cos(Math.PI / n))
    expect(stray(sides)).toBeLessThanOrEqual(0.5)
    expect(stray(sides - 1)).toBeGreaterThan(0.5)
  })

  it('gives an arc its share of a circle, at least one side, whichever way it turns', () => {
    expect(arcSides(100, TURN / 4, 0.5)).toBe(Math.ceil(arcSides(100, TURN, 0.5) / 4))
    expect(arcSides(100, -TURN / 4, 0.5)).toBe(arcSides(100, TURN / 4, 0.5))
    expect(arcSides(100, 0.001, 0.5)).toBe(1)
  })
})

describe('geometry buffers', () => {
  it('draws a path of n points as n − 1 segments, a closed one back to its start', () => {
    const { lines, lineGroups } = buildBuffers(
      drawnGeometryOf({
        paths: [{ points: [0, 0, 10, 0, 10, 5] }, { points: [1, 1, 2, 1, 2, 2, 1, 1] }],
      }),
      { tolerance: 1 },
    )
    expect(segments(lines)).toEqual([
      [0, 0, 10, 0],
      [10, 0, 10, 5],
      [1, 1, 2, 1],
      [2, 1, 2, 2],
      [2, 2, 1, 1],
    ])
    expect(lineGroups).toEqual([{ colour: 0, start: 0, count: 10 }])
  })

  it('draws a path of one point as nothing', () => {
    const { lines, lineGroups } = buildBuffers(drawnGeometryOf({ points: [3, 4] }), {
      tolerance: 1,
    })
    expect(lines).toHaveLength(0)
    expect(lineGroups).toEqual([])
  })

  it('sorts lines and fills into a run a colour, in the order of the colours, leaving out those unused', () => {
    const buffers = buildBuffers(
      drawnGeometryOf({
        colours: [0xff0000, 0x00ff00, 0x0000ff],
        paths: [
          { points: [0, 0, 1, 0], colour: 2 },
          { points: [0, 1, 1, 1], colour: 0 },
          { points: [0, 2, 1, 2, 1, 3], colour: 2 },
        ],
        triangles: [
          { points: [0, 0, 1, 0, 0, 1], colour: 1 },
          { points: [5, 5, 6, 5, 5, 6], colour: 0 },
        ],
      }),
      { tolerance: 1 },
    )
    expect(buffers.lineGroups).toEqual([
      { colour: 0, start: 0, count: 2 },
      { colour: 2, start: 2, count: 6 },
    ])
    expect(segments(buffers.lines)).toEqual([
      [0, 1, 1, 1],
      [0, 0, 1, 0],
      [0, 2, 1, 2],
      [1, 2, 1, 3],
    ])
    expect(buffers.fillGroups).toEqual([
      { colour: 0, start: 0, count: 3 },
      { colour: 1, start: 3, count: 3 },
    ])
    expect([...buffers.fills]).toEqual([5, 5, 6, 5, 5, 6, 0, 0, 1, 0, 0, 1])
  })

  it('draws an arc as its sides, end to end, from its start round its sweep', () => {
    const arc = { x: 10, y: 20, radius: 4, start: TURN / 4, sweep: TURN / 2 }
    const { lines } = buildBuffers(drawnGeometryOf({ arcs: [arc] }), { tolerance: 0.05 })
    const sides = arcSides(4, TURN / 2, 0.05)
    const drawn = segments(lines)
    expect(drawn).toHaveLength(sides)
    expect(drawn[0][0]).toBeCloseTo(10)
    expect(drawn[0][1]).toBeCloseTo(24)
    expect(drawn[sides - 1][2]).toBeCloseTo(10)
    expect(drawn[sides - 1][3]).toBeCloseTo(16)
    for (const [i, [x1, y1, x2, y2]] of drawn.entries()) {
      expect(Math.hypot(x1 - 10, y1 - 20)).toBeCloseTo(4, 4)
      expect(Math.hypot(x2 - 10, y2 - 20)).toBeCloseTo(4, 4)
      // On the western half, and each side starting where the one before ended.
      expect(x1).toBeLessThanOrEqual(10.0001)
      if (i > 0) expect([x1, y1]).toEqual(drawn[i - 1].slice(2))
    }
  })

  it('draws a speck as one side across it: a circle its diameter, a short arc its chord', () => {
    const { lines } = buildBuffers(
      drawnGeometryOf({
        arcs: [
          { x: 10, y: 20, radius: 0.5 },
          { x: 10, y: 20, radius: 0.5, start: 0, sweep: -TURN / 4 },
        ],
      }),
      { tolerance: 1 },
    )
    const [circle, arc] = segments(lines)
    expect(circle?.map((n) => Number(n.toFixed(4)))).toEqual([10.5, 20, 9.5, 20])
    expect(arc?.map((n) => Number(n.toFixed(4)))).toEqual([10.5, 20, 10, 19.5])
  })

  it('gives a small circle of a drawing few sides and a large one many', () => {
    const { lineGroups } = buildBuffers(
      drawnGeometryOf({
        colours: [0xffffff, 0xff0000],
        arcs: [
          { x: 0, y: 0, radius: 4 },
          { x: 0, y: 0, radius: 4000, colour: 1 },
        ],
      }),
      { tolerance: 0.5 },
    )
    expect(lineGroups.map(({ count }) => count / 2)).toEqual([
      arcSides(4, TURN, 0.5),
      arcSides(4000, TURN, 0.5),
    ])
    expect(lineGroups[0].count / 2).toBeLessThan(10)
    expect(lineGroups[1].count / 2).toBe(MAX_TURN_SIDES)
  })

  it('builds arcs near a box finer than the rest', () => {
    const { lineGroups } = buildBuffers(
      drawnGeometryOf({
        colours: [0xffffff, 0xff0000, 0x00ff00],
        arcs: [
          { x: 0, y: 0, radius: 50, colour: 0 },
          { x: 1000, y: 0, radius: 50, colour: 1 },
          // Its centre outside the box, its circle reaching in.
          { x: 130, y: 0, radius: 50, colour: 2 },
        ],
      }),
      {
        tolerance: 5,
        near: { box: { minX: -100, minY: -100, maxX: 100, maxY: 100 }, tolerance: 0.1 },
      },
    )
    expect(lineGroups.map(({ count }) => count / 2)).toEqual([
      arcSides(50, TURN, 0.1),
      arcSides(50, TURN, 5),
      arcSides(50, TURN, 0.1),
    ])
    expect(arcSides(50, TURN, 0.1)).toBeGreaterThan(arcSides(50, TURN, 5))
  })

  it('builds only the parts of the owners asked for', () => {
    const geometry = drawnGeometryOf({
      handles: ['A', 'B', 'C'],
      paths: [
        { points: [0, 0, 1, 0], owner: 0 },
        { points: [0, 1, 1, 1], owner: 1 },
      ],
      arcs: [
        { x: 0, y: 0, radius: 1, owner: 2 },
        { x: 5, y: 5, radius: 1, owner: 1 },
      ],
      triangles: [
        { points: [0, 0, 1, 0, 0, 1], owner: 1 },
        { points: [2, 2, 3, 2, 2, 3], owner: 2 },
      ],
    })
    const only = buildBuffers(geometry, { tolerance: 1, owners: new Uint8Array([0, 1, 0]) })
    const sides = arcSides(1, TURN, 1)
    expect(only.lines).toHaveLength((1 + sides) * 4)
    expect(segments(only.lines)[0]).toEqual([0, 1, 1, 1])
    expect(only.lines[4]).toBeCloseTo(6)
    expect([...only.fills]).toEqual([0, 0, 1, 0, 0, 1])
  })

  it('builds the same from geometry that went through the wire', () => {
    const parts = {
      handles: ['1F', '2A0'],
      colours: [0xff0000, 0x00ff00],
      paths: [{ points: [0, 0, 10, 0, 10, 5] }, { points: [1, 1, 2, 2], owner: 1, colour: 1 }],
      arcs: [{ x: 3, y: 4, radius: 2, start: 0.5, sweep: 1, owner: 1 }],
      triangles: [{ points: [0, 0, 1, 0, 0, 1], colour: 1 }],
    }
    const geometry = drawnGeometryOf(parts)
    const sent = decodeDrawnGeometry(encodeGeometry(geometryOf(parts)))
    expect(buildBuffers(sent, { tolerance: 0.01 })).toEqual(
      buildBuffers(geometry, { tolerance: 0.01 }),
    )
  })

  it('tells its progress as it goes, up to all of it', () => {
    const paths = Array.from({ length: 40_000 }, (_, i) => ({ points: [i, 0, i, 1] }))
    const steps = bufferSteps(drawnGeometryOf({ paths }), { tolerance: 1 })
    const told: number[] = []
    let built: GeometryBuffers | undefined
    while (!built) {
      const step = steps.next()
      if (step.done) built = step.value
      else told.push(step.value)
    }
    expect(told.length).toBeGreaterThan(2)
    expect(told).toEqual([...told].sort((a, b) => a - b))
    expect(told.at(-1)).toBe(100)
    expect(built.lines).toHaveLength(40_000 * 4)
  })
})
