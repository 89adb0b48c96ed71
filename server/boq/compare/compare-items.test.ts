import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { ChangeBillSchema, type ChangeItem } from '#contract/compare.ts'
import type { PricedItem } from '#contract/takeoff-rules.ts'
import { floorPlanBoq } from '#contract/testing/boq.ts'
import { pricedItem } from '#contract/testing/priced-bill.ts'
import { pricedBoq, repricedBoq } from '../../testing/boq/priced-boq.ts'
import type { Boq } from '../model/schema.ts'
import { compareBills } from './compare.ts'

/** The factory's priced bill with its items replaced (sections and total made to agree). */
function withItems(items: Partial<PricedItem>[]): Boq {
  const boq = pricedBoq()
  const priced = boq.priced
  if (!priced) throw new Error('not priced')
  const full = items.map(
    (item, i): PricedItem => ({
      ...pricedItem({ ref: `${i + 1}`, ...item }),
      amount: (item.quantity ?? 10) * (item.rate === undefined ? 40 : (item.rate ?? 0)),
      ...item,
    }),
  )
  const total = full.reduce((sum, item) => sum + (item.amount ?? 0), 0)
  return {
    ...boq,
    priced: {
      ...priced,
      items: full,
      sections: [{ code: '22', title: '', items: full.map((i) => i.ref), subtotal: total }],
      total,
    },
  }
}

const pick = ({ ref, description, before, after, amountChange, state }: ChangeItem) => ({
  ref,
  description,
  before,
  after,
  amountChange,
  state,
})

describe('compareBills of two priced bills', () => {
  const before = pricedBoq()
  // Doors at another rate, windows no longer priced, chairs now priced.
  const after = repricedBoq()

  it('gives every item of either with its quantity, rate and amount before and after, largest change of amount first', () => {
    const { items, total, notes } = compareBills(before, after)
    expect(notes).toEqual([])
    const ref = (boq: Boq, description: string) =>
      boq.priced?.items.find((item) => item.description === description)?.ref
    expect(items?.slice(0, 3).map(pick)).toEqual([
      {
        ref: `${ref(before, 'Windows')} (removed)`,
        description: 'Windows',
        before: { quantity: 2, rate: 300, amount: 600 },
        after: { quantity: 0, rate: null, amount: 0 },
        amountChange: -600,
        state: 'removed',
      },
      {
        ref: ref(after, 'Chairs'),
        description: 'Chairs',
        before: { quantity: 0, rate: null, amount: 0 },
        after: { quantity: 6, rate: 80, amount: 480 },
        amountChange: 480,
        state: 'added',
      },
      {
        ref: ref(after, 'Doors'),
        description: 'Doors',
        before: { quantity: 11, rate: 150, amount: 1650 },
        after: { quantity: 11, rate: 175, amount: 1925 },
        amountChange: 275,
        state: 'changed',
      },
    ])
    // The rest as they were, in the newer bill's order.
    expect(
      items?.slice(3).map((item) => [item.description, item.state, item.amountChange]),
    ).toEqual([
      ['Walls', 'unchanged', 0],
      ['Slab', 'unchanged', 0],
    ])
    expect(items?.[0]).toMatchObject({ code: '23.20', unit: 'nr' })
    expect(total?.before).toBe(1650 + 600 + 1004.8 + 400 * 12.5)
    expect(total?.change).toBeCloseTo(155, 9)
    expect(total?.after).toBeCloseTo((total?.before ?? 0) + 155, 9)
    // The items' changes add up to the total's.
    const sum = (items ?? []).reduce((s, item) => s + item.amountChange, 0)
    expect(sum).toBeCloseTo(total?.change ?? Number.NaN, 9)
    // What the server answers: the contract's shape.
    expect(() =>
      v.parse(ChangeBillSchema, {
        from: { jobId: 'a', fileName: 'plan.dwg', versionNumber: 1 },
        to: { jobId: 'b', fileName: 'plan.dwg', versionNumber: 2 },
        ...compareBills(before, after),
      }),
    ).not.toThrow()
  })

  it('finds every item unchanged between two bills priced alike', () => {
    const { items, total } = compareBills(before, pricedBoq())
    expect(items?.every((item) => item.state === 'unchanged' && item.amountChange === 0)).toBe(true)
    expect(items).toHaveLength(before.priced?.items.length ?? -1)
    expect(total?.change).toBe(0)
  })

  it('marks a quantity changed beyond the measuring tolerance, counts by any difference', () => {
    const older = withItems([
      { quantity: 100 },
      { quantity: 2000.5, description: 'Kerbs' },
      { quantity: 2000, code: '23.10', description: 'Doors', unit: 'nr', rate: 150 },
    ])
    const newer = withItems([
      { quantity: 101 },
      // 0.01%: two readings of one drawing.
      { quantity: 2000.7, description: 'Kerbs' },
      { quantity: 2001, code: '23.10', description: 'Doors', unit: 'nr', rate: 150 },
    ])
    const state = Object.fromEntries(
      (compareBills(older, newer).items ?? []).map((item) => [item.description, item.state]),
    )
    expect(state).toEqual({ Walls: 'changed', Kerbs: 'unchanged', Doors: 'changed' })
  })

  it('matches an item by code, description and unit, pairing rate with rate when a bill has it at two', () => {
    const older = withItems([{ rate: 40 }, { rate: 55 }, { unit: 'ft' }])
    const newer = withItems([{ rate: 55 }, { rate: 60 }, { rate: null, amount: null }])
    const items = compareBills(older, newer).items ?? []
    const rates = items.map((item) => [
      item.ref,
      item.unit,
      item.before.rate,
      item.after.rate,
      item.state,
    ])
    expect(rates).toEqual([
      // 10 ft at 40 is gone (another unit is another item).
      ['3 (removed)', 'ft', 40, null, 'removed'],
      // 40 → 60: the one at 55 matched the one at 55.
      ['2', 'm', 40, 60, 'changed'],
      // No rate now: its amount counts as nothing.
      ['3', 'm', null, null, 'added'],
      ['1', 'm', 55, 55, 'unchanged'],
    ])
    const unpriced = items.find((item) => item.ref === '3')
    expect(unpriced?.after).toEqual({ quantity: 10, rate: null, amount: null })
    expect(unpriced?.amountChange).toBe(0)
  })

  it('says when only one bill is priced, and compares no items', () => {
    const earlier = compareBills(floorPlanBoq(), before)
    expect(earlier.notes).toEqual([
      'The earlier bill was not priced: its items and amounts are not compared.',
    ])
    expect(earlier).not.toHaveProperty('items')
    expect(earlier).not.toHaveProperty('total')
    expect(compareBills(before, floorPlanBoq()).notes).toEqual([
      'The later bill was not priced: its items and amounts are not compared.',
    ])
    const neither = compareBills(floorPlanBoq(), floorPlanBoq())
    expect(neither.notes).toEqual([])
    expect(neither).not.toHaveProperty('items')
  })
})
