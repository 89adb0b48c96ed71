import { describe, expect, it } from 'vitest'
import { roundTo } from './rounding.ts'

describe('roundTo', () => {
  it('rounds half away from zero at the decimal digit, as ROUND does', () => {
    expect(roundTo(130.998937, 2)).toBe(131)
    expect(roundTo(1.005, 2)).toBe(1.01)
    expect(roundTo(-1.005, 2)).toBe(-1.01)
    expect(roundTo(2.5, 0)).toBe(3)
    expect(roundTo(-2.5, 0)).toBe(-3)
    expect(roundTo(1.7777, 2)).toBe(1.78)
    expect(roundTo(0.1 + 0.2, 2)).toBe(0.3)
  })

  it('keeps figures of every size, and gives no negative zero', () => {
    expect(roundTo(8e14, 2)).toBe(8e14)
    expect(roundTo(1e-7, 2)).toBe(0)
    expect(Object.is(roundTo(-0.001, 2), 0)).toBe(true)
    expect(roundTo(123456789012.345, 2)).toBe(123456789012.35)
    expect(roundTo(5e-7, 6)).toBe(0.000001)
  })
})
