import { describe, expect, it } from 'vitest'
import {
  afterPictureMove,
  drawingPoint,
  framing,
  limitedZoom,
  panned,
  zoomedAbout,
} from './geometry-camera'

const size = { width: 400, height: 200 }

describe('view place', () => {
  it('frames a box in the middle, with the margin asked for on its tighter side', () => {
    expect(framing({ minX: 0, minY: 0, maxX: 100, maxY: 100 }, size, 1.2)).toEqual({
      x: 50,
      y: 50,
      unitsPerPx: 0.6,
    })
    const wide = framing({ minX: -400, minY: 0, maxX: 400, maxY: 10 }, size, 1)
    expect(wide.unitsPerPx).toBe(2)
  })

  it('finds the drawing under a point of the view, y up', () => {
    const place = { x: 10, y: 20, unitsPerPx: 2 }
    expect(drawingPoint(place, 200, 100, size)).toEqual({ x: 10, y: 20 })
    expect(drawingPoint(place, 0, 0, size)).toEqual({ x: -390, y: 220 })
  })

  it('zooms keeping the drawing under the pointer where it is', () => {
    const place = { x: 10, y: 20, unitsPerPx: 2 }
    const closer = zoomedAbout(place, 4, 50, 30, size)
    expect(closer.unitsPerPx).toBe(0.5)
    expect(drawingPoint(closer, 50, 30, size)).toEqual(drawingPoint(place, 50, 30, size))
  })

  it('pans with the drag: the drawing follows the pointer', () => {
    const place = { x: 10, y: 20, unitsPerPx: 2 }
    const moved = panned(place, 30, -10)
    expect(drawingPoint(moved, 130, 90, size)).toEqual(drawingPoint(place, 100, 100, size))
  })

  it('draws what the moved picture showed: its corners show what they showed', () => {
    const place = { x: 10, y: 20, unitsPerPx: 2 }
    const move = { scale: 1.5, dx: 40, dy: -20 }
    const now = afterPictureMove(place, move, size)
    for (const [x, y] of [
      [0, 0],
      [400, 200],
      [123, 45],
    ]) {
      const shown = drawingPoint(now, move.dx + move.scale * x, move.dy + move.scale * y, size)
      const was = drawingPoint(place, x, y, size)
      expect(shown.x).toBeCloseTo(was.x)
      expect(shown.y).toBeCloseTo(was.y)
    }
  })

  it('keeps the zoom within sharp float32 and the drawing in sight', () => {
    const place = { x: 0, y: 0, unitsPerPx: 1 }
    expect(limitedZoom(place, 2, 1000)).toBe(2)
    expect(limitedZoom(place, 1e12, 1000)).toBeCloseTo(1000)
    expect(limitedZoom(place, 1e-12, 1000)).toBeCloseTo(1 / 10_000)
  })
})
