import { describe, expect, it } from 'vitest'
import { formatAmount, formatItemQuantity } from './format-amount'

describe('formatItemQuantity', () => {
  it('shows a whole quantity whole, any other as the bill shows a measure', () => {
    expect(formatItemQuantity(8)).toBe('8')
    expect(formatItemQuantity(1204)).toBe('1,204')
    expect(formatItemQuantity(0)).toBe('0')
    expect(formatItemQuantity(12.5)).toBe('12.50')
    expect(formatItemQuantity(4451.926)).toBe('4,451.93')
    // Too small for two decimals, never 0.00.
    expect(formatItemQuantity(0.0000032)).toBe('0.0000032')
  })
})

describe('formatAmount', () => {
  it('shows two decimals, thousands separated', () => {
    expect(formatAmount(12480.5)).toBe('12,480.50')
  })
})
