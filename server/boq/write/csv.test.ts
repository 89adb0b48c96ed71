import { describe, expect, it } from 'vitest'
import { floorPlanBoq } from '#contract/testing/boq.ts'
import { pricedBoq, repricedBoq } from '../../testing/boq/priced-boq.ts'
import { compareBills } from '../compare/compare.ts'
import type { Boq } from '../model/schema.ts'
import { changeBillCsv, csvText, toCsv } from './csv.ts'

const HOSTILE = ['=HYPERLINK("http://x","y")', '+1', '-1+2', '@SUM(A1)', '\tx', '\rx']

/** RFC 4180 as csv-stringify writes it: quoted fields may hold commas, quotes and line breaks. */
function parse(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') field += text[++i]
      else if (char === '"') quoted = false
      else field += char
    } else if (char === '"') quoted = true
    else if (char === ',') {
      row.push(field)
      field = ''
    } else if (char === '\n') {
      rows.push([...row, field])
      row = []
      field = ''
    } else field += char
  }
  if (field || row.length) rows.push([...row, field])
  return rows
}

/** The CSV as records keyed by header; empty fields left out. */
function records(text: string): Record<string, string>[] {
  const [headers, ...rows] = parse(text)
  return rows.map((row) =>
    Object.fromEntries(row.flatMap((v, i) => (v === '' ? [] : [[headers[i], v]]))),
  )
}

describe('toCsv', () => {
  it('is one table led by the bill, then the sheets, the warnings and the xrefs', () => {
    const csv = toCsv(floorPlanBoq())
    const [headers] = parse(csv)
    expect(headers.slice(0, 5)).toEqual(['Section', 'Item', 'Description', 'Quantity', 'Unit'])
    expect(new Set(headers).size).toBe(headers.length)
    const sections = [...new Set(records(csv).map((r) => r.Section))]
    expect(sections).toEqual([
      'Bill',
      'Blocks by layer',
      'References',
      'Lengths',
      'Areas',
      'Not measured',
      'Warnings',
      'Drawings referenced',
    ])
    expect(records(csv)[0]).toEqual({
      Section: 'Bill',
      Item: 'A1',
      Description: 'DOOR',
      Quantity: '11',
      Unit: 'nr',
    })
    expect(records(csv).at(-1)).toEqual({
      Section: 'Drawings referenced',
      Name: 'SITE',
      Path: '..\\site\\site.dwg',
      Overlay: 'no',
      Handle: '2A',
      Layer: 'Xref',
      'X (mm)': '100',
      'Y (mm)': '-200.5',
    })
  })

  it('puts a count of what is not measured under its own Count, never under Quantity', () => {
    const rows = records(toCsv(floorPlanBoq()))
    const notMeasured = rows.filter((r) => r.Section === 'Not measured')
    expect(notMeasured).toEqual([
      {
        Section: 'Not measured',
        Type: '*X2',
        Count: '1',
        Reason: 'anonymous block (an old release’s hatch or dimension)',
      },
      {
        Section: 'Not measured',
        Type: 'SOLID',
        Count: '3',
        Reason: '2D solids have no length or area measured here',
      },
    ])
    const quantities = rows.filter((r) => r.Quantity !== undefined).map((r) => r.Section)
    expect(new Set(quantities)).toEqual(new Set(['Bill']))
  })

  it('writes an empty bill as no Bill row, the reason first among the warnings', () => {
    const why = 'No quantities measured: model space is empty.'
    const rows = records(toCsv(floorPlanBoq({ bill: [], warnings: [why] })))
    expect(rows.filter((r) => r.Section === 'Bill')).toEqual([])
    expect(rows.find((r) => r.Section === 'Warnings')?.Warning).toBe(why)
  })

  it('writes numbers unformatted at full precision; negative numbers stay numbers', () => {
    const rows = records(toCsv(floorPlanBoq()))
    const walls = rows.find((r) => r.Section === 'Bill' && r.Item === 'B1')
    expect(Number(walls?.Quantity)).toBe(25.123456789012344)
    const door = rows.find((r) => r.Section === 'References' && r.Handle === '1F')
    expect(door).toMatchObject({ 'X (mm)': '1234.5678', 'Y (mm)': '-250.125', TYPE: 'D1' })
    const length = rows.find((r) => r.Section === 'Lengths' && r.Layer === 'Walls')
    expect(length).toMatchObject({
      'Length (mm)': '25123.456789012344',
      'Length (m)': '25.123456789012344',
    })
  })

  it('neutralises text a spreadsheet would run as a formula, wherever it is', () => {
    const boq = floorPlanBoq()
    HOSTILE.forEach((text, i) => {
      boq.bill[i].description = text
    })
    boq.blocks[0].layer = HOSTILE[0]
    boq.attributeTags = [HOSTILE[3]]
    boq.references[0].attributes = { [HOSTILE[3]]: HOSTILE[2] }
    boq.warnings = [HOSTILE[1]]
    const csv = toCsv(boq)
    const rows = records(csv)
    const bill = rows.filter((r) => r.Section === 'Bill').map((r) => r.Description)
    expect(bill).toEqual(HOSTILE.map((text) => `'${text}`))
    expect(rows.find((r) => r.Section === 'Blocks by layer')?.Layer).toBe(`'${HOSTILE[0]}`)
    expect(parse(csv)[0]).toContain(`'${HOSTILE[3]}`)
    expect(rows.find((r) => r.Handle === '1F')?.[`'${HOSTILE[3]}`]).toBe(`'${HOSTILE[2]}`)
    expect(rows.find((r) => r.Section === 'Warnings')?.Warning).toBe(`'${HOSTILE[1]}`)
    // No field of the file starts a formula.
    for (const field of parse(csv).flat())
      if (!/^-?\d/.test(field)) expect(field).not.toMatch(/^[=+\-@\t\r]/)
  })

  it('cuts text past what a spreadsheet cell holds, with a visible marker', () => {
    const boq = floorPlanBoq()
    boq.bill[0].description = 'y'.repeat(100_000)
    boq.bill[1].description = `=${'z'.repeat(100_000)}`
    const bill = records(toCsv(boq)).filter((r) => r.Section === 'Bill')
    expect(bill[0].Description.length).toBe(32_767)
    expect(bill[0].Description.endsWith('y… [cut: 100,000 characters]')).toBe(true)
    expect(bill[1].Description.length).toBe(32_767)
    expect(bill[1].Description.slice(0, 3)).toBe("'=z")
    expect(bill[1].Description.endsWith('… [cut: 100,001 characters]')).toBe(true)
  })
})

