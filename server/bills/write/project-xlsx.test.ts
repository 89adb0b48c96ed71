import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import { afterAll, describe, expect, it } from 'vitest'
import type { Boq } from '#contract/boq.ts'
import type { BillDrawing } from '#contract/project-bills.ts'
import type { PricedBill } from '#contract/takeoff-rules.ts'
import type { MeasuredFigure } from '../../boq/write/part.ts'
import { printedFirstSheet } from '../../testing/boq/libreoffice.ts'
import { pricedBoq, repricedBoq } from '../../testing/boq/priced-boq.ts'
import { billSums } from '../bill-sums.ts'
import { compareFigures } from '../project-figures.ts'
import { projectBillCsv, projectChangesCsv } from './project-csv.ts'
import type { ProjectBillFiles } from './project-task.ts'
import { projectBillXlsx, projectChangesXlsx } from './project-xlsx.ts'
import { sheetNames } from './sheet-names.ts'

// Two drawings of the factory: L1 priced by FACTORY_RULES, L2 by REPRICED_RULES (doors at
// another rate, no windows, chairs priced), so some items are in both at one rate, some at two.
// Each drawing's bill of record is its kept BOQ JSON, priced.
const drawing = (itemId: string, fileName: string, boq: Boq, versionNumber: number) => {
  const priced = boq.priced as PricedBill
  return {
    itemId,
    fileName,
    versionNumber,
    jobId: `job-${itemId}`,
    items: priced.items,
    lines: boq.bill.map(
      ({ kind, description, unit, quantity }): MeasuredFigure => [
        kind,
        description,
        unit,
        quantity,
      ],
    ),
    total: priced.total,
    priced: true,
    json: new TextEncoder().encode(JSON.stringify(boq)),
  }
}
const bills = [
  drawing('i1', 'L1 Ground.dwg', pricedBoq(), 2),
  drawing('i2', 'L2 Upper.dwg', repricedBoq(), 1),
]
// The sections titled as a classification titles them.
const titleOf = (code: string) => `Section ${code} title`
const summed = await billSums().sum({ length: 'm', area: 'm²' }, bills, titleOf)
const figures = summed.priced
const stated: BillDrawing[] = [
  ...bills.map(
    (one): BillDrawing => ({
      itemId: one.itemId,
      fileName: one.fileName,
      folderId: 'f1',
      versionNumber: one.versionNumber,
      jobId: one.jobId,
      state: 'billed',
      newestVersionNumber: one.versionNumber,
    }),
  ),
  {
    itemId: 'i3',
    fileName: 'Roof.dwg',
    folderId: 'f1',
    versionNumber: null,
    jobId: null,
    state: 'no-bill',
    newestVersionNumber: 1,
  },
]
const files: ProjectBillFiles = {
  name: 'Plans',
  issue: {
    number: 1,
    name: 'Tender',
    issuedAt: '2025-03-04T10:20:00.000Z',
    issuedBy: 'Ann',
    versions: [],
  },
  written: '2025-03-04T10:20:00.000Z',
  drawings: stated,
  billed: bills.map(({ itemId, fileName, versionNumber, jobId }) => ({
    itemId,
    fileName,
    versionNumber,
    jobId,
  })),
  figures,
  measured: summed.measured,
  priced: bills.map(({ itemId, fileName, versionNumber, json }) => ({
    itemId,
    fileName,
    versionNumber,
    json,
  })),
  warnings: [{ itemId: 'i2', fileName: 'L2 Upper.dwg', warning: 'Two objects could not be read.' }],
}

async function loaded(bytes: Uint8Array): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook()
  await book.xlsx.load(bytes.buffer as ArrayBuffer)
  return book
}

function rowOf(sheet: ExcelJS.Worksheet, text: string): ExcelJS.Row {
  let found: ExcelJS.Row | undefined
  sheet.eachRow((row) => {
    if (!found && row.values && (row.values as unknown[]).includes(text)) found = row
  })
  if (!found) throw new Error(`no row with ${text}`)
  return found
}

const formulaOf = (cell: ExcelJS.Cell) => (cell.value as { formula?: string } | null)?.formula

