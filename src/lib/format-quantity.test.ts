import { describe, expect, it } from 'vitest'
import { formatMeasure, formatQuantity } from './format-quantity'

describe('formatMeasure', () => {
  it('shows two decimals, and a measure too small for them in figures, never as 0.00', () => {
    expect(formatMeasure(4451.934)).toBe('4,451.93')
    expect(formatMeasure(0.005)).toBe('0.01')
    expect(formatMeasure(0.0049)).toBe('0.0049')
    expect(formatMeasure(3.1573e-6)).toBe('0.0000032')
    expect(formatMeasure(-3.1573e-6)).toBe('-0.0000032')
    expect(formatMeasure(0)).toBe('0.00')
    expect(formatQuantity('count', 1204)).toBe('1,204')
  })
})
