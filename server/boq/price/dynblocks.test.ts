import * as v from 'valibot'
import { beforeAll, describe, expect, it } from 'vitest'
import { PricedBillSchema, type TakeoffRule } from '#contract/takeoff-rules.ts'
import { fixture } from '../../testing/boq/fixtures.ts'
import { expectWholeBill } from '../../testing/boq/price/whole-bill.ts'
import type { Boq } from '../model/schema.ts'
import { createReader } from '../read/libredwg.ts'
import { extractBoq } from '../run/extract.ts'
import { sheetTables } from '../write/rows.ts'
import { labelOf } from './piece.ts'
import { piecesOf } from './pieces.ts'
import { compileRuleSet, priceBill } from './price.ts'

/** A surveyor's rules for the sample of dynamic blocks (an imperial drawing, billed in ft). */
const RULES: TakeoffRule[] = [
  {
    match: 'count',
    block: 'Trees*',
    visibility: 'Palm*',
    code: '90.10',
    description: 'Palm',
    rate: 400,
  },
  {
    match: 'count',
    block: 'Door - Imperial',
    visibility: 'Open*',
    code: '30.10',
    description: 'Door set',
    rate: 650,
  },
  {
    match: 'count',
    block: 'alteZZa',
    code: '90.90',
    description: 'Car (not in contract)',
    rate: 0,
  },
  // The parts of the car block are counted inside it: left out on purpose.
  { match: 'count', layer: 'CAR', ignore: true },
  { match: 'length', layer: 'Dim', ignore: true },
  {
    match: 'length',
    layer: 'WALL_0.40',
    kind: 'line',
    code: '20.10',
    description: 'Plaster both sides',
    unit: 'ft²',
    quantity: 'length * 8 * 2',
    rate: 3,
  },
  {
    match: 'length',
    layer: 'WALL_0.40',
    kind: 'line',
    code: '20.20',
    description: 'Skirting',
    unit: 'm',
    rate: 9,
  },
  {
    match: 'area',
    layer: 'FURNITURE',
    kind: 'polyline',
    code: '40.10',
    description: 'Rug',
    unit: 'm²',
    rate: 20,
  },
]
/** The second row of the assembly gives its item from the pieces the first row took too. */
const ASSEMBLY_ONLY = new Set(['20.20'])

let boq: Boq

beforeAll(async () => {
  boq = extractBoq(
    { bytes: fixture('2018_Dynblocks.dwg'), fileName: '2018_Dynblocks.dwg' },
    await createReader(),
  )
})

