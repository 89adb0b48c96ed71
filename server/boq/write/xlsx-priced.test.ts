import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, describe, expect, it } from 'vitest'
import type { ChangeBill } from '#contract/compare.ts'
import { floorPlanBoq } from '#contract/testing/boq.ts'
import { convertWithLibreOffice } from '../../testing/boq/libreoffice.ts'
import { FACTORY_RULES, pricedBoq, repricedBoq } from '../../testing/boq/priced-boq.ts'
import { compareBills } from '../compare/compare.ts'
import type { Boq } from '../model/schema.ts'
import { compileRuleSet, priceBill } from '../price/price.ts'
import { readRules } from '../price/read.ts'
import { changeBillXlsx, toXlsx } from './xlsx.ts'

const CREATED = new Date('2025-03-04T10:20:00Z')

async function read(boq: Boq): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook()
  await book.xlsx.load((await toXlsx(boq, { created: CREATED })).buffer as ArrayBuffer)
  return book
}

type Formula = { formula: string; result: number }

function formulaOf(cell: ExcelJS.Cell): Formula | null {
  const { value } = cell
  return typeof value === 'object' && value !== null && 'formula' in value
    ? (value as Formula)
    : null
}

/** Rows of the sheet by their first three cells' text, with their row numbers. */
function rowsOf(ws: ExcelJS.Worksheet): { r: number; a: unknown; c: unknown }[] {
  const rows: { r: number; a: unknown; c: unknown }[] = []
  ws.eachRow((row, r) => {
    rows.push({ r, a: row.getCell(1).value, c: row.getCell(3).value })
  })
  return rows
}

