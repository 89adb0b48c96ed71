import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, describe, expect, it } from 'vitest'
import type { BillSettings } from '#contract/bill-settings.ts'
import type { ChangeBill } from '#contract/compare.ts'
import { floorPlanBoq } from '#contract/testing/boq.ts'
import { billSettings } from '#contract/testing/priced-bill.ts'
import { convertWithLibreOffice } from '../../testing/boq/libreoffice.ts'
import { lengthLine, measured } from '../../testing/boq/price/measured.ts'
import { FACTORY_RULES, REPRICED_RULES } from '../../testing/boq/priced-boq.ts'
import { compareBills } from '../compare/compare.ts'
import type { Boq } from '../model/schema.ts'
import { compileRuleSet, priceBill } from '../price/price.ts'
import { changeBillXlsx, toXlsx } from './xlsx.ts'

const CREATED = new Date('2025-03-04T10:20:00Z')
const VERSIONS = { rulesVersion: 3, classificationVersion: 1, settingsVersion: 2 }

function pricedBoq(settings: BillSettings = billSettings(), rules = FACTORY_RULES): Boq {
  const boq = floorPlanBoq()
  return {
    ...boq,
    priced: priceBill(boq, compileRuleSet(rules), undefined, { settings, versions: VERSIONS }),
  }
}

async function book(bytes: Uint8Array): Promise<ExcelJS.Workbook> {
  const read = new ExcelJS.Workbook()
  await read.xlsx.load(bytes.buffer as ArrayBuffer)
  return read
}

function textOf(cell: ExcelJS.Cell): string {
  const { value } = cell
  if (value && typeof value === 'object' && 'richText' in value)
    return value.richText.map((run) => run.text).join('')
  return String(value ?? '')
}

/** The row of a sheet whose first cell says `first`. */
function rowStarting(ws: ExcelJS.Worksheet, first: string): number {
  let found = 0
  ws.eachRow((row, r) => {
    if (!found && textOf(row.getCell(1)) === first) found = r
  })
  return found
}

function changesOf(before: Boq, after: Boq): ChangeBill {
  return {
    from: { jobId: 'j1', fileName: 'plan.dwg', versionNumber: 3 },
    to: { jobId: 'j2', fileName: 'plan.dwg', versionNumber: 4 },
    ...compareBills(before, after),
  }
}

describe('the workbook, as it prints', () => {
  it('heads the priced bill with its title, client, reference, drawing, pricing and currency', async () => {
    const bytes = await toXlsx(pricedBoq(), { created: CREATED, drawingVersion: 4 })
    const ws = (await book(bytes)).getWorksheet('Priced bill') as ExcelJS.Worksheet
    expect(textOf(ws.getCell(1, 1))).toBe('Ground floor fit-out')
    const header = rowStarting(ws, 'Item')
    const lines = Array.from({ length: header - 3 }, (_, i) => textOf(ws.getCell(2 + i, 1)))
    expect(lines).toEqual([
      'Client: ACME Properties Ltd',
      'Reference: Q-2025-014 rev B',
      'Drawing: plan.dwg, version 4 (AutoCAD 2018 (AC1032), DWG)',
      'Units: m, m²: the drawing is in millimetres; lengths × 0.001, areas × 0.000001',
      'Priced with: rules version 3, classification version 1, bill settings version 2',
      'Currency: EUR (€)',
      'Written (UTC): 2025-03-04 10:20',
      'Title block: TITLEBLOCK; TITLE: Ground floor; DWGNO: A-101; SCALE: 1:100',
    ])
    // Each line across the bill's columns: it widens none of them.
    expect(ws.getCell(4, 8).isMerged).toBe(true)
    expect(ws.getColumn(2).width).toBeLessThanOrEqual('22.10'.length + 3)
    // Counts whole, amounts in euros.
    const doors = rowStarting(ws, '3')
    expect(textOf(ws.getCell(doors, 3))).toBe('Doors')
    expect(ws.getCell(doors, 4).numFmt).toBe('#,##0')
    expect(ws.getCell(doors, 7).numFmt).toBe('"€"#,##0.00')
    // Headings apart: the unit and the notes a step away from the figures before them.
    expect(ws.getCell(header, 5).alignment?.indent).toBe(1)
    expect(ws.getCell(header, 8).alignment?.indent).toBe(1)
  })

  it('says the rules it names when no saved version priced it, and no currency without one', async () => {
    const boq = floorPlanBoq()
    boq.priced = priceBill(boq, compileRuleSet(FACTORY_RULES))
    const ws = (await book(await toXlsx(boq, { created: CREATED }))).getWorksheet(
      'Priced bill',
    ) as ExcelJS.Worksheet
    expect(textOf(ws.getCell(1, 1))).toBe('Priced bill of quantities')
    const lines = Array.from({ length: 5 }, (_, i) => textOf(ws.getCell(2 + i, 1)))
    expect(lines.slice(0, 3)).toEqual([
      'Drawing: plan.dwg (AutoCAD 2018 (AC1032), DWG)',
      'Units: m, m²: the drawing is in millimetres; lengths × 0.001, areas × 0.000001',
      'Priced with: 5 takeoff rules (on the Rules sheet)',
    ])
    expect(lines.some((line) => line.startsWith('Currency'))).toBe(false)
  })

  it('prints every sheet on landscape A4 a page wide, its column heads on every page, pages numbered', async () => {
    const changes = changesOf(pricedBoq(), pricedBoq(billSettings(), REPRICED_RULES))
    const written = await book(
      await toXlsx(pricedBoq(billSettings({ title: 'Smith & Sons' })), {
        created: CREATED,
        changes,
      }),
    )
    const standalone = await book(await changeBillXlsx(changes))
    for (const ws of [...written.worksheets, ...standalone.worksheets]) {
      const header = Math.max(1, rowStarting(ws, 'Item'), rowStarting(ws, 'Match'))
      expect(ws.pageSetup, ws.name).toMatchObject({
        paperSize: 9,
        orientation: 'landscape',
        fitToPage: true,
        fitToWidth: 1,
        fitToHeight: 0,
        printTitlesRow: `${header}:${header}`,
      })
      expect(ws.headerFooter.oddFooter, ws.name).toMatch(/&C&8Page &P of &N/)
    }
    // A name's & is not a footer code.
    expect(written.getWorksheet('Priced bill')?.headerFooter.oddFooter).toContain(
      'Smith && Sons: plan.dwg',
    )
  })

  it('gives the change bill a title, and its items in the bills’ currency, counts whole', async () => {
    const changes = changesOf(pricedBoq(), pricedBoq(billSettings(), REPRICED_RULES))
    expect(changes.currency).toEqual({ code: 'EUR', symbol: '€', decimals: 2 })
    const ws = (await book(await changeBillXlsx(changes))).getWorksheet(
      'Changes',
    ) as ExcelJS.Worksheet
    expect(textOf(ws.getCell(1, 1))).toBe('Change bill: plan.dwg, version 3 → plan.dwg, version 4')
    const block = rowStarting(ws, 'Items')
    const doors = block + 1 + (changes.items?.findIndex((item) => item.code === '23.10') ?? 0) + 1
    expect(textOf(ws.getCell(doors, 3))).toBe('Doors')
    expect(ws.getCell(doors, 5).numFmt).toBe('#,##0')
    expect(ws.getCell(doors, 9).numFmt).toBe('"€"#,##0.00')
    expect(ws.getCell(doors, 11).numFmt).toBe('"€"#,##0.00')
    // The items' totals: the sums of their amounts, which the changes add up to.
    const total = block + 2 + (changes.items?.length ?? 0)
    expect(textOf(ws.getCell(total, 3))).toBe('Total')
    const before = changes.items?.reduce((sum, item) => sum + (item.before.amount ?? 0), 0)
    expect(changes.total?.before).toBeCloseTo(before ?? Number.NaN, 9)
    expect(changes.notes).toContain(
      'The priced bills’ adjustments (preliminaries, sums, tax…) are not compared: the totals are of their items.',
    )
  })
})