describe('pricing the measured bill of 2018_Dynblocks', () => {
  it('shares every line out to its pieces', () => {
    const { pieces } = piecesOf(boq)
    expectWholeBill(boq, pieces)
    // Each placed reference is a piece of its own, and the car's parts are pieces nested in it.
    expect(pieces.filter((p) => p.origin === 'reference')).toHaveLength(boq.references.length)
    expect(pieces.some((p) => labelOf(p) === 't nested in reference BFD0')).toBe(true)
  })

  it('prices the items the rules give, tracing each to its lines and entities', () => {
    const bill = priceBill(boq, compileRuleSet(RULES))
    expect(v.is(PricedBillSchema, bill)).toBe(true)
    const byCode = new Map(bill.items.map((i) => [i.code, i]))
    expect(byCode.get('90.10')).toMatchObject({
      quantity: 1,
      amount: 400,
      sources: [{ handles: ['C145'] }],
    })
    expect(byCode.get('30.10')).toMatchObject({
      quantity: 1,
      amount: 650,
      sources: [{ handles: ['C15A'] }],
    })
    expect(byCode.get('90.90')).toMatchObject({ quantity: 2, amount: 0 })

    const walls = boq.bill.find((line) => line.layer === 'WALL_0.40')
    const feet = walls?.quantity ?? Number.NaN
    expect(byCode.get('20.10')?.measuredQuantity).toBeCloseTo(feet * 16)
    expect(byCode.get('20.20')?.measuredQuantity).toBeCloseTo(feet * 0.3048)
    expect(byCode.get('20.20')?.sources.map((s) => s.line)).toEqual([walls?.ref])
    expect(byCode.get('40.10')?.measuredQuantity).toBeCloseTo(5.25 * 0.3048 ** 2)
    expect(bill.sections.map((s) => s.code)).toEqual(['20', '30', '40', '90'])
    // Billed: each quantity to two decimals, each amount to the cent.
    const billed = (quantity: number, rate: number) =>
      Math.round(Math.round(quantity * 100) * rate) / 100
    expect(bill.total).toBeCloseTo(
      400 + 650 + billed(feet * 16, 3) + billed(feet * 0.3048, 9) + billed(5.25 * 0.3048 ** 2, 20),
      9,
    )

    // Every handle named is one the measured bill names.
    const measured = new Set(
      boq.bill.flatMap((line) => line.breakdown.flatMap((row) => row.handles)),
    )
    const named = [
      ...bill.items.flatMap((i) => i.sources),
      ...bill.ignored,
      ...bill.notClassified,
    ].flatMap((s) => s.handles)
    expect(named.every((h) => measured.has(h))).toBe(true)
  })

  it('loses nothing and counts nothing twice', () => {
    const bill = priceBill(boq, compileRuleSet(RULES))
    const sums = new Map<string, number>()
    const add = (line: string, quantity: number) => sums.set(line, (sums.get(line) ?? 0) + quantity)
    for (const item of bill.items)
      if (!ASSEMBLY_ONLY.has(item.code)) for (const s of item.sources) add(s.line, s.measured)
    for (const entry of [...bill.ignored, ...bill.notClassified]) add(entry.line, entry.quantity)
    for (const line of boq.bill) expect(sums.get(line.ref) ?? 0).toBeCloseTo(line.quantity, 9)

    // The car's parts are ignored on purpose, not left unclassified.
    expect(bill.ignored.filter((e) => e.rule === 4).reduce((sum, e) => sum + e.count, 0)).toBe(
      boq.bill
        .filter(
          (l) =>
            l.kind === 'count' &&
            l.breakdown.some((r) => r.layer === 'CAR') &&
            l.block !== 'alteZZa',
        )
        .reduce((sum, l) => sum + l.quantity, 0),
    )
    expect(bill.notClassified.some((e) => e.match === 'count' && e.layer === 'CAR')).toBe(false)
    expect(bill.notClassified.find((e) => e.block === 'Toilet - Imperial')).toMatchObject({
      match: 'count',
      quantity: 1,
      unit: 'nr',
    })
  })

  it('reads the dynamic blocks’ numeric properties in formulas, and lists them per reference', () => {
    expect(boq.propertyNames).toEqual([
      'visibility',
      'Angle',
      'Door Size',
      'Wall Thickness',
      'Window Width',
      'Window Height',
    ])
    const references = sheetTables(boq).find((t) => t.name === 'References')
    const headers = references?.columns.map((c) => c.header) ?? []
    const door = references?.rows.find((row) => row[0] === 'C15A') ?? []
    expect(door[headers.indexOf('Door Size')]).toBe('40')
    expect(door[headers.indexOf('Wall Thickness')]).toBe('5')

    const bill = priceBill(
      boq,
      compileRuleSet([
        // The drawing is in inches: a door's frame (two jambs of 84 in and its head) in feet.
        {
          match: 'count',
          block: 'Door - Imperial',
          code: '30.20',
          description: 'Door frame',
          unit: 'ft',
          quantity: '(door_size + 2 * 84) / 12',
          rate: 10,
        },
        {
          match: 'count',
          block: 'Aluminum Window*',
          code: '50.10',
          description: 'Glazing',
          unit: 'ft²',
          quantity: 'window_width * window_height / 144',
          rate: 30,
        },
      ]),
    )
    expect(v.is(PricedBillSchema, bill)).toBe(true)
    const byCode = new Map(bill.items.map((i) => [i.code, i]))
    expect(byCode.get('30.20')).toMatchObject({
      quantity: 17.33,
      measuredQuantity: (40 + 168) / 12,
      sources: [{ handles: ['C15A'] }],
    })
    expect(byCode.get('50.10')).toMatchObject({
      quantity: 9,
      amount: 270,
      sources: [{ handles: ['C17F'] }],
    })
  })
})
