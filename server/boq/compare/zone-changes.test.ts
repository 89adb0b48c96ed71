import { describe, expect, it } from 'vitest'
import type { LocationRow } from '#contract/locations.ts'
import type { TakeoffRule } from '#contract/takeoff-rules.ts'
import { DxfWriter } from '../../testing/boq/dxf-writer.ts'
import type { Boq } from '../model/schema.ts'
import { priceWithTables } from '../price/price.ts'
import { extractBoq } from '../run/extract.ts'
import { changesTable } from '../write/change-rows.ts'
import { changeBillCsv } from '../write/csv.ts'
import { compareBills } from './compare.ts'

const ROOMS: LocationRow[] = [{ layer: 'A-AREA', label: 'text' }]

function rect(x: number, y: number, width: number, height: number) {
  return [
    { x, y },
    { x: x + width, y },
    { x: x + width, y: y + height },
    { x, y: y + height },
  ]
}

/** A kitchen (0..4 m) and a living room (4..10 m), a chair at `chair`, a table in the kitchen. */
function flat(chair: [number, number], locations: LocationRow[] | null = ROOMS): Boq {
  const w = new DxfWriter()
  w.insunits = 6
  w.block('CHAIR', (to, owner) => w.circle(to, owner, '0', [0, 0], 0.2))
  w.block('TABLE', (to, owner) => w.circle(to, owner, '0', [0, 0], 0.5))
  const { to, owner } = w.target('model')
  w.lwpolyline(to, owner, 'A-AREA', rect(0, 0, 4, 5), true)
  w.lwpolyline(to, owner, 'A-AREA', rect(4, 0, 6, 5), true)
  for (const [words, x] of [
    ['Kitchen', 2],
    ['Living', 7],
  ] as const)
    w.entity(to, owner, 'A-TEXT', 'TEXT', 'AcDbText', [10, x, 20, 2.5, 30, 0, 40, 0.25, 1, words])
  w.insert(to, owner, 'Furniture', 'CHAIR', chair)
  w.insert(to, owner, 'Furniture', 'TABLE', [1, 1])
  const bytes = new TextEncoder().encode(w.toString())
  return extractBoq({ bytes, fileName: 'flat.dxf', ...(locations ? { locations } : {}) }, null)
}

const sides = {
  from: { jobId: null, fileName: 'flat.dxf', versionNumber: 1 },
  to: { jobId: null, fileName: 'flat.dxf', versionNumber: 2 },
}

describe('the change bill by zone', () => {
  it('tells which room gained the chair the next revision moved, the total the same', () => {
    const changes = compareBills(flat([1, 4]), flat([8, 4]))
    const chair = changes.lines.find((line) => line.block === 'CHAIR')
    expect(chair).toMatchObject({ before: 1, after: 1, change: 0, state: 'changed' })
    expect(chair?.byZone).toEqual([
      { zone: 'Kitchen', before: 1, after: 0 },
      { zone: 'Living', before: 0, after: 1 },
    ])
    const table = changes.lines.find((line) => line.block === 'TABLE')
    expect(table).toMatchObject({
      state: 'unchanged',
      byZone: [{ zone: 'Kitchen', before: 1, after: 1 }],
    })
    expect(changes.notes).toContain(
      '1 line keeps its total but what it measures moved between zones: it is changed (see by zone).',
    )
    const bill = { ...sides, ...changes }
    const sheet = changesTable(bill)
    expect(sheet.columns.at(-1)?.header).toBe('By zone (before → after)')
    const row = sheet.rows[changes.lines.indexOf(chair as (typeof changes.lines)[number])]
    expect(row.at(-1)).toBe('Kitchen: 1 → 0; Living: 0 → 1')
    expect(changeBillCsv(bill)).toContain('Kitchen: 1 → 0; Living: 0 → 1')
  })

  it('tells which room the priced chair moved to, its quantity and amount the same', () => {
    const rules: TakeoffRule[] = [
      { match: 'count', block: 'CHAIR', code: 'F1', description: 'Chair', rate: 120 },
    ]
    const priced = (boq: Boq): Boq => ({
      ...boq,
      priced: priceWithTables(boq, { rules, classification: [] }),
    })
    const changes = compareBills(priced(flat([1, 4])), priced(flat([8, 4])))
    const chair = changes.items?.find((item) => item.code === 'F1')
    expect(chair).toMatchObject({
      before: { quantity: 1, amount: 120 },
      after: { quantity: 1, amount: 120 },
      amountChange: 0,
      state: 'changed',
      byZone: [
        { zone: 'Kitchen', before: 1, after: 0 },
        { zone: 'Living', before: 0, after: 1 },
      ],
    })
    const csv = changeBillCsv({ ...sides, ...changes })
    // One header for both tables: the items' moves sit in the lines' By zone column.
    expect(csv.split('\n')[0]).toContain('By zone (before → after)')
    const itemRow = csv.split('\n').find((row) => row.startsWith('Items,1,'))
    expect(itemRow).toContain('Kitchen: 1 → 0; Living: 0 → 1')
  })

  it('leaves a chair moved outside every room to Unallocated', () => {
    const changes = compareBills(flat([1, 4]), flat([20, 4]))
    expect(changes.lines.find((line) => line.block === 'CHAIR')?.byZone).toEqual([
      { zone: 'Kitchen', before: 1, after: 0 },
      { zone: null, before: 0, after: 1 },
    ])
  })

  it('compares by zone only when both bills have zones, and says so', () => {
    const changes = compareBills(flat([1, 4], null), flat([8, 4]))
    const chair = changes.lines.find((line) => line.block === 'CHAIR')
    expect(chair).toMatchObject({ state: 'unchanged' })
    expect(chair?.byZone).toBeUndefined()
    expect(changes.notes).toContain(
      'Only the later bill has zones (the other was made without locations): the lines are not compared zone by zone.',
    )
    expect(changesTable({ ...sides, ...changes }).columns.at(-1)?.header).toBe('State')
  })
})
