import { execFile } from 'node:child_process'
import { accessSync, constants, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import ExcelJS from 'exceljs'
import { afterAll, describe, expect, it } from 'vitest'
import { floorPlanBoq, reference } from '#contract/testing/boq.ts'
import type { Boq } from '../model/schema.ts'
import { toXlsx } from './xlsx.ts'

const CREATED = new Date('2025-03-04T10:20:00Z')

const HOSTILE = ['=HYPERLINK("http://x","y")', '+1', '-1+2', '@SUM(A1)', '\tx', '\rx']

async function read(boq: Boq): Promise<ExcelJS.Workbook> {
  const bytes = await toXlsx(boq, { created: CREATED })
  const book = new ExcelJS.Workbook()
  await book.xlsx.load(bytes.buffer as ArrayBuffer)
  return book
}

function sheet(book: ExcelJS.Workbook, name: string): ExcelJS.Worksheet {
  const found = book.getWorksheet(name)
  if (!found) throw new Error(`no sheet ${name}`)
  return found
}

/** The row whose first cell is `first`: the bill's header sits under the provenance. */
function rowStarting(ws: ExcelJS.Worksheet, first: string): number {
  let found = 0
  ws.eachRow((row, r) => {
    if (!found && row.getCell(1).value === first) found = r
  })
  if (!found) throw new Error(`no row starting ${first} in ${ws.name}`)
  return found
}

function rowValues(ws: ExcelJS.Worksheet, r: number): unknown[] {
  return (ws.getRow(r).values as unknown[]).slice(1)
}

function allCells(book: ExcelJS.Workbook): ExcelJS.Cell[] {
  const cells: ExcelJS.Cell[] = []
  for (const ws of book.worksheets) ws.eachRow((row) => row.eachCell((cell) => cells.push(cell)))
  return cells
}

describe('toXlsx', () => {
  it('writes the sheets in order, the bill first', async () => {
    const book = await read(floorPlanBoq())
    expect(book.worksheets.map((ws) => ws.name)).toEqual([
      'Bill',
      'Blocks by layer',
      'References',
      'Lengths',
      'Areas',
      'Not measured',
    ])
  })

  it('leads the bill with its provenance, then one line per bill line', async () => {
    const bill = sheet(await read(floorPlanBoq()), 'Bill')
    expect(bill.getCell('A1').value).toBe('Bill of quantities')
    const header = rowStarting(bill, 'Item')
    const lead = Object.fromEntries(
      Array.from({ length: header - 2 }, (_, i) => rowValues(bill, i + 2)).filter((r) => r.length),
    )
    expect(lead.Drawing).toBe('plan.dwg')
    expect(lead.Version).toBe('AutoCAD 2018 (AC1032), DWG')
    expect(lead.Units).toBe(
      'm, m²: the drawing is in millimetres; lengths × 0.001, areas × 0.000001',
    )
    expect(lead['Written (UTC)']).toEqual(CREATED)
    expect(lead['Title block']).toContain('TITLE: Ground floor')

    expect(rowValues(bill, header)).toEqual(['Item', 'Description', 'Quantity', 'Unit'])
    const lines = Array.from({ length: 6 }, (_, i) => rowValues(bill, header + 1 + i))
    expect(lines.map((l) => l[0])).toEqual(['A1', 'A2', 'A3', 'B1', 'B2', 'C1'])
    expect(lines[1]).toEqual(['A2', 'WINDOW (visibility: Open)', 2, 'nr'])
    expect(lines[5]).toEqual(['C1', 'Area on layer Slabs', 400, 'm²'])
  })

  it('keeps each kind of bill line together, in the order the bill has them', async () => {
    const boq = floorPlanBoq()
    const [a1, a2, a3, b1, b2, c1] = boq.bill
    const bill = sheet(await read({ ...boq, bill: [b1, a1, c1, a2, b2, a3] }), 'Bill')
    const header = rowStarting(bill, 'Item')
    const refs = Array.from({ length: 6 }, (_, i) => bill.getCell(header + 1 + i, 1).value)
    expect(refs).toEqual(['B1', 'B2', 'A1', 'A2', 'A3', 'C1'])
  })

  it('says under the bill what it does not hold: warnings, not measured, xrefs', async () => {
    const bill = sheet(await read(floorPlanBoq()), 'Bill')
    const notes = Array.from({ length: 4 }, (_, i) =>
      rowValues(bill, rowStarting(bill, 'Warning') + i),
    )
    expect(notes).toEqual([
      [
        'Warning',
        'This drawing references another drawing (SITE): its content is not in this bill.',
      ],
      ['Not measured', '*X2 (1): anonymous block (an old release’s hatch or dimension)'],
      ['Not measured', 'SOLID (3): 2D solids have no length or area measured here'],
      ['Xref', 'Drawing referenced: SITE (..\\site\\site.dwg), attached at 100, -200.5, not read'],
    ])
    // The filter covers the table, not the notes under it.
    const header = rowStarting(bill, 'Item')
    expect(bill.autoFilter).toBe(`A${header}:D${header + 6}`)
    expect(rowStarting(bill, 'Warning')).toBe(header + 8)
  })

  it('gives every table a bold frozen header and a filter over the table alone', async () => {
    const book = await read(floorPlanBoq())
    const expected: Record<string, [string, number]> = {
      'Blocks by layer': ['D', 4],
      References: ['K', 4],
      Lengths: ['F', 2],
      Areas: ['J', 1],
      'Not measured': ['C', 2],
    }
    for (const ws of book.worksheets) {
      const header = ws.name === 'Bill' ? rowStarting(ws, 'Item') : 1
      expect(ws.views[0], ws.name).toMatchObject({ state: 'frozen', ySplit: header })
      expect(ws.getRow(header).getCell(1).font?.bold, ws.name).toBe(true)
      if (ws.name === 'Bill') continue
      const [last, rows] = expected[ws.name]
      expect(ws.autoFilter, ws.name).toBe(`A1:${last}${1 + rows}`)
    }
  })

  it('keeps numbers as numbers at full precision, shown through number formats', async () => {
    const book = await read(floorPlanBoq())
    const bill = sheet(book, 'Bill')
    const header = rowStarting(bill, 'Item')
    const quantity = (r: number) => bill.getCell(header + r, 3)
    expect(quantity(1).value).toBe(11)
    expect(quantity(1).numFmt).toBe('#,##0')
    expect(quantity(4).value).toBe(25.123456789012344)
    expect(quantity(4).numFmt).toBe('#,##0.00')

    const refs = sheet(book, 'References')
    expect(rowValues(refs, 1).slice(0, 7)).toEqual([
      'Handle',
      'Block',
      'Definition',
      'Layer',
      'Count',
      'X (mm)',
      'Y (mm)',
    ])
    expect(refs.getCell('F2').value).toBe(1234.5678)
    expect(refs.getCell('G2').value).toBe(-250.125)
    expect(refs.getCell('G2').numFmt).toBe('#,##0.00')
    expect(refs.getCell('E3').numFmt).toBe('#,##0')

    const lengths = sheet(book, 'Lengths')
    expect(rowValues(lengths, 1)).toEqual([
      'Layer',
      'Kind',
      'Multiline style',
      'Count',
      'Length (mm)',
      'Length (m)',
    ])
    expect(rowValues(lengths, 2)).toEqual(['Partitions', 'multiline', 'STANDARD', 1, 4000, 4])
    expect(lengths.getCell('E3').value).toBe(25_123.456789012344)

    const areas = sheet(book, 'Areas')
    expect(rowValues(areas, 1)).toEqual([
      'Layer',
      'Closed polylines',
      'Closed polyline area (mm²)',
      'Circles and whole ellipses',
      'Circle and ellipse area (mm²)',
      'Hatches',
      'Hatch area (mm²)',
      'Outlines filled by a hatch',
      'Net area (mm²)',
      'Net area (m²)',
    ])
    expect(areas.getCell('I2').numFmt).toBe('#,##0.00')
    expect(areas.getCell('B2').numFmt).toBe('#,##0')
  })

  it('lists model-space references with attributes, dynamic properties and contents', async () => {
    const refs = sheet(await read(floorPlanBoq()), 'References')
    expect(rowValues(refs, 1).slice(7)).toEqual(['TYPE', 'FIRE', 'visibility', 'Contains'])
    expect(rowValues(refs, 2)).toEqual([
      '1F',
      'DOOR',
      undefined,
      'Doors',
      1,
      1234.5678,
      -250.125,
      'D1',
      'EI30',
    ])
    expect(rowValues(refs, 4)).toEqual([
      '21',
      'WINDOW',
      '*U7',
      'Windows',
      1,
      10,
      20,
      undefined,
      undefined,
      'Open',
    ])
    expect(refs.getCell('K5').value).toBe('CHAIR × 4, TABLE × 1')
  })

  it('names colliding attribute and property columns apart, and bounds "Contains"', async () => {
    const many = Array.from({ length: 100 }, (_, i) => ({ block: `CHAIR_${i}`, count: i + 1 }))
    const boq = floorPlanBoq({
      attributeTags: ['Layer', 'visibility'],
      propertyNames: ['visibility'],
      references: [
        reference({ handle: '1', block: 'ROOM', layer: 'Rooms', x: 0, y: 0 }, { nested: many }),
      ],
    })
    const refs = sheet(await read(boq), 'References')
    expect(rowValues(refs, 1).slice(7)).toEqual([
      'Layer (attribute)',
      'visibility',
      'visibility (property)',
      'Contains',
    ])
    const contains = String(refs.getCell('K2').value)
    expect(contains.length).toBeLessThanOrEqual(220)
    expect(contains).toMatch(/^CHAIR_0 × 1, CHAIR_1 × 2, .*, … \d+ more$/)
  })

  it('says where a capped list of references stops', async () => {
    const refs = sheet(await read(floorPlanBoq({ referencesCapped: true })), 'References')
    expect(refs.autoFilter).toBe('A1:K5')
    expect(String(refs.getCell('A7').value)).toMatch(/^The list stops here, after 4 references/)
  })

  it('fits widths to the content, within bounds', async () => {
    const long = 'x'.repeat(500)
    const boq = floorPlanBoq()
    boq.bill[0].description = long
    const book = await read(boq)
    for (const ws of book.worksheets) {
      const fallback = ws.properties.defaultColWidth ?? 9
      for (const column of ws.columns) {
        expect(column.width ?? fallback, ws.name).toBeGreaterThanOrEqual(8)
        expect(column.width ?? fallback, ws.name).toBeLessThanOrEqual(60)
      }
    }
    const bill = sheet(book, 'Bill')
    expect(bill.getColumn(2).width).toBe(60)
    expect(bill.getColumn(1).width).toBeLessThan(20)
    // Text wider than its column wraps, in a row made tall enough to show it.
    const line = bill.getRow(rowStarting(bill, 'A1'))
    expect(line.getCell(2).alignment?.wrapText).toBe(true)
    expect(line.height).toBeGreaterThan(15)
  })

  it('cuts text past what a cell holds, with a visible marker, in every sheet', async () => {
    const huge = 'y'.repeat(100_000)
    const boq = floorPlanBoq()
    boq.bill[0].description = huge
    boq.blocks[0].layer = huge
    boq.references[0].attributes.TYPE = huge
    boq.notMeasured[0].reason = huge
    boq.warnings = [huge]
    const book = await read(boq)
    const cut = allCells(book).filter((c) => String(c.value).includes('y'.repeat(100)))
    expect(cut.map((c) => c.worksheet.name)).toEqual([
      'Bill',
      'Bill',
      'Bill',
      'Blocks by layer',
      'References',
      'Not measured',
    ])
    for (const cell of cut) {
      const text = String(cell.value)
      expect(text.length).toBeLessThanOrEqual(32_767)
      // The bill's note says the type and count first: `*X2 (1): ` makes it nine characters longer.
      expect(text.slice(-40)).toMatch(/y… \[cut: 100,00[09] characters\]$/)
    }
  })

  it('writes hostile text as text, never as a formula; negative numbers stay numbers', async () => {
    const boq = floorPlanBoq()
    boq.source.fileName = HOSTILE[0]
    HOSTILE.forEach((text, i) => {
      boq.bill[i].description = text
    })
    boq.blocks[0].block = HOSTILE[1]
    boq.references[0].layer = HOSTILE[2]
    boq.references[0].attributes = { TYPE: HOSTILE[3] }
    boq.attributeTags = ['TYPE', HOSTILE[4]]
    boq.lengths[0].style = HOSTILE[5]
    boq.notMeasured[0].type = HOSTILE[0]
    boq.warnings = HOSTILE
    const book = await read(boq)
    const cells = allCells(book)
    for (const cell of cells) {
      expect(cell.type, `${cell.worksheet.name}!${cell.address}`).not.toBe(
        ExcelJS.ValueType.Formula,
      )
      expect(cell.formula).toBeUndefined()
    }
    const texts = cells.filter((c) => typeof c.value === 'string').map((c) => c.value)
    // XML reads a raw carriage return as a line feed: the text is the same to a reader.
    for (const text of HOSTILE) expect(texts).toContain(text.replace('\r', '\n'))
    expect(sheet(book, 'References').getCell('G2').value).toBe(-250.125)
    expect(book.subject).toBe(HOSTILE[0])
  })

  it('sets the workbook properties', async () => {
    const book = await read(floorPlanBoq())
    expect(book.title).toBe('Bill of quantities: plan.dwg')
    expect(book.subject).toBe('plan.dwg')
    expect(book.creator).toBe('BOQ')
    expect(book.created).toEqual(CREATED)
    expect(book.keywords).toContain('schema version 2')
    expect(book.description).toContain('schema version 2')
  })

  it('writes a drawing with nothing in it: headers, filters, and a word that the table is empty', async () => {
    const empty = floorPlanBoq({
      bill: [],
      warnings: [],
      notMeasured: [],
      xrefs: [],
      blocks: [],
      references: [],
      attributeTags: [],
      propertyNames: [],
      lengths: [],
      areas: [],
    })
    const book = await read(empty)
    const blocks = sheet(book, 'Blocks by layer')
    expect(blocks.autoFilter).toBe('A1:D1')
    expect(blocks.getCell('A3').value).toBe('No block references in model space.')
    const bill = sheet(book, 'Bill')
    const header = rowStarting(bill, 'Item')
    expect(bill.getCell(header + 2, 1).value).toBe(
      'No quantities measured: nothing in the drawing’s model space was counted or measured.',
    )
  })

  it('an empty bill says why in its place, once; what is not measured stays out of Quantity', async () => {
    const why =
      'No quantities measured: model space holds only what the bill does not measure: 3DSOLID × 58 (3D or surface object: not measured).'
    const empty = floorPlanBoq({
      bill: [],
      warnings: [why],
      notMeasured: [
        { type: '3DSOLID', count: 58, reason: '3D or surface object: not measured' },
        { type: 'paper space', count: 2339, reason: 'entities on layouts (paper space)' },
      ],
      xrefs: [],
    })
    const bill = sheet(await read(empty), 'Bill')
    const header = rowStarting(bill, 'Item')
    expect(rowValues(bill, header + 2)).toEqual([why])
    expect(rowValues(bill, header + 3)).toEqual([
      'Not measured',
      '3DSOLID (58): 3D or surface object: not measured',
    ])
    expect(rowValues(bill, header + 4)).toEqual([
      'Not measured',
      'paper space (2,339): entities on layouts (paper space)',
    ])
    expect(bill.rowCount).toBe(header + 4)
  })

  it('never puts a count of what is not measured in the Quantity column', async () => {
    const bill = sheet(await read(floorPlanBoq()), 'Bill')
    const header = rowStarting(bill, 'Item')
    const quantity = rowValues(bill, header).indexOf('Quantity') + 1
    bill.eachRow((row, r) => {
      if (r > header && row.getCell(1).value === 'Not measured') {
        expect(row.getCell(quantity).value, `row ${r}`).toBeNull()
        expect(row.getCell(quantity + 1).value, `row ${r}`).toBeNull()
      }
    })
    // Only the bill's lines have a quantity.
    const numbers: unknown[] = []
    bill.eachRow((row, r) => {
      if (r > header && typeof row.getCell(quantity).value === 'number') numbers.push(r)
    })
    expect(numbers).toHaveLength(floorPlanBoq().bill.length)
  })

  it('shows a measure too small for two decimals in figures, never as 0.00', async () => {
    const boq = floorPlanBoq()
    boq.bill[5].quantity = 0.0000031573
    const bill = sheet(await read(boq), 'Bill')
    const cell = bill.getCell(rowStarting(bill, 'C1'), 3)
    expect(cell.value).toBe(0.0000031573)
    expect(cell.numFmt).toBe('0.00E+00')
    expect(bill.getCell(rowStarting(bill, 'B1'), 3).numFmt).toBe('#,##0.00')
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

describe('toXlsx, opened by LibreOffice', () => {
  const dir = mkdtempSync(join(tmpdir(), 'boq-xlsx-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('converts to a PDF', { timeout: 180_000 }, async () => {
    const boq = floorPlanBoq()
    boq.bill[0].description = HOSTILE[0]
    boq.warnings = ['z'.repeat(40_000)]
    const file = join(dir, 'plan.xlsx')
    writeFileSync(file, await toXlsx(boq, { created: CREATED }))
    // A profile of its own, so runs side by side do not share (and lock) one.
    const profile = pathToFileURL(join(dir, 'profile')).href
    await promisify(execFile)(
      soffice(),
      [
        `-env:UserInstallation=${profile}`,
        '--headless',
        '--convert-to',
        'pdf',
        '--outdir',
        dir,
        file,
      ],
      { timeout: 150_000 },
    )
    expect(statSync(join(dir, 'plan.pdf')).size).toBeGreaterThan(1000)
  })
})
