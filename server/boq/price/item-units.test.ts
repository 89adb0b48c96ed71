import { describe, expect, it } from 'vitest'
import { billUnits } from '../measure/units.ts'
import { conversionFactor, parseItemUnit } from './item-units.ts'

const metric = billUnits(4)
const imperial = billUnits(1)
const unitless = billUnits(0)

function factor(...args: Parameters<typeof conversionFactor>): number | string {
  const answer = conversionFactor(...args)
  return 'factor' in answer ? answer.factor : answer.error
}

describe('item units', () => {
  it('read the usual ways of writing lengths and areas', () => {
    expect(parseItemUnit(' M ')).toEqual({ dimension: 'length', symbol: 'm', metres: 1 })
    expect(parseItemUnit('LM')).toEqual({ dimension: 'length', symbol: 'm', metres: 1 })
    expect(parseItemUnit('m2')).toEqual({ dimension: 'area', symbol: 'm²', squareMetres: 1 })
    expect(parseItemUnit('m^2').symbol).toBe('m²')
    expect(parseItemUnit('sq ft')).toMatchObject({ dimension: 'area', symbol: 'ft²' })
    expect(parseItemUnit('ha')).toMatchObject({ dimension: 'area', squareMetres: 10_000 })
    expect(parseItemUnit('nr')).toEqual({ dimension: 'other', symbol: 'nr' })
    expect(parseItemUnit('constructor')).toEqual({ dimension: 'other', symbol: 'constructor' })
  })

  it('convert the bill figure to the item unit', () => {
    expect(factor('length', 'm', metric)).toBe(1)
    expect(factor('length', 'mm', metric)).toBeCloseTo(1000)
    expect(factor('length', 'ft', metric)).toBeCloseTo(1 / 0.3048)
    expect(factor('area', 'mm²', metric)).toBeCloseTo(1e6)
    expect(factor('area', 'ha', metric)).toBeCloseTo(1e-4)
    expect(factor('length', 'm', imperial)).toBeCloseTo(0.3048)
    expect(factor('area', 'm²', imperial)).toBeCloseTo(0.3048 ** 2)
    expect(factor('area', 'ft²', imperial)).toBe(1)
    expect(factor('count', 'nr', metric)).toBe(1)
  })

  it('refuse what cannot be converted, saying why', () => {
    expect(factor('length', 'm²', metric)).toBe('m cannot be given in m²')
    expect(factor('area', 'kg', metric)).toBe('m² cannot be given in kg')
    expect(factor('length', 'units', unitless)).toBe(1)
    expect(factor('length', 'm', unitless)).toBe(
      'the drawing states no units, so its units cannot be given in m',
    )
  })
})