describe('csvText', () => {
  it('prefixes a quote to text starting = + - @ tab or carriage return, and only to those', () => {
    expect(HOSTILE.map(csvText)).toEqual(HOSTILE.map((text) => `'${text}`))
    for (const safe of ['DOOR', ' =1', 'a=b', '1-2', '', '’quote']) expect(csvText(safe)).toBe(safe)
  })
})

describe('toCsv of a priced bill', () => {
  it('gives the priced sections first, then the measured bill as before', () => {
    const rows = records(toCsv(pricedBoq()))
    const sections = [...new Set(rows.map((r) => r.Section))]
    expect(sections.slice(0, 4)).toEqual(['Priced bill', 'Not classified', 'Ignored', 'Rules'])
    expect(sections).toContain('Bill')
    expect(sections.indexOf('Bill')).toBeGreaterThan(sections.indexOf('Rules'))
    const priced = rows.filter((r) => r.Section === 'Priced bill')
    // Billed figures: 25.123456789 m of walls is billed as 25.12 m, × 40 = 1,004.80.
    expect(
      priced.map((r) => [r['Bill section'], r.Item, r.Description, r.Quantity, r.Amount]),
    ).toEqual([
      ['22', '1', 'Walls', '25.12', '1004.8'],
      ['22', '2', 'Slab', '400', '5000'],
      ['22', undefined, 'Subtotal 22', undefined, '6004.8'],
      ['23', '3', 'Doors', '11', '1650'],
      ['23', '4', 'Windows', '2', '600'],
      ['23', undefined, 'Subtotal 23', undefined, '2250'],
      [undefined, undefined, 'Total', undefined, '8254.8'],
    ])
    expect(rows.find((r) => r.Section === 'Not classified')).toMatchObject({
      'Measured line': 'A3',
      Description: 'CHAIR',
      Quantity: '6',
      Unit: 'nr',
    })
    expect(rows.find((r) => r.Section === 'Ignored')).toMatchObject({
      Rule: '4',
      'Measured line': 'B2',
    })
    expect(rows.filter((r) => r.Section === 'Rules').map((r) => r.Match)).toEqual([
      'count',
      'count',
      'length',
      'length',
      'area',
    ])
  })

  it('has no priced sections without rules', () => {
    const sections = new Set(records(toCsv(floorPlanBoq())).map((r) => r.Section))
    expect(sections.has('Priced bill')).toBe(false)
    expect(sections.has('Rules')).toBe(false)
  })
})

describe('changeBillCsv', () => {
  const csvOf = (before: Boq, after: Boq) =>
    changeBillCsv({
      from: { jobId: 'j1', fileName: 'plan.dwg', versionNumber: 1 },
      to: { jobId: 'j2', fileName: 'plan.dwg', versionNumber: 2 },
      ...compareBills(before, after),
    })

  it('gives the priced items with their amounts after the measured lines, then their totals and the notes', () => {
    const rows = records(csvOf(pricedBoq(), repricedBoq()))
    const sections = [...new Set(rows.map((r) => r.Section))]
    expect(sections).toEqual(['Changes', 'Items', 'Changes notes'])
    const items = rows.filter((r) => r.Section === 'Items')
    expect(items[0]).toEqual({
      Section: 'Items',
      Item: '4 (removed)',
      Code: '23.20',
      Description: 'Windows',
      Unit: 'nr',
      'Quantity before': '2',
      'Quantity after': '0',
      'Rate before': '300',
      'Amount before': '600',
      'Amount after': '0',
      'Amount change': '-600',
      State: 'removed',
    })
    expect(items.find((r) => r.Description === 'Doors')).toMatchObject({
      'Rate before': '150',
      'Rate after': '175',
      'Amount before': '1650',
      'Amount after': '1925',
      'Amount change': '275',
      State: 'changed',
    })
    // The measured lines' columns hold no item's figures, and the items' none of theirs.
    expect(items.some((r) => r.Before !== undefined || r.After !== undefined)).toBe(false)
    const total = items.at(-1)
    expect(total).toMatchObject({ Description: 'Total', 'Amount change': '155' })
    expect(Number(total?.['Amount before'])).toBe(8254.8)
    expect(Number(total?.['Amount after'])).toBe(8409.8)
  })

  it('has no Items when only one bill is priced, and says which is not', () => {
    const rows = records(csvOf(pricedBoq(), floorPlanBoq()))
    expect(rows.some((r) => r.Section === 'Items')).toBe(false)
    expect(rows.find((r) => r.Item === 'Note')?.Description).toBe(
      'The later bill was not priced: its items and amounts are not compared.',
    )
  })
})
