import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import * as v from 'valibot'
import { afterAll, describe, expect, it } from 'vitest'
import type { BillSettings } from '#contract/bill-settings.ts'
import type { TakeoffRule } from '#contract/takeoff-rules.ts'
import { billSettings } from '#contract/testing/priced-bill.ts'
import { printedFirstSheet } from '../../testing/boq/libreoffice.ts'
import { areaLine, lengthLine, measured, placed } from '../../testing/boq/price/measured.ts'
import {
  expectAddsUp,
  expectMultipliesOut,
  type PrintedLine,
  printedFigure,
} from '../../testing/boq/reconcile.ts'
import { type Boq, BoqSchema } from '../model/schema.ts'
import { compileRuleSet, priceBill } from '../price/price.ts'
import { toCsv } from './csv.ts'
import { renderFiles } from './files.ts'

/** Measures no two-decimal figure holds, and rates of three decimals. */
function awkwardBoq(settings?: BillSettings): Boq {
  const boq = measured(
    [placed({ handle: 'D1', block: 'DOOR', layer: 'Doors', count: 7 })],
    [
      lengthLine('B1', 'Skirting', [{ kind: 'line', count: 1, quantity: 1.7777, handles: ['L1'] }]),
      lengthLine('B2', 'Walls', [
        { kind: 'line', count: 3, quantity: 25.123456789, handles: ['L2', 'L3', 'L4'] },
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
      rate: 7.125,
    },
    { match: 'length', layer: 'Skirting', code: '2.1', description: 'Skirting', rate: 95 },
    {
      match: 'length',
      layer: 'Walls',
      code: '2.2',
      description: 'Walls',
      quantity: 'length * 2.7',
      rate: 40.125,
    },
    { match: 'area', code: '2.3', description: 'Floor tiling', rate: 40 },
  ]
  const options = settings ? { settings } : {}
  return { ...boq, priced: priceBill(boq, compileRuleSet(rules), undefined, options) }
}

/** The priced part of a table of rows: items, then subtotals and the total with what they sum. */
type Printed = { lines: PrintedLine[]; sums: { what: string; amounts: number[]; sum: number }[] }

describe('a priced bill, as each output prints it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'boq-reconcile-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  function expectReconciled({ lines, sums }: Printed): void {
    expectMultipliesOut(lines)
    expect(sums.map((sum) => sum.what)).toEqual(['Subtotal 1', 'Subtotal 2', 'Total'])
    for (const { what, amounts, sum } of sums) expectAddsUp(what, amounts, sum)
  }

  /** Rows of item, description, quantity, rate, amount (text as printed) into lines and sums. */
  function read(
    rows: { item: string; description: string; quantity: string; rate: string; amount: string }[],
  ): Printed {
    const printed: Printed = { lines: [], sums: [] }
    let section: number[] = []
    const all: number[] = []
    for (const row of rows) {
      if (/^\d+$/.test(row.item) && row.quantity !== '') {
        const line = {
          what: row.description,
          quantity: printedFigure(row.quantity),
          rate: printedFigure(row.rate),
          amount: printedFigure(row.amount),
        }
        printed.lines.push(line)
        section.push(line.amount)
        all.push(line.amount)
      } else if (row.description.startsWith('Subtotal')) {
        printed.sums.push({
          what: row.description,
          amounts: section,
          sum: printedFigure(row.amount),
        })
        section = []
      } else if (row.description === 'Total') {
        printed.sums.push({ what: 'Total', amounts: all, sum: printedFigure(row.amount) })
      }
    }
    return printed
  }

  it('is read by a LibreOffice that computes formulas itself', { timeout: 300_000 }, async () => {
    const book = new ExcelJS.Workbook()
    // A stored result that is wrong: only a LibreOffice that recalculates prints 2.
    book.addWorksheet('Check').getCell('A1').value = { formula: '1+1', result: 5 }
    const file = join(dir, 'check.xlsx')
    writeFileSync(file, new Uint8Array((await book.xlsx.writeBuffer()) as ArrayBuffer))
    expect((await printedFirstSheet(dir, file))[0]?.[0]).toBe('2')
  })

  it('multiplies out and adds up in the JSON', async () => {
    const { files } = await renderFiles(awkwardBoq(), ['json'])
    const boq = v.parse(BoqSchema, JSON.parse(new TextDecoder().decode(files.json)))
    const priced = boq.priced
    if (!priced) throw new Error('not priced')
    const byRef = new Map(priced.items.map((item) => [item.ref, item]))
    const rows = priced.sections.flatMap((section) => [
      ...section.items.map((ref) => {
        const item = byRef.get(ref)
        return {
          item: ref,
          description: item?.description ?? '',
          quantity: String(item?.quantity),
          rate: String(item?.rate),
          amount: String(item?.amount),
        }
      }),
      {
        item: '',
        description: `Subtotal ${section.code}`,
        quantity: '',
        rate: '',
        amount: String(section.subtotal),
      },
    ])
    rows.push({
      item: '',
      description: 'Total',
      quantity: '',
      rate: '',
      amount: String(priced.total),
    })
    expectReconciled(read(rows))
    // The figures the surveyor expects, not the measured ones.
    expect(priced.items.map((item) => [item.description, item.quantity, item.amount])).toEqual([
      ['Doors', 7, 1053.5],
      ['Door stops', 4, 28.5],
      ['Skirting', 1.78, 169.1],
      ['Walls', 67.83, 2721.68],
      ['Floor tiling', 131, 5240],
    ])
  })

  it('multiplies out and adds up in the CSV', () => {
    const [headers = [], ...records] = parse(toCsv(awkwardBoq())) as string[][]
    const at = (name: string) => headers.indexOf(name)
    const rows = records
      .filter((record) => record[0] === 'Priced bill')
      .map((record) => ({
        item: record[at('Item')] ?? '',
        description: record[at('Description')] ?? '',
        quantity: record[at('Quantity')] ?? '',
        rate: record[at('Rate')] ?? '',
        amount: record[at('Amount')] ?? '',
      }))
    expectReconciled(read(rows))
  })

  it('multiplies out and adds up in the workbook, as LibreOffice computes and prints it', {
    timeout: 300_000,
  }, async () => {
    const { files } = await renderFiles(awkwardBoq(), ['xlsx'])
    const file = join(dir, 'awkward.xlsx')
    writeFileSync(file, files.xlsx as Uint8Array)
    const sheet = await printedFirstSheet(dir, file)
    const header = sheet.findIndex((row) => row[0] === 'Item')
    expect(sheet[header]?.slice(0, 7)).toEqual([
      'Item',
      'Code',
      'Description',
      'Quantity',
      'Unit',
      'Rate',
      'Amount',
    ])
    const rows = sheet.slice(header + 1).map((row) => ({
      item: row[0] ?? '',
      description: row[2] ?? '',
      quantity: row[3] ?? '',
      rate: row[5] ?? '',
      amount: row[6] ?? '',
    }))
    expectReconciled(read(rows))
    // Counts print whole, measures to two decimals, rates with all their decimals.
    const printed = (description: string) => rows.find((row) => row.description === description)
    expect(printed('Door stops')).toMatchObject({ quantity: '4', rate: '7.125', amount: '28.50' })
    expect(printed('Floor tiling')).toMatchObject({ quantity: '131.00', amount: '5,240.00' })
  })
})

describe('a priced bill with bill settings, as each output prints it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'boq-reconcile-settings-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  type Row = { description: string; quantity: string; unit: string; rate: string; amount: string }

  /**
   * The rows from the items' total down: each adjustment multiplies out (a percentage ÷ 100),
   * the total before tax and the total add up, and every amount is the JSON's.
   */
  function expectAdjusted(rows: Row[], boq: Boq): void {
    const priced = boq.priced
    if (!priced) throw new Error('not priced')
    const from = rows.findIndex((row) => row.description === 'Items total')
    const below = rows.slice(from, rows.findIndex((row) => row.description === 'Total') + 1)
    expect(below.map((row) => row.description)).toEqual([
      'Items total',
      'Preliminaries',
      'Contingency',
      'Provisional sum: signage',
      'Extra door closers',
      'Omit skirting to store',
      'Total before tax',
      'VAT',
      'Total',
    ])
    const amounts = below.map((row) => printedFigure(row.amount))
    expect(amounts).toEqual([
      priced.itemsTotal,
      ...priced.adjustments.slice(0, 5).map((a) => a.amount),
      priced.adjustments[5]?.of,
      priced.adjustments[5]?.amount,
      priced.total,
    ])
    const lines = below
      .filter((row) => row.quantity !== '')
      .map((row) => ({
        what: row.description,
        quantity: printedFigure(row.quantity),
        rate: printedFigure(row.rate),
        amount: printedFigure(row.amount),
        ...(row.unit === '%' ? { per: 100 } : {}),
      }))
    expect(lines).toHaveLength(5)
    expectMultipliesOut(lines)
    // A percentage is of the total above it, as printed.
    expectAddsUp('Contingency’s total', amounts.slice(0, 2), printedFigure(below[2]?.rate))
    expectAddsUp('Total before tax', amounts.slice(0, 6), amounts[6] as number)
    expectAddsUp('Total', amounts.slice(6, 8), amounts[8] as number)
  }

  it('lists the adjustments in the CSV, in the currency', () => {
    const boq = awkwardBoq(billSettings())
    const [headers = [], ...records] = parse(toCsv(boq)) as string[][]
    expect(headers).toContain('Amount (EUR)')
    const at = (name: string) => headers.indexOf(name)
    const rows = records
      .filter((record) => record[0] === 'Priced bill')
      .map((record) => ({
        description: record[at('Description')] ?? '',
        quantity: record[at('Quantity')] ?? '',
        unit: record[at('Unit')] ?? '',
        rate: record[at('Rate (EUR)')] ?? '',
        amount: record[at('Amount (EUR)')] ?? '',
      }))
    expectAdjusted(rows, boq)
  })

  it('writes them as live formulas under the items, as LibreOffice computes and prints them', {
    timeout: 300_000,
  }, async () => {
    const boq = awkwardBoq(billSettings())
    const { files } = await renderFiles(boq, ['xlsx'])
    const file = join(dir, 'adjusted.xlsx')
    writeFileSync(file, files.xlsx as Uint8Array)
    const sheet = await printedFirstSheet(dir, file)
    const header = sheet.findIndex((row) => row[0] === 'Item')
    expect(sheet[header]?.slice(5, 7)).toEqual(['Rate (EUR)', 'Amount (EUR)'])
    const rows = sheet.slice(header + 1).map((row) => ({
      description: row[2] ?? '',
      quantity: row[3] ?? '',
      unit: row[4] ?? '',
      rate: row[5] ?? '',
      amount: row[6] ?? '',
    }))
    expectAdjusted(rows, boq)
    // Amounts in euros; an omission taken off.
    const printed = (description: string) => rows.find((row) => row.description === description)
    expect(printed('Floor tiling')?.amount).toBe('€5,240.00')
    expect(printed('Omit skirting to store')).toMatchObject({
      quantity: '4.25',
      rate: '12.40',
      amount: '-€52.70',
    })
    expect(printed('Total')?.amount).toBe(
      `€${boq.priced?.total.toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
    )
  })
})
