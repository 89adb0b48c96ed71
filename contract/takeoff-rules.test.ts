import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  ClassificationEntrySchema,
  MAX_RULE_ROWS,
  PricedBillSchema,
  TakeoffRuleSetSchema,
} from './takeoff-rules.ts'

describe('takeoff rules on the wire', () => {
  it('takes a rule set of typed rows', () => {
    const set = {
      rules: [
        { match: 'length', layer: 'Walls', code: '20.10', quantity: 'length * 2.4', rate: 12.5 },
        { match: 'count', block: 'Door*', attribute: 'TYPE=D?', rate: null },
        { match: 'length', layer: 'Dims', ignore: true },
      ],
    }
    expect(v.parse(TakeoffRuleSetSchema, set)).toEqual(set)
  })

  it('refuses unknown matches, unknown columns, text rates and too many rows', () => {
    const bad = (rules: unknown[]) => !v.safeParse(TakeoffRuleSetSchema, { rules }).success
    expect(bad([{ match: 'volume' }])).toBe(true)
    expect(bad([{ match: 'count', colour: 'red' }])).toBe(true)
    expect(bad([{ match: 'count', rate: '12' }])).toBe(true)
    expect(bad([{ match: 'count', ignore: 'yes' }])).toBe(true)
    expect(bad(Array.from({ length: MAX_RULE_ROWS + 1 }, () => ({ match: 'count' })))).toBe(true)
    expect(bad(Array.from({ length: MAX_RULE_ROWS }, () => ({ match: 'count' })))).toBe(false)
  })

  it('takes classification entries with or without a parent', () => {
    expect(v.is(ClassificationEntrySchema, { code: '20', title: 'Shell' })).toBe(true)
    expect(v.is(ClassificationEntrySchema, { code: '20.1', title: 'Walls', parent: '20' })).toBe(
      true,
    )
    expect(v.is(ClassificationEntrySchema, { code: '20' })).toBe(false)
  })

  it('describes a priced bill', () => {
    const bill = {
      sections: [{ code: '20', title: 'Shell', items: ['1'], subtotal: 120 }],
      items: [
        {
          ref: '1',
          section: '20',
          code: '20.10',
          description: 'Walls',
          unit: 'm',
          quantity: 10,
          rate: 12,
          amount: 120,
          rules: [1],
          sources: [{ line: 'B1', measured: 10, count: 2, quantity: 10, handles: ['1A', '1B'] }],
          flags: [],
        },
      ],
      total: 120,
      notClassified: [
        {
          line: 'A1',
          match: 'count',
          description: 'DOOR',
          block: 'DOOR',
          layer: 'Doors',
          unit: 'nr',
          quantity: 2,
          count: 2,
          handles: ['2A'],
        },
      ],
      ignored: [
        {
          rule: 2,
          line: 'B2',
          description: 'Linework on layer Dims',
          unit: 'm',
          quantity: 3,
          count: 1,
          handles: ['3A'],
        },
      ],
      rules: [
        { match: 'length', code: '20.10', rate: 12 },
        { match: 'length', layer: 'Dims', ignore: true },
      ],
      warnings: [],
    }
    const billed = {
      ...structuredClone(bill),
      currency: { code: 'EUR', symbol: '€', decimals: 2 },
      header: { title: 'Ground floor', client: 'ACME', rulesVersion: 3 },
      itemsTotal: 120,
      adjustments: [
        {
          kind: 'percent',
          name: 'Preliminaries',
          basis: '10% of 120.00',
          percent: 10,
          of: 120,
          amount: 12,
        },
      ],
      total: 132,
    }
    Object.assign(billed.items[0] as object, { measuredQuantity: 10.004, decimals: 2 })
    expect(v.parse(PricedBillSchema, billed)).toEqual(billed)
    // A bill kept before billed figures and adjustments reads as one: its quantities as they
    // were, to its units' decimals, its total the items'.
    const kept = v.parse(PricedBillSchema, bill)
    expect(kept.items[0]).toMatchObject({ quantity: 10, measuredQuantity: 10, decimals: 2 })
    expect(kept).toMatchObject({
      currency: null,
      header: {},
      itemsTotal: 120,
      adjustments: [],
      total: 120,
    })
  })
})
