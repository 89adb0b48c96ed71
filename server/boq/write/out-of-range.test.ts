import ExcelJS from 'exceljs'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { MAX_FIGURE, PricedBillSchema } from '#contract/takeoff-rules.ts'
import { measured, placed } from '../../testing/boq/price/measured.ts'
import { compileRuleSet, priceBill } from '../price/price.ts'
import { renderFiles } from './files.ts'

/** Ten references and rules whose figures overflow every way: per piece, summed, as amounts. */
function overflowing() {
  const references = Array.from({ length: 10 }, (_, i) =>
    placed({ handle: `R${i}`, block: 'PUMP', layer: 'Plant', attributes: { POWER: '4e14' } }),
  )
  const boq = measured(references)
  const rules = compileRuleSet([
    { match: 'count', code: '1.1', description: 'Per piece', quantity: 'count * 1e308', rate: 1 },
    { match: 'count', code: '1.2', description: 'Summed', quantity: 'POWER', rate: 1 },
    { match: 'count', code: '1.3', description: 'Amount', quantity: 'POWER', rate: 1e15 },
    { match: 'count', code: '2.1', description: 'Fine', rate: 2.5 },
  ])
  return { boq, priced: priceBill(boq, rules) }
}

const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes)

describe('a priced bill whose figures overflow', () => {
  it('writes JSON the app reads, every figure a finite number in range, the items flagged', async () => {
    const { boq, priced } = overflowing()
    const { files } = await renderFiles(boq, ['json'], undefined, priced)
    const kept = v.parse(PricedBillSchema, JSON.parse(text(files.json)).priced)
    const byCode = new Map(kept.items.map((item) => [item.code, item]))
    expect(byCode.get('1.1')).toMatchObject({ quantity: 0, amount: 0 })
    expect(byCode.get('1.2')).toMatchObject({ quantity: 8e14, amount: 8e14 })
    expect(byCode.get('1.3')).toMatchObject({ quantity: 8e14, amount: null, rate: 1e15 })
    expect(byCode.get('2.1')).toMatchObject({ quantity: 10, amount: 25 })
    for (const code of ['1.1', '1.2', '1.3']) expect(byCode.get(code)?.flags).not.toEqual([])
    const figures = [
      ...kept.items.flatMap((item) => [item.quantity, item.amount ?? 0]),
      ...kept.sections.map((section) => section.subtotal),
      kept.total,
    ]
    expect(figures.every((x) => Number.isFinite(x) && Math.abs(x) <= MAX_FIGURE)).toBe(true)
    expect(kept.total).toBe(8e14 + 25)
  })

  it('writes a CSV and a workbook with no infinite number and no NaN', async () => {
    const { boq, priced } = overflowing()
    const { files } = await renderFiles(boq, ['csv', 'xlsx'], undefined, priced)
    expect(text(files.csv)).not.toMatch(/Infinity|NaN/)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(files.xlsx?.buffer as ArrayBuffer)
    const numbers: number[] = []
    const words: string[] = []
    for (const sheet of book.worksheets)
      sheet.eachRow((row) => {
        row.eachCell((cell) => {
          const value = cell.value
          if (typeof value === 'number') numbers.push(value)
          else if (typeof value === 'string') words.push(value)
          else if (value && typeof value === 'object' && 'formula' in value) {
            // ExcelJS keeps no result of 0: only a result written is checked.
            const { result } = value as { result?: unknown }
            if (result !== undefined) numbers.push(Number(result))
          }
        })
      })
    expect(numbers.length).toBeGreaterThan(0)
    expect(numbers.filter((x) => !Number.isFinite(x))).toEqual([])
    expect(words.filter((word) => /^-?(Infinity|NaN)$/.test(word))).toEqual([])
  })
})
