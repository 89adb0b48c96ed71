import { describe, expect, it } from 'vitest'
import { formatAmount, formatBilled, formatItemQuantity, formatRate } from './format-amount'

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

describe('formatBilled and formatRate', () => {
  it('show a billed figure to its decimals and a rate with all of its own', () => {
    expect(formatBilled(131, 2)).toBe('131.00')
    expect(formatBilled(8, 0)).toBe('8')
    expect(formatBilled(1204.5, 1)).toBe('1,204.5')
    expect(formatRate(40)).toBe('40.00')
    expect(formatRate(7.125)).toBe('7.125')
    expect(formatRate(1500, 0)).toBe('1,500')
  })
})
