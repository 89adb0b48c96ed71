import { describe, expect, it } from 'vitest'
import { arcsOf, pathsOf } from '#contract/testing/drawing-geometry.ts'
import { entity, insert, picture, point } from '../../testing/boq/view/picture-factory.ts'
import type { PictureColour } from '../model/picture.ts'
import { buildGeometry } from './build.ts'

const RED = 0xff0000
const GREEN = 0x00ff00
const BLUE = 0x0000ff
const WHITE = 0xffffff

const line = (layer: string, colour: PictureColour, handle?: string) =>
  entity({ kind: 'line', a: point(0, 0), b: point(1, 1) }, { layer, colour, handle })

describe('buildGeometry: colours and hidden layers', () => {
  it("takes a layer's colour for bylayer, white for a layer without one, and its own colour", () => {
    const { geometry } = buildGeometry(
      picture([line('Walls', 'bylayer'), line('Unlisted', 'bylayer'), line('Walls', BLUE)], {
        layerColours: { Walls: RED },
      }),
    )
    expect(pathsOf(geometry).map((p) => p.rgb)).toEqual([RED, WHITE, BLUE])
  })

  it('lists each colour once', () => {
    const { geometry } = buildGeometry(
      picture([line('A', 'bylayer'), line('B', 'bylayer'), line('C', RED), line('D', GREEN)], {
        layerColours: { A: RED, B: RED, D: GREEN },
      }),
    )
    expect(geometry.colours).toEqual([RED, GREEN])
    expect(Array.from(geometry.pathColours)).toEqual([0, 0, 0, 1])
  })

  it("draws a block's layer-0 entities on the reference's layer and byblock in its colour", () => {
    const { geometry } = buildGeometry(
      picture(
        [
          entity(insert('B', point(0, 0)), { layer: 'Doors', colour: 'bylayer' }),
          entity(insert('B', point(0, 0)), { layer: 'Doors', colour: BLUE }),
          line('Walls', 'byblock'),
        ],
        {
          layerColours: { Doors: GREEN, Walls: RED, '0': WHITE },
          blocks: {
            B: {
              base: point(0, 0),
              entities: [line('0', 'bylayer'), line('Walls', 'bylayer'), line('Walls', 'byblock')],
            },
          },
        },
      ),
    )
    expect(pathsOf(geometry).map((p) => [p.owner, p.rgb])).toEqual([
      [0, GREEN],
      [0, RED],
      [0, GREEN],
      [1, GREEN],
      [1, RED],
      [1, BLUE],
      // byblock outside any block: white.
      [2, WHITE],
    ])
  })

  it('passes layer and colour down nested references that are on layer 0 and byblock', () => {
    const { geometry } = buildGeometry(
      picture([entity(insert('Outer', point(0, 0)), { layer: 'Doors', colour: BLUE })], {
        layerColours: { Doors: GREEN },
        blocks: {
          Outer: {
            base: point(0, 0),
            entities: [entity(insert('Inner', point(0, 0)), { layer: '0', colour: 'byblock' })],
          },
          Inner: {
            base: point(0, 0),
            entities: [
              entity(
                { kind: 'circle', center: point(0, 0), radius: 1 },
                { layer: '0', colour: 'byblock' },
              ),
              entity(
                { kind: 'circle', center: point(0, 0), radius: 2 },
                { layer: '0', colour: 'bylayer' },
              ),
            ],
          },
        },
      }),
    )
    expect(arcsOf(geometry).map((a) => a.rgb)).toEqual([BLUE, GREEN])
  })

  it('draws nothing on a hidden layer, in blocks by the layer each entity resolves to', () => {
    const circle = { kind: 'circle' as const, center: point(0, 0), radius: 1 }
    const { geometry } = buildGeometry(
      picture(
        [
          line('Off', 'bylayer', 'A'),
          entity(insert('B', point(0, 0)), { layer: 'Off', handle: 'B' }),
          entity(insert('B', point(0, 0)), { layer: 'Shown', handle: 'C' }),
          line('Shown', 'bylayer', 'D'),
        ],
        {
          hiddenLayers: ['Off', 'Frozen'],
          blocks: {
            B: {
              base: point(0, 0),
              entities: [
                entity(circle, { layer: '0' }),
                entity(circle, { layer: 'Frozen' }),
                entity({ ...circle, radius: 2 }, { layer: 'Other' }),
              ],
            },
          },
        },
      ),
    )
    expect(geometry.handles).toEqual(['A', 'B', 'C', 'D'])
    expect(arcsOf(geometry).map((a) => [a.owner, a.radius])).toEqual([
      [2, 1],
      [2, 2],
    ])
    expect(Array.from(geometry.pathOwners)).toEqual([3])
  })
})