describe('the workbook of a priced bill', () => {
  it('puts the priced bill first, the measured bill after it, and the rules last', async () => {
    const book = await read(pricedBoq())
    expect(book.worksheets.map((ws) => ws.name)).toEqual([
      'Priced bill',
      'Bill',
      'Blocks by layer',
      'References',
      'Lengths',
      'Areas',
      'Not measured',
      'Rules',
    ])
  })

  it('is as before without rules', async () => {
    const book = await read(floorPlanBoq())
    expect(book.worksheets.map((ws) => ws.name)[0]).toBe('Bill')
    expect(book.getWorksheet('Priced bill')).toBeUndefined()
    expect(book.getWorksheet('Rules')).toBeUndefined()
  })

  it('has amounts, subtotals and the total as live formulas with their values stored', async () => {
    const boq = pricedBoq()
    const priced = boq.priced
    if (!priced) throw new Error('not priced')
    const ws = (await read(boq)).getWorksheet('Priced bill') as ExcelJS.Worksheet
    const header = rowsOf(ws).find((row) => row.a === 'Item')?.r ?? 0
    expect((ws.getRow(header).values as unknown[]).slice(1)).toEqual([
      'Item',
      'Code',
      'Description',
      'Quantity',
      'Unit',
      'Rate',
      'Amount',
      'Notes',
    ])
    // Every item: its measured quantity rounded to its unit's decimals, then amount = that
    // billed quantity × rate rounded to the cent, the formulas naming their own row.
    for (const item of priced.items) {
      const r = rowsOf(ws).find((row) => row.a === item.ref && row.r > header)?.r ?? 0
      expect(ws.getCell(r, 2).value).toBe(item.code)
      expect(formulaOf(ws.getCell(r, 4))).toEqual({
        formula: `ROUND(${item.measuredQuantity},${item.decimals})`,
        result: item.quantity,
      })
      expect(ws.getCell(r, 6).value).toBe(item.rate)
      const amount = formulaOf(ws.getCell(r, 7))
      expect(amount?.formula).toBe(`ROUND(D${r}*F${r},2)`)
      expect(amount?.result).toBe(item.amount)
    }
    const walls = rowsOf(ws).find((row) => row.c === 'Walls')?.r ?? 0
    expect(formulaOf(ws.getCell(walls, 4))?.formula).toBe('ROUND(25.123456789012344,2)')
    expect(ws.getCell(walls, 4).numFmt).toBe('#,##0.00')
    // Counts without decimals.
    const doors = rowsOf(ws).find((row) => row.c === 'Doors')?.r ?? 0
    expect(formulaOf(ws.getCell(doors, 4))).toEqual({ formula: 'ROUND(11,0)', result: 11 })
    expect(ws.getCell(doors, 4).numFmt).toBe('#,##0')
    // Each section: its heading, then its items, then SUBTOTAL over exactly their amounts.
    for (const section of priced.sections) {
      const heading = rowsOf(ws).find((row) => row.a === section.code && row.r > header)?.r ?? 0
      const subtotalRow = heading + section.items.length + 1
      expect(ws.getCell(subtotalRow, 3).value).toBe(`Subtotal ${section.code}`)
      const subtotal = formulaOf(ws.getCell(subtotalRow, 7))
      expect(subtotal?.formula).toBe(`SUBTOTAL(9,G${heading + 1}:G${subtotalRow - 1})`)
      expect(subtotal?.result).toBeCloseTo(section.subtotal, 9)
    }
    const totalRow = rowsOf(ws).find((row) => row.c === 'Total')?.r ?? 0
    const total = formulaOf(ws.getCell(totalRow, 7))
    expect(total?.formula).toBe(`SUBTOTAL(9,G${header + 1}:G${totalRow - 1})`)
    expect(total?.result).toBe(1650 + 600 + 1004.8 + 5000)
    expect(total?.result).toBe(priced.total)
    // What no rule took, after the bill; what was ignored, with its rule.
    const block = rowsOf(ws).find((row) => row.a === 'Not classified')?.r ?? 0
    expect(block).toBeGreaterThan(totalRow)
    // In the bill's own columns: the Code column holds only codes (and an ignore rule's number).
    expect((ws.getRow(block + 1).values as unknown[]).slice(1)).toEqual([
      'Measured line',
      undefined,
      'Description',
      'Quantity',
      'Unit',
    ])
    expect((ws.getRow(block + 2).values as unknown[]).slice(1)).toEqual([
      'A3',
      undefined,
      'CHAIR',
      6,
      'nr',
    ])
    const ignored = rowsOf(ws).find((row) => row.a === 'Ignored by a rule')?.r ?? 0
    expect((ws.getRow(ignored + 1).values as unknown[]).slice(1, 3)).toEqual([
      'Measured line',
      'Rule',
    ])
    expect((ws.getRow(ignored + 2).values as unknown[]).slice(1)).toEqual([
      'B2',
      4,
      'Linework on layer Partitions',
      4,
      'm',
    ])
  })

  it('says when no rule took anything, and keeps every line as not classified', async () => {
    const boq = floorPlanBoq()
    boq.priced = priceBill(boq, compileRuleSet([{ match: 'count', block: 'NONE', code: 'X' }]))
    const ws = (await read(boq)).getWorksheet('Priced bill') as ExcelJS.Worksheet
    const texts = rowsOf(ws).map((row) => row.a)
    expect(texts).toContain('No items: no rule took a measured quantity.')
    expect(rowsOf(ws).some((row) => row.c === 'Total')).toBe(false)
    const block = texts.indexOf('Not classified')
    expect(texts.slice(block + 2, block + 2 + boq.bill.length)).toEqual(
      boq.bill.map((line) => line.ref),
    )
  })

  it('writes hostile text from the rules as text, never a formula', async () => {
    const boq = floorPlanBoq()
    const hostile = '=HYPERLINK("http://x","y")'
    boq.priced = priceBill(
      boq,
      compileRuleSet([{ match: 'count', block: 'DOOR', code: 'D', description: hostile, rate: 1 }]),
    )
    const ws = (await read(boq)).getWorksheet('Priced bill') as ExcelJS.Worksheet
    const item = rowsOf(ws).find((row) => row.c === hostile)
    expect(item).toBeDefined()
    const formulas: string[] = []
    ws.eachRow((row) =>
      row.eachCell((cell) => {
        const f = formulaOf(cell)
        if (f) formulas.push(f.formula)
      }),
    )
    expect(formulas.length).toBeGreaterThan(0)
    for (const f of formulas)
      expect(f).toMatch(/^(ROUND\([\d.]+,\d\)|ROUND\(D\d+\*F\d+,2\)|SUBTOTAL\(9,G\d+:G\d+\))$/)
  })

  it('reads back, from its Rules sheet, as the rules that priced it', async () => {
    const bytes = await toXlsx(pricedBoq(), { created: CREATED })
    expect(await readRules(bytes, 'xlsx')).toEqual(FACTORY_RULES)
  })
})

