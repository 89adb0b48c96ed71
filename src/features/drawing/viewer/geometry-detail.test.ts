import { describe, expect, it } from 'vitest'
import { ARC_PX, detailFor, detailLevel, nextDetail, toleranceAt } from './geometry-detail'

const floor = 0.25
/** A view 400 × 200 px at `unitsPerPx`, its middle at (x, 0). */
const viewAt = (unitsPerPx: number, x = 0) => ({
  minX: x - 200 * unitsPerPx,
  minY: -100 * unitsPerPx,
  maxX: x + 200 * unitsPerPx,
  maxY: 100 * unitsPerPx,
})

describe('level of detail', () => {
  it('is the coarsest whose arcs stray at most ARC_PX on screen', () => {
    for (const unitsPerPx of [0.0001, 0.1, 1, 3, 8.6, 100]) {
      const level = detailLevel(unitsPerPx, floor)
      expect(toleranceAt(floor, level)).toBeLessThanOrEqual(ARC_PX * unitsPerPx)
      expect(toleranceAt(floor, level + 1)).toBeGreaterThan(ARC_PX * unitsPerPx)
    }
  })

  it('is level 0 for a drawing without size', () => {
    expect(detailLevel(10, 0)).toBe(0)
  })

  it('draws finer than level 0 only near the view', () => {
    expect(detailFor(viewAt(8), 8, floor)).toEqual({ level: 4, near: undefined })
    const close = detailFor(viewAt(0.01), 0.01, floor)
    expect(close.level).toBeLessThan(0)
    expect(close.near).toEqual({ minX: -6, minY: -3, maxX: 6, maxY: 3 })
  })

  it('is rebuilt finer at once, coarser only two levels on', () => {
    const built = detailFor(viewAt(8), 8, floor)
    expect(nextDetail(built, viewAt(8), 8, floor)).toBeUndefined()
    expect(nextDetail(built, viewAt(16), 16, floor)).toBeUndefined()
    expect(nextDetail(built, viewAt(32), 32, floor)?.level).toBe(6)
    expect(nextDetail(built, viewAt(4), 4, floor)?.level).toBe(3)
  })

  it('is rebuilt zoomed in once the view leaves the part drawn finer', () => {
    const built = detailFor(viewAt(0.01), 0.01, floor)
    expect(nextDetail(built, viewAt(0.01, 3), 0.01, floor)).toBeUndefined()
    expect(nextDetail(built, viewAt(0.01, 5), 0.01, floor)?.near?.minX).toBeCloseTo(-1)
    // Zoomed out to level 0, the arcs in view are as fine as they need be wherever they are.
    const out = detailLevel(1, floor)
    expect(out).toBe(1)
    expect(nextDetail({ level: 0, near: built.near }, viewAt(1, 500), 1, floor)).toBeUndefined()
  })
})
