import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import { afterAll, describe, expect, it } from 'vitest'
import { DxfWriter } from '../../testing/boq/dxf-writer.ts'
import { convertWithLibreOffice } from '../../testing/boq/libreoffice.ts'
import { priceWithTables } from '../price/price.ts'
import { extractBoq } from '../run/extract.ts'
import { toCsv } from './csv.ts'
import { toXlsx } from './xlsx.ts'

function rooms() {
  const w = new DxfWriter()
  w.insunits = 6
  w.block('CHAIR', (to, owner) => w.circle(to, owner, '0', [0, 0], 0.2))
  const { to, owner } = w.target('model')
  const room = (x: number) => [
    { x, y: 0 },
    { x: x + 4, y: 0 },
    { x: x + 4, y: 5 },
    { x, y: 5 },
  ]
  w.lwpolyline(to, owner, 'A-AREA', room(0), true)
  w.lwpolyline(to, owner, 'A-AREA', room(4), true)
  w.entity(to, owner, 'A-TEXT', 'TEXT', 'AcDbText', [10, 2, 20, 2, 30, 0, 40, 0.2, 1, 'Kitchen'])
  w.entity(to, owner, 'A-TEXT', 'TEXT', 'AcDbText', [10, 6, 20, 2, 30, 0, 40, 0.2, 1, 'Bath'])
  w.insert(to, owner, 'Furniture', 'CHAIR', [1, 1])
  w.insert(to, owner, 'Furniture', 'CHAIR', [5, 1])
  w.insert(to, owner, 'Furniture', 'CHAIR', [20, 1])
  w.line(to, owner, 'Pipes', [2, 3], [10, 3])
  const bytes = new TextEncoder().encode(w.toString())
  const boq = extractBoq(
    { bytes, fileName: 'rooms.dxf', locations: [{ layer: 'A-AREA', label: 'text' }] },
    null,
  )
  boq.priced = priceWithTables(boq, {
    rules: [{ match: 'count', block: 'CHAIR', code: '1', description: 'Chairs', rate: 40 }],
    classification: [],
  })
  return boq
}

describe('the workbook and CSV with locations', () => {
  it('has a By location sheet (a column per zone, Unallocated, a live Total) and a Rooms sheet', async () => {
    const boq = rooms()
    const book = new ExcelJS.Workbook()
    await book.xlsx.load((await toXlsx(boq)).buffer as ArrayBuffer)
    const sheet = book.getWorksheet('By location')
    if (!sheet) throw new Error('no By location sheet')
    const header = (sheet.getRow(1).values as unknown[]).slice(1)
    expect(header).toEqual([
      'Item',
      'Code',
      'Description',
      'Unit',
      'Bath',
      'Kitchen',
      'Unallocated',
      'Total',
    ])
    const chairs = sheet.getRow(2).values as unknown[]
    expect(chairs.slice(1, 8)).toEqual(['item 1', '1', 'Chairs', 'nr', 1, 1, 1])
    expect(chairs[8]).toEqual({ formula: 'SUM(E2:G2)', result: 3 })
    const pipes = boq.bill.findIndex((l) => l.layer === 'Pipes')
    const pipeRow = sheet.getRow(3 + pipes).values as unknown[]
    expect(pipeRow[5]).toBeCloseTo(4, 6)
    expect(pipeRow[6]).toBeCloseTo(2, 6)
    expect(pipeRow[7]).toBeCloseTo(2, 6)
    expect((pipeRow[8] as { result: number }).result).toBeCloseTo(8, 9)
    const roomsSheet = book.getWorksheet('Rooms')
    if (!roomsSheet) throw new Error('no Rooms sheet')
    expect((roomsSheet.getRow(2).values as unknown[]).slice(1)).toEqual([
      'Z1',
      'Bath',
      'Bath',
      'A-AREA',
      20,
      18,
      'text',
    ])
  })

  it('gives the same tables in the CSV', () => {
    const records: Record<string, string>[] = parse(toCsv(rooms()), { columns: true })
    const chairs = records.find((r) => r.Section === 'By location' && r.Item === 'item 1')
    expect(chairs).toMatchObject({ Bath: '1', Kitchen: '1', Unallocated: '1', Total: '3' })
    const kitchen = records.find((r) => r.Section === 'Rooms' && r.Zone === 'Z2')
    expect(kitchen).toMatchObject({ Name: 'Kitchen', 'Area (m²)': '20', 'Perimeter (m)': '18' })
  })

  it('has neither without locations', async () => {
    const w = new DxfWriter()
    const { to, owner } = w.target('model')
    w.line(to, owner, 'Pipes', [0, 0], [1, 0])
    const boq = extractBoq(
      { bytes: new TextEncoder().encode(w.toString()), fileName: 'a.dxf' },
      null,
    )
    const book = new ExcelJS.Workbook()
    await book.xlsx.load((await toXlsx(boq)).buffer as ArrayBuffer)
    expect(book.getWorksheet('By location')).toBeUndefined()
    expect(toCsv(boq)).not.toContain('By location')
  })

  describe('opened by LibreOffice', () => {
    const dir = mkdtempSync(join(tmpdir(), 'boq-by-location-'))
    afterAll(() => rmSync(dir, { recursive: true, force: true }))

    it('recalculates By location’s totals to the bill’s figures', async () => {
      const boq = rooms()
      const book = new ExcelJS.Workbook()
      await book.xlsx.load((await toXlsx(boq)).buffer as ArrayBuffer)
      const sheet = book.getWorksheet('By location')
      if (!sheet) throw new Error('no By location sheet')
      // Stored results spoilt: only a recalculation of the formulas gives the figures back.
      let spoilt = 0
      sheet.eachRow((row) => {
        row.eachCell((cell) => {
          const value = cell.value as { formula?: string } | null
          if (value && typeof value === 'object' && value.formula) {
            cell.value = { formula: value.formula, result: -1 }
            spoilt++
          }
        })
      })
      expect(spoilt).toBe(1 + boq.bill.length)
      const file = join(dir, 'rooms.xlsx')
      writeFileSync(file, new Uint8Array(await book.xlsx.writeBuffer()))
      const sheetNumber = book.worksheets.indexOf(sheet) + 1
      // Comma, double quote, UTF-8, from line 1, …, the formulas' values, that one sheet.
      const out = await convertWithLibreOffice(
        dir,
        file,
        `csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,${sheetNumber}`,
      )
      const written = readdirSync(join(dir, 'csv')).find((name) => name.endsWith('.csv'))
      const rows = parse(readFileSync(written ? join(dir, 'csv', written) : out, 'utf8'), {
        relax_column_count: true,
      }) as string[][]
      expect(rows[0]).toEqual([
        'Item',
        'Code',
        'Description',
        'Unit',
        'Bath',
        'Kitchen',
        'Unallocated',
        'Total',
      ])
      const total = (label: string) => Number(rows.find((row) => row[0] === label)?.at(-1))
      expect(total('item 1')).toBe(3)
      for (const line of boq.bill) expect(total(line.ref)).toBeCloseTo(line.quantity, 9)
      const pipes = boq.bill.find((l) => l.layer === 'Pipes')
      expect(total(pipes?.ref ?? '')).toBeCloseTo(8, 9)
    })
  })
})