/** The change bill from the factory's priced bill to it repriced. */
function pricedChanges(before: Boq = pricedBoq(), after: Boq = repricedBoq()): ChangeBill {
  return {
    from: { jobId: 'j1', fileName: 'plan.dwg', versionNumber: 1 },
    to: { jobId: 'j2', fileName: 'plan.dwg', versionNumber: 2 },
    ...compareBills(before, after),
  }
}

async function changesSheet(changes: ChangeBill): Promise<ExcelJS.Worksheet> {
  const book = new ExcelJS.Workbook()
  await book.xlsx.load((await changeBillXlsx(changes)).buffer as ArrayBuffer)
  return book.getWorksheet('Changes') as ExcelJS.Worksheet
}

describe('the Changes sheet of two priced bills', () => {
  it('has the items under the measured lines, amount changes and totals as live formulas with their values stored', async () => {
    const changes = pricedChanges()
    const ws = await changesSheet(changes)
    // Under its title, the measured lines and their filter.
    expect(ws.getCell(1, 1).value).toBe('Change bill: plan.dwg, version 1 → plan.dwg, version 2')
    expect(ws.getCell(3, 1).value).toBe('Item')
    expect(ws.autoFilter).toBe(`A3:H${3 + changes.lines.length}`)
    const block = rowsOf(ws).find((row) => row.a === 'Items')?.r ?? 0
    expect(block).toBeGreaterThan(rowsOf(ws).find((row) => row.a === 'After')?.r ?? Infinity)
    // Headers on two lines, so that twelve columns print at a size to read.
    expect((ws.getRow(block + 1).values as unknown[]).slice(1)).toEqual([
      'Item',
      'Code',
      'Description',
      'Unit',
      'Quantity\nbefore',
      'Quantity\nafter',
      'Rate\nbefore',
      'Rate\nafter',
      'Amount\nbefore',
      'Amount\nafter',
      'Amount\nchange',
      'State',
    ])
    const values = (r: number) =>
      (ws.getRow(r).values as unknown[])
        .slice(1)
        .map((value) => formulaOf({ value } as ExcelJS.Cell) ?? value)
    expect(values(block + 2)).toEqual([
      '4 (removed)',
      '23.20',
      'Windows',
      'nr',
      2,
      0,
      300,
      undefined,
      600,
      0,
      { formula: `J${block + 2}-I${block + 2}`, result: -600 },
      'removed',
    ])
    expect(values(block + 4).slice(6)).toEqual([
      150,
      175,
      1650,
      1925,
      { formula: `J${block + 4}-I${block + 4}`, result: 275 },
      'changed',
    ])
    const first = block + 2
    const totalRow = first + (changes.items?.length ?? 0)
    expect(ws.getCell(totalRow, 3).value).toBe('Total')
    expect(formulaOf(ws.getCell(totalRow, 9))).toEqual({
      formula: `SUM(I${first}:I${totalRow - 1})`,
      result: changes.total?.before,
    })
    expect(formulaOf(ws.getCell(totalRow, 10))?.formula).toBe(`SUM(J${first}:J${totalRow - 1})`)
    expect(formulaOf(ws.getCell(totalRow, 11))).toEqual({
      formula: `J${totalRow}-I${totalRow}`,
      result: 155,
    })
    expect(ws.getCell(totalRow, 11).numFmt).toBe('#,##0.00')
    expect(ws.getCell(totalRow, 11).font?.bold).toBe(true)
    // Over numbers, the headers line up with them.
    expect(ws.getCell(block + 1, 9).alignment?.horizontal).toBe('right')
  })

  it('is in the written-back workbook’s Changes sheet too', async () => {
    const book = new ExcelJS.Workbook()
    const bytes = await toXlsx(repricedBoq(), { created: CREATED, changes: pricedChanges() })
    await book.xlsx.load(bytes.buffer as ArrayBuffer)
    const ws = book.getWorksheet('Changes') as ExcelJS.Worksheet
    expect(rowsOf(ws).some((row) => row.a === 'Items')).toBe(true)
  })

  it('has no items block unless both bills are priced; the note says which is not', async () => {
    const ws = await changesSheet(pricedChanges(floorPlanBoq(), repricedBoq()))
    expect(rowsOf(ws).some((row) => row.a === 'Items')).toBe(false)
    const note = rowsOf(ws).find((row) => row.a === 'Note')?.r ?? 0
    expect(ws.getCell(note, 2).value).toBe(
      'The earlier bill was not priced: its items and amounts are not compared.',
    )
  })

  it('says when neither priced bill has an item', async () => {
    const none = (boq: Boq): Boq => ({
      ...boq,
      priced: priceBill(boq, compileRuleSet([{ match: 'count', block: 'NONE', code: 'X' }])),
    })
    const ws = await changesSheet(pricedChanges(none(floorPlanBoq()), none(floorPlanBoq())))
    const block = rowsOf(ws).find((row) => row.a === 'Items')?.r ?? 0
    expect(ws.getCell(block + 1, 1).value).toBe('Neither priced bill has an item.')
  })
})

