import { describe, expect, it } from 'vitest'
import { ARC_PX, detailHolds, detailLevel, toleranceAt } from './geometry-detail'

describe('level of detail', () => {
  it('is the coarsest whose arcs stray at most ARC_PX on screen', () => {
    const finest = 0.25
    for (const unitsPerPx of [0.1, 1, 3, 8.6, 100]) {
      const level = detailLevel(unitsPerPx, finest)
      expect(toleranceAt(finest, level)).toBeLessThanOrEqual(Math.max(finest, ARC_PX * unitsPerPx))
      if (level > 0) expect(toleranceAt(finest, level + 1)).toBeGreaterThan(ARC_PX * unitsPerPx)
    }
  })

  it('is the finest when zoomed in further, or for a drawing without size', () => {
    expect(detailLevel(0.001, 0.25)).toBe(0)
    expect(detailLevel(10, 0)).toBe(0)
  })

  it('is rebuilt finer at once, coarser only two levels on', () => {
    expect(detailHolds(3, 3)).toBe(true)
    expect(detailHolds(3, 2)).toBe(false)
    expect(detailHolds(3, 4)).toBe(true)
    expect(detailHolds(3, 5)).toBe(false)
  })
})
