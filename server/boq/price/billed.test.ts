import { describe, expect, it } from 'vitest'
import type { PricedBill, TakeoffRule } from '#contract/takeoff-rules.ts'
import { areaLine, lengthLine, measured, placed } from '../../testing/boq/price/measured.ts'
import { byHand, cents } from '../../testing/boq/reconcile.ts'
import { compileRuleSet, priceBill } from './price.ts'

/** Every item multiplies out as billed, and the amounts add up to the subtotals and the total. */
function expectReconciled(bill: PricedBill): void {
  for (const item of bill.items) {
    expect(item.quantity).toBe(Number(item.quantity.toFixed(item.decimals)))
    if (item.rate === null || item.amount === null) continue
    expect(cents(item.amount)).toBe(byHand(item.quantity, item.rate))
    expect(item.amount).toBe(cents(item.amount) / 100)
  }
  for (const section of bill.sections) {
    const amounts = bill.items
      .filter((item) => section.items.includes(item.ref))
      .reduce((sum, item) => sum + cents(item.amount ?? 0), 0)
    expect(cents(section.subtotal)).toBe(amounts)
    expect(section.subtotal).toBe(amounts / 100)
  }
  const all = bill.items.reduce((sum, item) => sum + cents(item.amount ?? 0), 0)
  expect(bill.total).toBe(all / 100)
}

describe('billed figures', () => {
  const plan = () =>
    measured(
      [placed({ handle: 'D1', block: 'DOOR', layer: 'Doors', count: 3 })],
      [
        lengthLine('B1', 'Skirting', [
          { kind: 'line', count: 1, quantity: 1.7777, handles: ['L1'] },
        ]),
        areaLine('C1', 'Floor', [
          { kind: 'hatch', count: 1, quantity: 130.998937123, handles: ['H1'] },
        ]),
      ],
    )
  const rules: TakeoffRule[] = [
    { match: 'count', block: 'DOOR', code: '1.1', description: 'Doors', rate: 150.5 },
    {
      match: 'count',
      block: 'DOOR',
      code: '1.2',
      description: 'Door stops',
      quantity: 'count * 0.5',
      rate: 7,
    },
    { match: 'length', code: '2.1', description: 'Skirting', rate: 95 },
    { match: 'area', code: '2.2', description: 'Floor tiling', rate: 40 },
  ]

  it('bills each quantity to its unit’s decimals and each amount to the cent of it', () => {
    const bill = priceBill(plan(), compileRuleSet(rules))
    const byCode = new Map(bill.items.map((item) => [item.code, item]))
    expect(byCode.get('2.2')).toMatchObject({
      quantity: 131,
      measuredQuantity: 130.998937123,
      decimals: 2,
      amount: 5240,
    })
    expect(byCode.get('2.1')).toMatchObject({ quantity: 1.78, decimals: 2, amount: 169.1 })
    // Counts are whole: 1.5 door stops are billed as 2, at 0 decimals.
    expect(byCode.get('1.2')).toMatchObject({
      quantity: 2,
      measuredQuantity: 1.5,
      decimals: 0,
      amount: 14,
    })
    expect(byCode.get('1.1')).toMatchObject({ quantity: 3, amount: 451.5 })
    expect(bill.sections.map((section) => section.subtotal)).toEqual([465.5, 5409.1])
    expect(bill.total).toBe(5874.6)
    expectReconciled(bill)
  })

  it('flags a quantity its unit’s decimals bill as nothing', () => {
    const bill = priceBill(
      plan(),
      compileRuleSet([{ match: 'count', code: 'X', quantity: 'count * 0.1', rate: 5 }]),
    )
    expect(bill.items[0]).toMatchObject({ quantity: 0, amount: 0 })
    expect(bill.items[0]?.flags).toEqual([
      'its quantity 0.30000000000000004 nr is billed as 0 at 0 decimals',
    ])
  })

  it('reconciles, to the cent, whatever the measures and rates', () => {
    let seed = 7
    const random = () => {
      seed = (seed * 48271) % 2147483647
      return seed / 2147483647
    }
    for (let round = 0; round < 20; round++) {
      const lines = Array.from({ length: 12 }, (_, i) =>
        lengthLine(`B${i + 1}`, `L${i}`, [
          { kind: 'line', count: 1, quantity: random() * 10 ** (1 + (i % 5)), handles: [`H${i}`] },
        ]),
      )
      const rowRules: TakeoffRule[] = lines.map((_, i) => ({
        match: 'length',
        layer: `L${i}`,
        code: `${1 + (i % 3)}.${i}`,
        rate: Math.round(random() * 100_000) / 1000,
      }))
      expectReconciled(priceBill(measured([], lines), compileRuleSet(rowRules)))
    }
  })
})
