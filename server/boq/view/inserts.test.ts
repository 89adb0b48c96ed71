import { describe, expect, it } from 'vitest'
import { arcsOf, pathsOf } from '#contract/testing/drawing-geometry.ts'
import { entity, insert, picture, point } from '../../testing/boq/view/picture-factory.ts'
import type { PictureBlock } from '../model/picture.ts'
import { buildGeometry } from './build.ts'

const line = (ax: number, ay: number, bx: number, by: number) =>
  entity({ kind: 'line', a: point(ax, ay), b: point(bx, by) }, { layer: '0' })

const block = (base: [number, number], ...entities: PictureBlock['entities']): PictureBlock => ({
  base: point(...base),
  entities,
})

/** Points to 4 decimals (float32 around the origin), -0 as 0. */
const rounded = (points: [number, number][]) =>
  points.map(([x, y]) => [Math.round(x * 1e4) / 1e4 + 0, Math.round(y * 1e4) / 1e4 + 0])

describe('buildGeometry: block references', () => {
  it('places a block: translate(position) · rotate · scale · translate(−base)', () => {
    const { geometry } = buildGeometry(
      picture([entity(insert('B', point(10, 20), { rotation: Math.PI / 2, scale: point(2, 3) }))], {
        blocks: { B: block([1, 1], line(1, 1, 2, 1), line(1, 1, 1, 2)) },
      }),
    )
    const paths = pathsOf(geometry)
    // (2, 1) − base = (1, 0), scaled (2, 0), turned (0, 2); (1, 2) − base = (0, 1) → (0, 3) → (−3, 0).
    expect(rounded(paths[0].points)).toEqual([
      [10, 20],
      [10, 22],
    ])
    expect(rounded(paths[1].points)).toEqual([
      [10, 20],
      [7, 20],
    ])
    expect(paths.map((p) => p.owner)).toEqual([0, 0])
  })

  it('composes nested references, everything owned by the model-space reference', () => {
    const { geometry } = buildGeometry(
      picture(
        [
          entity({ kind: 'line', a: point(0, 0), b: point(1, 0) }),
          entity(insert('Outer', point(100, 0), { scale: point(2, 2) })),
        ],
        {
          blocks: {
            Outer: block(
              [0, 0],
              line(0, 0, 1, 0),
              entity(insert('Inner', point(5, 0), { rotation: Math.PI / 2 })),
            ),
            Inner: block([0, 0], line(0, 0, 1, 0)),
          },
        },
      ),
    )
    const paths = pathsOf(geometry)
    expect(paths.map((p) => p.owner)).toEqual([0, 1, 1])
    expect(rounded(paths[1].points)).toEqual([
      [100, 0],
      [102, 0],
    ])
    // Inner's (1, 0) turned to (0, 1), moved to (5, 1), then Outer: ×2 and +100.
    expect(rounded(paths[2].points)).toEqual([
      [110, 0],
      [110, 2],
    ])
  })

  it('repeats a MINSERT over columns × rows, spaced in its rotated frame', () => {
    const { geometry } = buildGeometry(
      picture(
        [
          entity(
            insert('Dot', point(0, 0), {
              rotation: Math.PI / 2,
              columns: 3,
              rows: 2,
              columnSpacing: 10,
              rowSpacing: 20,
            }),
          ),
        ],
        {
          blocks: {
            Dot: block([0, 0], entity({ kind: 'circle', center: point(0, 0), radius: 1 })),
          },
        },
      ),
    )
    const centres = arcsOf(geometry).map((a) => [Math.round(a.x) + 0, Math.round(a.y) + 0])
    // Columns run along the turned x axis (up), rows along the turned y axis (left).
    expect(centres).toEqual([
      [0, 0],
      [0, 10],
      [0, 20],
      [-20, 0],
      [-20, 10],
      [-20, 20],
    ])
  })

  it('turns a mirrored arc round: counter-clockwise from its mapped end', () => {
    const { geometry } = buildGeometry(
      picture([entity(insert('Q', point(0, 0), { scale: point(-2, 2) }))], {
        blocks: {
          Q: block(
            [0, 0],
            entity({ kind: 'arc', center: point(1, 0), radius: 1, start: 0, end: Math.PI / 2 }),
          ),
        },
      }),
    )
    const [arc] = arcsOf(geometry)
    // The first quadrant of a circle at (1, 0), mirrored in x and doubled: the second quadrant
    // of a circle of radius 2 at (−2, 0), from π/2 to π.
    expect(arc.x).toBeCloseTo(-2, 5)
    expect(arc.y).toBeCloseTo(0, 5)
    expect(arc.radius).toBeCloseTo(2, 5)
    expect(arc.start).toBeCloseTo(Math.PI / 2, 5)
    expect(arc.sweep).toBeCloseTo(Math.PI / 2, 5)
  })

  it('keeps a turned, uniformly scaled arc an arc', () => {
    const { geometry } = buildGeometry(
      picture([entity(insert('A', point(0, 0), { rotation: Math.PI / 2, scale: point(3, 3) }))], {
        blocks: {
          A: block(
            [0, 0],
            entity({ kind: 'arc', center: point(0, 0), radius: 1, start: 0, end: 1 }),
          ),
        },
      }),
    )
    const [arc] = arcsOf(geometry)
    expect(arc.radius).toBeCloseTo(3, 6)
    expect(arc.start).toBeCloseTo(Math.PI / 2, 6)
    expect(arc.sweep).toBeCloseTo(1, 6)
  })

  it('flattens a circle scaled more one way than the other into a closed path on the ellipse', () => {
    const { geometry } = buildGeometry(
      picture([entity(insert('C', point(0, 0), { scale: point(2, 1) }))], {
        blocks: { C: block([0, 0], entity({ kind: 'circle', center: point(0, 0), radius: 1 })) },
      }),
    )
    expect(geometry.arcOwners.length).toBe(0)
    const [path] = pathsOf(geometry)
    expect(path.points.length).toBeGreaterThan(16)
    expect(path.points.at(-1)).toEqual(path.points[0])
    for (const [x, y] of path.points) expect((x / 2) ** 2 + y ** 2).toBeCloseTo(1, 5)
  })

  it('cuts a block that contains itself, with a warning, and draws the rest once', () => {
    const { geometry, warnings } = buildGeometry(
      picture([entity(insert('A', point(0, 0)))], {
        blocks: {
          A: block([0, 0], line(0, 0, 1, 0), entity(insert('B', point(0, 10)))),
          B: block([0, 0], line(0, 0, 0, 1), entity(insert('A', point(0, 10)))),
        },
      }),
    )
    expect(pathsOf(geometry).map((p) => rounded(p.points))).toEqual([
      [
        [0, 0],
        [1, 0],
      ],
      [
        [0, 10],
        [0, 11],
      ],
    ])
    expect(warnings).toEqual([
      'Block "A" contains itself: the drawing view draws it once, without the reference to itself.',
    ])
  })

  it('draws nothing for a reference to a block that is not defined', () => {
    const { geometry, warnings } = buildGeometry(
      picture([entity(insert('Missing', point(0, 0)), { handle: '2A' })]),
    )
    expect(geometry.handles).toEqual(['2A'])
    expect(geometry.pathOwners.length + geometry.arcOwners.length).toBe(0)
    expect(warnings).toEqual([])
  })

  it('stops adding past its limit, says the view shows part of the drawing, keeps every handle', () => {
    const grid = insert('Tick', point(0, 0), {
      columns: 1000,
      rows: 1000,
      columnSpacing: 1,
      rowSpacing: 1,
    })
    const { geometry, warnings } = buildGeometry(
      picture([entity(grid), entity({ kind: 'line', a: point(0, 0), b: point(5, 5) })], {
        blocks: { Tick: block([0, 0], line(0, 0, 0.5, 0)) },
      }),
      { limit: 10_000 },
    )
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/shows only part of this drawing/)
    expect(geometry.handles).toHaveLength(2)
    const stored =
      geometry.points.length + 3 * geometry.pathOwners.length + 1 + 7 * geometry.arcOwners.length
    expect(stored).toBeGreaterThan(9_000)
    expect(stored).toBeLessThanOrEqual(10_010)
    expect(new Set(geometry.pathOwners)).toEqual(new Set([0]))
  })

  it('stops a huge grid of an empty block too', () => {
    const grid = insert('Empty', point(0, 0), { columns: 1e6, rows: 1e6 })
    const { warnings } = buildGeometry(
      picture([entity(grid)], { blocks: { Empty: block([0, 0]) } }),
      { limit: 10_000 },
    )
    expect(warnings).toHaveLength(1)
  })
})
