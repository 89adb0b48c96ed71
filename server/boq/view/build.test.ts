import { describe, expect, it } from 'vitest'
import { decodeGeometry, encodeGeometry, geometryCounts } from '#contract/drawing-geometry.ts'
import {
  entity,
  insert,
  picture,
  point,
  syntheticPicture,
} from '../../testing/boq/view/picture-factory.ts'
import { buildGeometry } from './build.ts'

describe('buildGeometry', () => {
  it('comes back the same through encodeGeometry and decodeGeometry', () => {
    const { geometry } = buildGeometry(
      picture(
        [
          entity({ kind: 'line', a: point(500_000, 200_000), b: point(500_010, 200_004) }),
          entity(insert('B', point(500_000, 200_000), { rotation: 0.3 })),
          entity({
            kind: 'solid',
            corners: [point(500_000, 200_000), point(500_001, 200_000), point(500_000, 200_001)],
          }),
        ],
        {
          layerColours: { Walls: 0x123456 },
          blocks: {
            B: {
              base: point(0, 0),
              entities: [
                entity({ kind: 'arc', center: point(1, 1), radius: 2, start: 1, end: 2 }),
                entity({
                  kind: 'polyline',
                  closed: true,
                  vertices: [
                    { x: 0, y: 0, z: 0, bulge: 0.5 },
                    { x: 3, y: 0, z: 0, bulge: 0 },
                  ],
                }),
              ],
            },
          },
        },
      ),
    )
    expect(geometryCounts(geometry)).toEqual({ paths: 2, arcs: 1, triangles: 1 })
    expect(decodeGeometry(encodeGeometry(geometry))).toEqual(geometry)
  })

  it('draws the bench drawing (a tenth of it): every handle, a path or arc for each', () => {
    const { geometry, warnings } = buildGeometry(syntheticPicture(20_000))
    expect(warnings).toEqual([])
    expect(geometry.handles).toHaveLength(20_000)
    expect(geometryCounts(geometry)).toEqual({ paths: 10_000, arcs: 10_000, triangles: 0 })
    expect(geometry.colours).toHaveLength(200)
    // Lines and circles alternate with polylines and block references on each row.
    expect(geometry.arcOwners[1]).toBe(3)
    expect(geometry.points.length).toBe(5_000 * 4 + 5_000 * 8)
  })
})
