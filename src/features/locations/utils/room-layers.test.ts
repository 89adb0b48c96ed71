import { describe, expect, it } from 'vitest'
import type { BoqArea } from '#contract/boq.ts'
import { exampleBoq } from '#contract/testing/boq.ts'
import { roomLayers } from './room-layers'

const area = (layer: string, closedPolylines: number, closedCurves?: number): BoqArea => ({
  layer,
  closedPolylines,
  closedPolylineArea: 1,
  ...(closedCurves === undefined ? {} : { closedCurves, closedCurveArea: 1 }),
  hatches: 0,
  hatchArea: 0,
  filledByHatch: 0,
  net: 1,
})

const boqWith = (areas: BoqArea[], texts: Record<string, number> = { MTEXT: 3 }) =>
  exampleBoq({ areas, source: { ...exampleBoq().source, entityCounts: { ...texts } } })

describe('the layers a result proposes as rooms', () => {
  it('are those with closed outlines named as room layers are, the most outlines first', () => {
    const layers = roomLayers(
      boqWith([
        area('A-AREA', 4),
        area('ROOMS', 12),
        area('L2-SPACE', 0, 2),
        area('Zone_B', 1),
        area('Furniture', 40),
        area('Areaway', 3),
        area('A-AREA-EMPTY', 0),
      ]),
    )
    expect(layers).toEqual([
      { layer: 'ROOMS', outlines: 12 },
      { layer: 'A-AREA', outlines: 4 },
      { layer: 'L2-SPACE', outlines: 2 },
      { layer: 'Zone_B', outlines: 1 },
    ])
  })

  it('are none in a drawing without texts: no outline could be named by one', () => {
    expect(roomLayers(boqWith([area('A-AREA', 4)], { LWPOLYLINE: 4 }))).toEqual([])
  })
})
