import { describe, expect, it } from 'vitest'
import { type Extents, mainExtents } from './main-extents'

const box = (x: number, y: number, size = 1): Extents => ({
  minX: x,
  minY: y,
  maxX: x + size,
  maxY: y + size,
})

/** A 10 × 10 grid of unit squares, 10 apart: from (0, 0) to (91, 91). */
const grid = Array.from({ length: 100 }, (_, i) => box((i % 10) * 10, Math.floor(i / 10) * 10))

describe('mainExtents', () => {
  it('frames every entity of a drawing without outliers', () => {
    expect(mainExtents(grid)).toEqual({ minX: 0, minY: 0, maxX: 91, maxY: 91 })
  })

  it('leaves out one huge block and a stray point far away', () => {
    const huge = { minX: -2e6, minY: -1e6, maxX: 3e6, maxY: 2e6 }
    const stray = box(5e5, 5e5, 0)
    expect(mainExtents([...grid, huge, stray])).toEqual({ minX: 0, minY: 0, maxX: 91, maxY: 91 })
  })

  it('keeps what lies near the rest, such as a title block beside the plan', () => {
    const titleBlock = { minX: 100, minY: -40, maxX: 180, maxY: 0 }
    expect(mainExtents([...grid, titleBlock])).toEqual({ minX: 0, minY: -40, maxX: 180, maxY: 91 })
  })

  it('frames everything when there are too few entities to tell an outlier, or none', () => {
    expect(mainExtents([box(0, 0), box(1e6, 1e6)])).toEqual({
      minX: 0,
      minY: 0,
      maxX: 1e6 + 1,
      maxY: 1e6 + 1,
    })
    expect(mainExtents([])).toBeUndefined()
  })
})
