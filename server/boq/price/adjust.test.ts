import { describe, expect, it } from 'vitest'
import type { TakeoffRule } from '#contract/takeoff-rules.ts'
import { billSettings } from '#contract/testing/priced-bill.ts'
import { areaLine, measured, placed } from '../../testing/boq/price/measured.ts'
import { cents } from '../../testing/boq/reconcile.ts'
import { RulesError } from './errors.ts'
import { compileRuleSet, priceBill, priceWithTables } from './price.ts'

/** 8 doors at 150 and 130.998937 m² of tiling at 40: 1,200.00 + 5,240.00 = 6,440.00. */
function plan() {
  return measured(
    [placed({ handle: 'D1', block: 'DOOR', layer: 'Doors', count: 8 })],
    [areaLine('C1', 'Floor', [{ kind: 'hatch', count: 1, quantity: 130.998937, handles: ['H1'] }])],
  )
}
const RULES: TakeoffRule[] = [
  { match: 'count', code: '1.1', description: 'Doors', rate: 150 },
  { match: 'area', code: '2.1', description: 'Floor tiling', rate: 40 },
]

describe('bill settings on a priced bill', () => {
  it('adds the adjustments below the items in order, to the cent', () => {
    const bill = priceBill(plan(), compileRuleSet(RULES), undefined, { settings: billSettings() })
    expect(bill.currency).toEqual({ code: 'EUR', symbol: '€', decimals: 2 })
    expect(bill.header).toEqual({
      title: 'Ground floor fit-out',
      client: 'ACME Properties Ltd',
      reference: 'Q-2025-014 rev B',
    })
    expect(bill.itemsTotal).toBe(6440)
    expect(bill.adjustments.map((a) => [a.name, a.basis, a.amount])).toEqual([
      ['Preliminaries', '10% of 6,440.00', 644],
      ['Contingency', '5% of 7,084.00', 354.2],
      ['Provisional sum: signage', 'fixed sum', 1500],
      ['Extra door closers', 'add 3 nr × 85.50', 256.5],
      ['Omit skirting to store', 'omit 4.25 m × 12.40', -52.7],
      ['VAT', '20% of 9,142.00 (the total before tax)', 1828.4],
    ])
    expect(bill.total).toBe(10_970.4)
    const sum = bill.adjustments.reduce(
      (total, a) => total + cents(a.amount),
      cents(bill.itemsTotal),
    )
    expect(cents(bill.total)).toBe(sum)
  })

  it('takes every tax of the same total before tax', () => {
    const bill = priceBill(plan(), compileRuleSet(RULES), undefined, {
      settings: {
        adjustments: [
          { kind: 'percent', name: 'Overheads and profit', percent: 12.5 },
          { kind: 'tax', name: 'GST', percent: 5 },
          { kind: 'tax', name: 'PST', percent: 7 },
        ],
      },
    })
    expect(bill.adjustments.map((a) => [a.of, a.amount])).toEqual([
      [6440, 805],
      [7245, 362.25],
      [7245, 507.15],
    ])
    expect(bill.total).toBe(8114.4)
  })

  it('bills to the currency’s decimals and the units’ stated ones', () => {
    const bill = priceBill(plan(), compileRuleSet(RULES), undefined, {
      settings: {
        currency: 'JPY',
        decimals: { 'm²': 1 },
        adjustments: [{ kind: 'percent', name: 'Fee', percent: 3.3 }],
      },
    })
    expect(bill.currency).toEqual({ code: 'JPY', symbol: '¥', decimals: 0 })
    expect(bill.items.map((item) => [item.quantity, item.decimals, item.amount])).toEqual([
      [8, 0, 1200],
      [131, 1, 5240],
    ])
    expect(bill.adjustments[0]).toMatchObject({ basis: '3.3% of 6,440', amount: 213 })
    expect(bill.total).toBe(6653)
  })

  it('is as before without settings, but billed: no currency, no adjustments', () => {
    const bill = priceBill(plan(), compileRuleSet(RULES))
    expect(bill).toMatchObject({
      currency: null,
      header: {},
      adjustments: [],
      itemsTotal: 6440,
      total: 6440,
    })
  })

  it('leaves out an adjustment past the largest figure, saying so', () => {
    const bill = priceBill(plan(), compileRuleSet(RULES), undefined, {
      settings: {
        adjustments: [
          { kind: 'sum', name: 'Huge', amount: 1e15 },
          { kind: 'percent', name: 'Markup', percent: 10 },
        ],
      },
    })
    expect(bill.adjustments.map((a) => a.amount)).toEqual([0, 644])
    expect(bill.warnings).toEqual([
      'The adjustment Huge (fixed sum) would take the bill past the largest figure; it is left out.',
    ])
  })

  it('names the version of each table in the header, and refuses settings that do not check', () => {
    const tables = { rules: RULES, classification: [] }
    const versions = { rulesVersion: 3, classificationVersion: 0, settingsVersion: 2 }
    expect(
      priceWithTables(plan(), { ...tables, settings: { client: 'ACME' }, versions }).header,
    ).toEqual({
      client: 'ACME',
      ...versions,
    })
    expect(() =>
      priceWithTables(plan(), { ...tables, settings: { currency: 'EUX' } as never }),
    ).toThrow(
      new RulesError([
        { message: 'currency: "EUX" is not an ISO 4217 currency code (EUR, USD, GBP…)' },
      ]),
    )
  })
})