describe('the priced workbook, opened by LibreOffice', () => {
  const dir = mkdtempSync(join(tmpdir(), 'boq-priced-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const convert = (file: string, to: string) => convertWithLibreOffice(dir, file, to)

  it('converts to a PDF, and computes the same total', { timeout: 300_000 }, async () => {
    const file = join(dir, 'plan.xlsx')
    writeFileSync(file, await toXlsx(pricedBoq(), { created: CREATED }))
    await convert(file, 'pdf')
    expect(readFileSync(join(dir, 'pdf', 'plan.pdf')).length).toBeGreaterThan(1000)
    // CSV of the first sheet, its formulas computed by LibreOffice itself.
    await convert(file, 'csv')
    const total = readFileSync(join(dir, 'csv', 'plan.csv'), 'utf8')
      .split('\n')
      .find((line) => line.split(',')[2] === 'Total')
    expect(Number(total?.split(',')[6].replace(/[",]/g, ''))).toBe(8254.8)
  })

  it('computes the change bill’s amount changes and totals', { timeout: 300_000 }, async () => {
    const file = join(dir, 'changes.xlsx')
    writeFileSync(file, await changeBillXlsx(pricedChanges()))
    await convert(file, 'csv')
    const rows = readFileSync(join(dir, 'csv', 'changes.csv'), 'utf8')
      .split('\n')
      .map((line) => line.split(','))
    const figure = (text: string | undefined) => Number(text?.replace(/"/g, ''))
    const change = (description: string) => figure(rows.find((row) => row[2] === description)?.[10])
    expect([change('Windows'), change('Chairs'), change('Doors'), change('Walls')]).toEqual([
      -600, 480, 275, 0,
    ])
    const total = rows.find((row) => row[2] === 'Total')
    expect(figure(total?.[8])).toBe(8254.8)
    expect(figure(total?.[9])).toBe(8409.8)
    expect(figure(total?.[10])).toBeCloseTo(155, 9)
  })
})