/** The PDF's pages: their sizes in points, as its page objects say. */
function pageSizes(pdf: Buffer): string[] {
  return [...pdf.toString('latin1').matchAll(/\/MediaBox\s*\[\s*([\d.\s]+)\]/g)]
    .map((match) =>
      (match[1] ?? '')
        .trim()
        .split(/\s+/)
        .map((n) => Math.round(Number(n)))
        .join(' '),
    )
    .filter((size) => size !== '')
}

/** Ghostscript, where the machine has it, reads a PDF's text; LibreOffice alone cannot. */
function pdfText(pdf: string): string | null {
  try {
    return execFileSync(
      'gs',
      ['-q', '-dNOPAUSE', '-dBATCH', '-sDEVICE=txtwrite', '-sOutputFile=-', pdf],
      {
        encoding: 'utf8',
      },
    )
  } catch {
    return null
  }
}

describe('the priced workbook, printed to PDF by LibreOffice', () => {
  const dir = mkdtempSync(join(tmpdir(), 'boq-print-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('is on landscape A4 pages, a long bill over several', { timeout: 300_000 }, async () => {
    // 150 walls' layers: a bill of 150 items, longer than a page.
    const lines = Array.from({ length: 150 }, (_, i) =>
      lengthLine(`B${i + 1}`, `Wall ${i + 1}`, [
        { kind: 'line', count: 1, quantity: 10 + i / 7, handles: [`L${i}`] },
      ]),
    )
    const boq = measured([], lines)
    // Each layer its own item: one rule per layer.
    boq.priced = priceBill(
      boq,
      compileRuleSet(
        lines.map((line, i) => ({
          match: 'length' as const,
          layer: line.layer,
          code: `22.${i + 10}`,
          description: `Wall type ${i + 1}`,
          rate: 40,
        })),
      ),
      undefined,
      { settings: billSettings() },
    )
    const file = join(dir, 'long.xlsx')
    writeFileSync(file, await toXlsx(boq, { created: CREATED }))
    const pdf = await convertWithLibreOffice(dir, file, 'pdf')
    const sizes = pageSizes(readFileSync(pdf))
    const sheets = (await book(readFileSync(file))).worksheets.length
    // More pages than sheets: the bill goes on over pages; each one landscape A4 (842 × 595 pt).
    expect(sizes.length).toBeGreaterThan(sheets + 1)
    expect(new Set(sizes)).toEqual(new Set(['0 0 842 595']))
    const text = pdfText(pdf)
    if (text === null) return
    // The column heads again on the bill's second page, and pages numbered.
    const second = text.split('\f')[1] ?? text.slice(text.indexOf('Page 1 of'))
    expect(second).toMatch(
      /Item\s+Code\s+Description\s+Quantity\s+Unit\s+Rate \(EUR\)\s+Amount \(EUR\)/,
    )
    expect(text).toMatch(/Page 2 of \d+/)
  })
})
