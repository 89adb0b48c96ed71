import { execFile } from 'node:child_process'
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import ExcelJS from 'exceljs'
import { afterAll, describe, expect, it } from 'vitest'
import { compileRuleSet, priceBill } from './rules/price.ts'
import { readRules } from './rules/read.ts'
import type { Boq } from './schema.ts'
import { makeBoq } from './testing/boq-factory.ts'
import { FACTORY_RULES, pricedBoq } from './testing/priced-boq.ts'
import { toXlsx } from './xlsx.ts'

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
    const book = await read(makeBoq())
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
    // Every item: amount = quantity × rate, the formula naming its own row.
    for (const item of priced.items) {
      const r = rowsOf(ws).find((row) => row.a === item.ref && row.r > header)?.r ?? 0
      expect(ws.getCell(r, 2).value).toBe(item.code)
      expect(ws.getCell(r, 4).value).toBe(item.quantity)
      expect(ws.getCell(r, 6).value).toBe(item.rate)
      const amount = formulaOf(ws.getCell(r, 7))
      expect(amount?.formula).toBe(`D${r}*F${r}`)
      expect(amount?.result).toBeCloseTo(item.quantity * (item.rate ?? 0), 9)
    }
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
    expect(total?.result).toBeCloseTo(1650 + 600 + 25.123456789012344 * 40 + 5000, 9)
    expect(total?.result).toBeCloseTo(priced.total, 9)
    // What no rule took, after the bill; what was ignored, with its rule.
    const block = rowsOf(ws).find((row) => row.a === 'Not classified')?.r ?? 0
    expect(block).toBeGreaterThan(totalRow)
    expect((ws.getRow(block + 1).values as unknown[]).slice(1)).toEqual([
      'Measured line',
      'Description',
      'Quantity',
      'Unit',
    ])
    expect((ws.getRow(block + 2).values as unknown[]).slice(1)).toEqual(['A3', 'CHAIR', 6, 'nr'])
    const ignored = rowsOf(ws).find((row) => row.a === 'Ignored by a rule')?.r ?? 0
    expect((ws.getRow(ignored + 2).values as unknown[]).slice(1)).toEqual([
      4,
      'B2',
      'Linework on layer Partitions',
      4,
      'm',
    ])
  })

  it('says when no rule took anything, and keeps every line as not classified', async () => {
    const boq = makeBoq()
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
    const boq = makeBoq()
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
    expect(formulas.every((f) => /^(D\d+\*F\d+|SUBTOTAL\(9,G\d+:G\d+\))$/.test(f))).toBe(true)
  })

  it('reads back, from its Rules sheet, as the rules that priced it', async () => {
    const bytes = await toXlsx(pricedBoq(), { created: CREATED })
    expect(await readRules(bytes, 'xlsx')).toEqual(FACTORY_RULES)
  })
})

/** LibreOffice's binary on PATH, or a failure that says how to get it. */
function soffice(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const path = join(dir, 'soffice')
    try {
      accessSync(path, constants.X_OK)
      return path
    } catch {}
  }
  throw new Error('LibreOffice is needed for this test: apt-get install -y libreoffice-calc')
}

describe('the priced workbook, opened by LibreOffice', () => {
  const dir = mkdtempSync(join(tmpdir(), 'boq-priced-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const convert = (file: string, to: string) =>
    promisify(execFile)(
      soffice(),
      [
        // A profile of its own, so runs side by side do not share (and lock) one.
        `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`,
        '--headless',
        '--convert-to',
        to,
        '--outdir',
        join(dir, to),
        file,
      ],
      { timeout: 150_000 },
    )

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
    expect(Number(total?.split(',')[6].replace(/[",]/g, ''))).toBeCloseTo(8254.94, 2)
  })
})