describe('the project bill’s workbook', () => {
  it('has a Summary, then each drawing’s priced bill on a sheet of its own', async () => {
    const book = await loaded(await projectBillXlsx(files))
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual([
      'Summary',
      'Measured',
      'L1 Ground',
      'L2 Upper',
    ])
    // Each drawing's sheet is the job workbook's priced bill: its total as there.
    const own = book.getWorksheet('L1 Ground') as ExcelJS.Worksheet
    const total = rowOf(own, 'Total').getCell(7).value as { result: number }
    expect(total.result).toBe(bills[0]?.total)
    for (const sheet of book.worksheets) {
      expect(sheet.pageSetup).toMatchObject({
        orientation: 'landscape',
        paperSize: 9,
        fitToWidth: 1,
      })
      expect(sheet.pageSetup.printTitlesRow).toMatch(/^\d+:\d+$/)
    }
  })

  it('sums each item over a column per drawing with live formulas', async () => {
    const book = await loaded(await projectBillXlsx(files))
    const summary = book.getWorksheet('Summary') as ExcelJS.Worksheet
    const header = rowOf(summary, 'Code')
    expect(header.getCell(4).value).toBe('L1 Ground.dwg v2')
    expect(header.getCell(5).value).toBe('L2 Upper.dwg v1')
    // Each section under its code and title.
    const [section] = figures.items.map((item) => item.section)
    expect(rowOf(summary, `${section} Section ${section} title`).getCell(1).value).toBeTruthy()
    // Walls: in both at one rate: the amount is each drawing's quantity × the rate, summed.
    const walls = rowOf(summary, 'Walls')
    expect(formulaOf(walls.getCell(6))).toBe(`SUM(D${walls.number}:E${walls.number})`)
    expect(formulaOf(walls.getCell(8))).toBe(
      `SUMPRODUCT(ROUND(D${walls.number}:E${walls.number}*G${walls.number},2))`,
    )
    // Doors: two rates, so no one rate to multiply by: the amount is the drawings' own.
    const doors = rowOf(summary, 'Doors')
    expect(doors.getCell(7).value).toBeNull()
    const doorsItem = figures.items.find((item) => item.description === 'Doors')
    expect(doors.getCell(8).value).toBe(doorsItem?.amount)
    expect(formulaOf(rowOf(summary, 'Total of the items').getCell(8))).toMatch(/^SUBTOTAL\(9,H/)
    // The drawings and their states under the items, the warnings with their drawing.
    expect(rowOf(summary, 'Roof.dwg').getCell(2).value).toBe('No bill yet')
    const warned = rowOf(summary, 'L2 Upper.dwg: Two objects could not be read.')
    expect(warned.number).toBeGreaterThan(rowOf(summary, 'Roof.dwg').number)
  })

  it('sums each measured line over a column per drawing, by kind', async () => {
    const book = await loaded(await projectBillXlsx(files))
    const sheet = book.getWorksheet('Measured') as ExcelJS.Worksheet
    const header = rowOf(sheet, 'Description')
    expect(header.values).toEqual([
      undefined,
      'Description',
      'Unit',
      'L1 Ground.dwg v2',
      'L2 Upper.dwg v1',
      'Quantity',
    ])
    expect(files.measured.length).toBeGreaterThan(0)
    for (const line of files.measured) {
      const row = rowOf(sheet, line.description)
      expect(formulaOf(row.getCell(5))).toBe(`SUM(C${row.number}:D${row.number})`)
      expect((row.getCell(5).value as { result: number }).result).toBe(line.quantity)
      const shares = line.byDrawing.map((share) => share.quantity)
      const cells = [row.getCell(3).value, row.getCell(4).value].filter((cell) => cell !== null)
      expect(cells).toEqual(shares)
    }
    // Counts, then linework, then areas (the factory has all three), each under its title.
    const rows = ['Counts', 'Linework', 'Areas'].map((title) => rowOf(sheet, title).number)
    expect(rows).toEqual([...rows].sort((a, b) => a - b))
    const firstArea = files.measured.find((line) => line.kind === 'area')
    expect(rowOf(sheet, firstArea?.description ?? '').number).toBeGreaterThan(rows[2] ?? 0)
  })

  const dir = mkdtempSync(join(tmpdir(), 'boq-project-xlsx-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('computes, recalculated by LibreOffice, the figures the bill gives', {
    timeout: 300_000,
  }, async () => {
    const file = join(dir, 'plans.xlsx')
    writeFileSync(file, await projectBillXlsx(files))
    const rows = await printedFirstSheet(dir, file)
    const amountOf = (label: string) => {
      const row = rows.find((cells) => cells.includes(label))
      return Number(row?.[7]?.replace(/,/g, ''))
    }
    expect(amountOf('Total of the items')).toBe(figures.total)
    for (const item of figures.items) {
      expect(amountOf(item.description)).toBe(item.amount)
    }
    const walls = rows.find((cells) => cells.includes('Walls'))
    const wallsItem = figures.items.find((item) => item.description === 'Walls')
    expect(Number(walls?.[5]?.replace(/,/g, ''))).toBeCloseTo(wallsItem?.quantity ?? Number.NaN, 6)
  })

  it('writes a comparison’s Changes sheet, its changes and totals as formulas', async () => {
    const before = (await billSums().sum({ length: 'm', area: 'm²' }, bills.slice(0, 1))).priced
    const changes = {
      from: { number: 1, name: 'Tender', issuedAt: files.written },
      to: { number: null, name: 'Now', issuedAt: null },
      ...compareFigures(before, figures),
    }
    const book = await loaded(await projectChangesXlsx(changes, 'Plans'))
    const sheet = book.getWorksheet('Changes') as ExcelJS.Worksheet
    const chairs = rowOf(sheet, 'Chairs')
    expect(formulaOf(chairs.getCell(9))).toBe(`H${chairs.number}-G${chairs.number}`)
    expect(chairs.getCell(10).value).toMatch(/^L2 Upper\.dwg none → v1: \+\d/)
    const total = rowOf(sheet, 'Total')
    expect((total.getCell(9).value as { result: number }).result).toBe(changes.total.change)
    const csv = parse(projectChangesCsv(changes)) as string[][]
    expect(csv[0]).toContain('Drawings that moved it')
    expect(csv.at(-1)?.slice(7)).toEqual([
      String(changes.total.before),
      String(changes.total.after),
      String(changes.total.change),
      '',
    ])
  })
})

describe('the project bill’s CSV', () => {
  it('lists each item with each drawing’s quantity, the total, and the drawings', () => {
    const rows = parse(projectBillCsv(files), { relax_column_count: true }) as string[][]
    expect(rows[0]).toEqual([
      'Section',
      'Code',
      'Description',
      'Unit',
      'L1 Ground.dwg v2',
      'L2 Upper.dwg v1',
      'Quantity',
      'Rate',
      'Amount',
    ])
    expect(rows.slice(1, 1 + figures.items.length).map((row) => row[2])).toEqual(
      figures.items.map((item) => item.description),
    )
    expect(rows.find((row) => row[0] === 'Total')?.[8]).toBe(String(figures.total))
    expect(rows.find((row) => row[0] === 'Roof.dwg')).toEqual(['Roof.dwg', '', 'No bill yet'])
    // Then the measured lines, a column per drawing and their sum.
    const measuredAt = rows.findIndex((row) => row[0] === 'Measured')
    expect(rows[measuredAt]).toEqual([
      'Measured',
      'Description',
      'Unit',
      'L1 Ground.dwg v2',
      'L2 Upper.dwg v1',
      'Quantity',
    ])
    expect(rows.slice(measuredAt + 1).map((row) => [row[1], Number(row[5])])).toEqual(
      files.measured.map((line) => [line.description, line.quantity]),
    )
  })

  it('never gives a spreadsheet a formula from a name', () => {
    const csv = projectBillCsv({
      ...files,
      drawings: [{ ...stated[2], fileName: '=HYPERLINK("x")' }],
    })
    expect(csv).toContain(`'=HYPERLINK`)
  })
})

describe('sheet names', () => {
  it('are cut to 31 characters, without what a sheet name cannot hold, each once', () => {
    expect(
      sheetNames(['a/b:c', 'Summary', 'x'.repeat(40), 'x'.repeat(40), "'quoted'"], ['Summary']),
    ).toEqual(['a b c', 'Summary (2)', 'x'.repeat(31), `${'x'.repeat(27)} (2)`, 'quoted'])
  })
})
