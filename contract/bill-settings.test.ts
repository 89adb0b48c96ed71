import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  BillSettingsDocumentSchema,
  checkBillSettings,
  currencyOf,
  isCurrencyCode,
  MAX_ADJUSTMENTS,
} from './bill-settings.ts'
import { billSettings } from './testing/priced-bill.ts'

const problems = (value: unknown) => {
  const checked = checkBillSettings(value)
  return 'problems' in checked ? checked.problems : []
}

describe('bill settings', () => {
  it('takes a surveyor’s settings, and none at all', () => {
    expect(checkBillSettings(billSettings())).toEqual({ settings: billSettings() })
    expect(checkBillSettings({})).toEqual({ settings: {} })
    const document = {
      version: 2,
      savedBy: 'Ada',
      savedAt: '2025-03-04T10:20:00Z',
      settings: billSettings(),
    }
    expect(v.parse(BillSettingsDocumentSchema, document)).toEqual(document)
  })

  it('knows currencies by their ISO code, with Intl’s symbol and decimals', () => {
    expect(isCurrencyCode('EUR')).toBe(true)
    expect(isCurrencyCode('eur')).toBe(false)
    expect(isCurrencyCode('EUX')).toBe(false)
    expect(currencyOf('EUR')).toEqual({ code: 'EUR', symbol: '€', decimals: 2 })
    expect(currencyOf('JPY')).toEqual({ code: 'JPY', symbol: '¥', decimals: 0 })
    expect(currencyOf('BHD')).toMatchObject({ decimals: 3 })
  })

  it('names the field of each thing wrong', () => {
    expect(problems({ currency: 'EUX' })).toEqual([
      'currency: "EUX" is not an ISO 4217 currency code (EUR, USD, GBP…)',
    ])
    expect(problems({ colour: 'red' })).toEqual(['colour: is not a setting'])
    expect(problems({ title: 'x'.repeat(201) })).toEqual(['title: must be at most 200 characters'])
    expect(problems({ decimals: { nr: 1.5, m: 9 } })).toEqual([
      'decimals of "nr": must be a whole number',
      'decimals of "m": must be from 0 to 6',
    ])
    expect(
      problems({ adjustments: [{ kind: 'percent', name: 'Contingency', percent: 5000 }] }),
    ).toEqual(['adjustment 1 (Contingency), percent: must be from -100 to 1000'])
    expect(problems({ adjustments: [{ kind: 'bonus', name: 'Tip' }] })).toEqual([
      'adjustment 1 (Tip), kind: must be one of percent, sum, item, tax',
    ])
    expect(
      problems({
        adjustments: [{ kind: 'item', name: 'Door', quantity: 2, unit: 'nr', rate: '85', x: 1 }],
      }),
    ).toEqual([
      'adjustment 1 (Door), rate: must be a number',
      'adjustment 1 (Door), x: is not a setting',
    ])
    expect(problems([])).toEqual(['bill settings: must be a JSON object'])
  })

  it('bounds every figure, text and list', () => {
    const sum = (amount: number) => ({ adjustments: [{ kind: 'sum', name: 'PS', amount }] })
    expect(problems(sum(1e15))).toEqual([])
    expect(problems(sum(1.5e15))).toEqual(['adjustment 1 (PS), amount: must be at most 1e+15'])
    expect(problems(sum(Number.POSITIVE_INFINITY))).toEqual([
      'adjustment 1 (PS), amount: must be a finite number',
    ])
    expect(problems({ adjustments: [{ kind: 'tax', name: 'VAT', percent: 150 }] })).toEqual([
      'adjustment 1 (VAT), percent: must be from 0 to 100',
    ])
    const many = Array.from({ length: MAX_ADJUSTMENTS + 1 }, () => ({
      kind: 'sum',
      name: 'x',
      amount: 1,
    }))
    expect(problems({ adjustments: many })).toEqual([
      `adjustments: must be at most ${MAX_ADJUSTMENTS}`,
    ])
    const units = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`u${i}`, 2]))
    expect(problems({ decimals: units })).toEqual(['decimals: must name at most 100 units'])
  })

  it('puts taxes last: a tax is of the total before tax', () => {
    expect(
      problems({
        adjustments: [
          { kind: 'tax', name: 'VAT', percent: 20 },
          { kind: 'sum', name: 'PS', amount: 5 },
        ],
      }),
    ).toEqual(['adjustments: taxes come last: a tax is of the total before tax'])
  })
})
