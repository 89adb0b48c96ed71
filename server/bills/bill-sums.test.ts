import { describe, expect, it } from 'vitest'
import type { MeasuredFigure, PartItem } from '../boq/write/part.ts'
import { billSums, type DrawingBill } from './bill-sums.ts'

const UNITS = { length: 'm', area: 'm²' }

function item(code: string, quantity: number, rate: number | null = 2): PartItem {
  return {
    section: 'Carcass',
    code,
    description: `Item ${code}`,
    unit: 'm',
    rate,
    quantity,
    amount: rate === null ? null : quantity * rate,
  }
}

function drawing(
  itemId: string,
  lines: MeasuredFigure[],
  items: PartItem[] = [],
  versionNumber = 1,
): DrawingBill {
  return {
    itemId,
    fileName: `${itemId}.dwg`,
    versionNumber,
    jobId: `job-${itemId}-${versionNumber}`,
    items,
    lines,
    total: items.reduce((sum, one) => sum + (one.amount ?? 0), 0),
    priced: true,
  }
}

/** Lines of a drawing: `count` blocks, then walls of `walls` metres (each quantity its own). */
function lines(count: number, walls: number): MeasuredFigure[] {
  return [
    ['count', 'Chair', 'nr', count],
    ['length', 'Walls', 'm', walls],
  ]
}

describe('a project bill’s sums', async () => {
  it('sums each line and item over the drawings, each drawing’s share in the bill’s order', async () => {
    const sums = billSums()
    const { priced, measured, json } = await sums.sum(
      UNITS,
      [
        drawing('a', [...lines(2, 10), ['length', 'Walls', 'm', 5]], [item('1', 10), item('1', 5)]),
        drawing('b', lines(3, 1.5), [item('1', 1.5, 4), item('2', 7)]),
      ],
      (code) => (code === 'Carcass' ? 'Carcass work' : undefined),
    )
    // The items' sections, titled by the project's classification.
    expect(priced.sections).toEqual([{ code: 'Carcass', title: 'Carcass work' }])
    expect(measured).toEqual([
      {
        kind: 'count',
        description: 'Chair',
        unit: 'nr',
        quantity: 5,
        byDrawing: [
          { itemId: 'a', quantity: 2 },
          { itemId: 'b', quantity: 3 },
        ],
      },
      {
        kind: 'length',
        description: 'Walls',
        unit: 'm',
        quantity: 16.5,
        byDrawing: [
          { itemId: 'a', quantity: 15 },
          { itemId: 'b', quantity: 1.5 },
        ],
      },
    ])
    const first = priced.items[0]
    expect(first).toMatchObject({ code: '1', quantity: 16.5, amount: 36, rate: null })
    expect(first?.byDrawing).toEqual([
      { itemId: 'a', fileName: 'a.dwg', versionNumber: 1, quantity: 15, amount: 30 },
      { itemId: 'b', fileName: 'b.dwg', versionNumber: 1, quantity: 1.5, amount: 6 },
    ])
    expect(priced.items[1]).toMatchObject({ code: '2', quantity: 7, amount: 14, rate: 2 })
    expect(priced.total).toBe(50)
    // The JSON is the figures', made with their rows.
    expect(JSON.parse(json.measured)).toEqual(measured)
    expect(JSON.parse(json.priced)).toEqual(priced)
  })

  it('changes only the rows a drawing’s new part moved, and sums as from the start', async () => {
    const sums = billSums()
    const before = [
      drawing('a', lines(2, 10), [item('1', 10)]),
      drawing('b', lines(3, 20), [item('1', 20)]),
      drawing('c', lines(4, 30), [item('2', 30)]),
    ]
    const was = await sums.sum(UNITS, before)
    // b's next version moves its walls only: the chairs' line is the one made before.
    const after = [before[0], drawing('b', lines(3, 25), [item('1', 25)], 2), before[2]]
    const now = await sums.sum(UNITS, after as DrawingBill[])
    expect(now.measured[0]).toBe(was.measured[0])
    expect(now.measured[1]).not.toBe(was.measured[1])
    expect(now.priced.items[1]).toBe(was.priced.items[1])
    const fresh = await billSums().sum(UNITS, after as DrawingBill[])
    expect(now.priced).toEqual(fresh.priced)
    expect(now.measured).toEqual(fresh.measured)
    expect(now.json).toEqual(fresh.json)
    expect(now.priced.items[0]?.byDrawing[1]).toMatchObject({ versionNumber: 2, quantity: 25 })
  })

  it('takes a drawing out, in again, and follows the bill’s order of drawings', async () => {
    const sums = billSums()
    const a = drawing('a', [['count', 'Chair', 'nr', 1]], [item('1', 1)])
    const b = drawing('b', [['area', 'Screed', 'm²', 8]], [item('2', 8)])
    await sums.sum(UNITS, [a, b])
    const without = await sums.sum(UNITS, [b])
    expect(without.measured.map((line) => line.description)).toEqual(['Screed'])
    expect(without.priced.items.map((one) => one.code)).toEqual(['2'])
    expect(without.priced.total).toBe(16)
    const swapped = await sums.sum(UNITS, [b, a])
    expect(swapped).toEqual(await billSums().sum(UNITS, [b, a]))
    const both = drawing('c', [['count', 'Chair', 'nr', 2]])
    const again = await sums.sum(UNITS, [a, both])
    expect(again.measured).toEqual([
      {
        kind: 'count',
        description: 'Chair',
        unit: 'nr',
        quantity: 3,
        byDrawing: [
          { itemId: 'a', quantity: 1 },
          { itemId: 'c', quantity: 2 },
        ],
      },
    ])
    expect((await sums.sum(null, [])).priced).toEqual({
      units: null,
      items: [],
      sections: [],
      total: 0,
    })
  })
  it('makes two sums asked at once one after the other, each of its own drawings', async () => {
    const sums = billSums()
    const many = Array.from({ length: 30 }, (_, index) =>
      drawing(`d${index}`, lines(index, index * 2), [item('1', index)]),
    )
    const [all, fewer] = await Promise.all([
      sums.sum(UNITS, many),
      sums.sum(UNITS, many.slice(0, 10)),
    ])
    expect(all).toEqual(await billSums().sum(UNITS, many))
    expect(fewer).toEqual(await billSums().sum(UNITS, many.slice(0, 10)))
  })
})
