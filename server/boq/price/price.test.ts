import { describe, expect, it } from 'vitest'
import type { PricedBill, TakeoffRule } from '#contract/takeoff-rules.ts'
import { areaLine, lengthLine, measured, placed } from '../../testing/boq/price/measured.ts'
import type { Boq } from '../model/schema.ts'
import { compileClassification, compileRuleSet, priceBill } from './price.ts'

/** Doors and windows, walls and dimension lines, a slab: billed in m and m². */
function plan(): Boq {
  return measured(
    [
      placed({
        handle: 'D1',
        block: 'DOOR',
        layer: 'Doors',
        attributes: { TYPE: 'D1', WIDTH: '0.9' },
      }),
      placed({
        handle: 'D2',
        block: 'DOOR',
        layer: 'Doors',
        attributes: { TYPE: 'D2', WIDTH: '1.2' },
      }),
      placed({
        handle: 'D3',
        block: 'DOOR',
        layer: 'Doors',
        attributes: { TYPE: 'D1', WIDTH: 'wide' },
      }),
      placed({ handle: 'W1', block: 'WINDOW', layer: 'Windows', visibility: 'Open', count: 2 }),
      placed({ handle: 'W2', block: 'WINDOW', layer: 'Windows', visibility: 'Fixed' }),
    ],
    [
      lengthLine('B1', 'Walls', [
        { kind: 'line', count: 4, quantity: 20, handles: ['L1', 'L2', 'L3', 'L4'] },
        { kind: 'arc', count: 1, quantity: 3, handles: ['L5'] },
      ]),
      lengthLine('B2', 'Dims', [{ kind: 'line', count: 2, quantity: 7, handles: ['M1', 'M2'] }]),
      areaLine('C1', 'Slabs', [{ kind: 'hatch', count: 1, quantity: 40, handles: ['H1'] }]),
    ],
  )
}

function price(boq: Boq, rules: TakeoffRule[]): PricedBill {
  return priceBill(boq, compileRuleSet(rules))
}

function numbersIn(value: unknown): number[] {
  if (typeof value === 'number') return [value]
  if (value && typeof value === 'object') return Object.values(value).flatMap(numbersIn)
  return []
}

/** The bill's figures: its items' and sections' numbers and the total (not the rules used). */
function figuresIn(bill: PricedBill): number[] {
  return numbersIn([bill.items, bill.sections, bill.total])
}

const inRange = (figure: number) => Number.isFinite(figure) && Math.abs(figure) <= 1e15

const item = (bill: PricedBill, code: string) => {
  const found = bill.items.filter((i) => i.code === code)
  if (found.length !== 1) throw new Error(`${found.length} items of code ${code}`)
  return found[0]
}

describe('pricing a measured bill', () => {
  it('gives each piece to the first group that takes it', () => {
    const bill = price(plan(), [
      { match: 'count', block: 'door', attribute: 'type=D1', code: 'D.1', rate: 300 },
      { match: 'count', block: 'DOOR', code: 'D.9', rate: 250 },
      { match: 'count', block: 'D*', code: 'never', rate: 1 },
    ])
    expect(item(bill, 'D.1')).toMatchObject({ quantity: 2, amount: 600, rules: [1], unit: 'nr' })
    expect(item(bill, 'D.9')).toMatchObject({ quantity: 1, amount: 250, rules: [2] })
    expect(bill.items.some((i) => i.code === 'never')).toBe(false)
    expect(item(bill, 'D.1').sources).toEqual([
      { line: 'A1', measured: 2, count: 2, quantity: 2, handles: ['D1', 'D3'] },
    ])
  })

  it('gives several items from one piece in a group (an assembly)', () => {
    const bill = price(plan(), [
      {
        match: 'length',
        layer: 'Walls',
        code: 'P',
        description: 'Plaster both sides',
        unit: 'm²',
        quantity: 'length * 2.4 * 2',
        rate: 12,
      },
      { match: 'length', layer: 'walls', code: 'S', description: 'Skirting', rate: 8 },
    ])
    expect(item(bill, 'P')).toMatchObject({ unit: 'm²', flags: [] })
    expect(item(bill, 'P').quantity).toBeCloseTo(23 * 4.8)
    expect(item(bill, 'S')).toMatchObject({ quantity: 23, unit: 'm', amount: 184 })
    expect(item(bill, 'P').amount).toBeCloseTo(23 * 4.8 * 12)
    expect(bill.total).toBeCloseTo(23 * 4.8 * 12 + 184)
  })

  it('merges items of the same code, description, unit and rate, and no others', () => {
    const bill = price(plan(), [
      { match: 'length', layer: 'Walls', kind: 'line', code: 'W', description: 'Wall', rate: 10 },
      { match: 'length', layer: 'Walls', kind: 'arc', code: 'W', description: 'Wall', rate: 10 },
      { match: 'length', layer: 'Dims', code: 'W', description: 'Wall', rate: 11 },
    ])
    expect(bill.items.map((i) => [i.code, i.quantity, i.rate, i.rules])).toEqual([
      ['W', 23, 10, [1, 2]],
      ['W', 7, 11, [3]],
    ])
    expect(bill.items[0].sources).toEqual([
      { line: 'B1', measured: 23, count: 5, quantity: 23, handles: ['L1', 'L2', 'L3', 'L4', 'L5'] },
    ])
  })

  it('lists what no rule takes and what an ignore rule leaves out, losing nothing', () => {
    const bill = price(plan(), [
      { match: 'length', layer: 'Dims', ignore: true },
      { match: 'length', layer: 'Walls', kind: 'line', code: 'W' },
      { match: 'count', visibility: 'Open', code: 'WO' },
    ])
    expect(bill.ignored).toEqual([
      {
        rule: 1,
        line: 'B2',
        description: 'Linework on layer Dims',
        unit: 'm',
        quantity: 7,
        count: 2,
        handles: ['M1', 'M2'],
      },
    ])
    expect(bill.notClassified).toEqual([
      {
        line: 'A1',
        match: 'count',
        description: 'DOOR',
        block: 'DOOR',
        layer: 'Doors',
        unit: 'nr',
        quantity: 3,
        count: 3,
        handles: ['D1', 'D2', 'D3'],
      },
      {
        line: 'A2',
        match: 'count',
        description: 'WINDOW',
        block: 'WINDOW',
        layer: 'Windows',
        unit: 'nr',
        quantity: 1,
        count: 1,
        handles: ['W2'],
      },
      {
        // A result kept with one linework line per layer: its arcs are told apart all the same.
        line: 'B1',
        match: 'length',
        description: 'Arcs on layer Walls',
        layer: 'Walls',
        kind: 'arc',
        unit: 'm',
        quantity: 3,
        count: 1,
        handles: ['L5'],
      },
      {
        line: 'C1',
        match: 'area',
        description: 'Area on layer Slabs',
        layer: 'Slabs',
        kind: 'hatch',
        unit: 'm²',
        quantity: 40,
        count: 1,
        handles: ['H1'],
      },
    ])
    // Every measured line is accounted for once: items (no assemblies here), ignored, not classified.
    const boq = plan()
    for (const line of boq.bill) {
      const taken = [
        ...bill.items.flatMap((i) => i.sources),
        ...bill.ignored,
        ...bill.notClassified,
      ].filter((s) => s.line === line.ref)
      const sum = taken.reduce((total, s) => total + ('measured' in s ? s.measured : s.quantity), 0)
      expect(sum).toBeCloseTo(line.quantity)
    }
  })

  it('converts the measured quantity to the item unit', () => {
    const bill = price(plan(), [
      { match: 'length', layer: 'Walls', code: 'mm', unit: 'mm' },
      { match: 'area', code: 'ft2', unit: 'ft²' },
      { match: 'length', layer: 'Dims', code: 'ft', unit: 'LF' },
    ])
    expect(item(bill, 'mm')).toMatchObject({ quantity: 23_000, unit: 'mm' })
    expect(item(bill, 'ft2').quantity).toBeCloseTo(40 / 0.3048 ** 2)
    expect(item(bill, 'ft')).toMatchObject({ unit: 'ft' })
    expect(item(bill, 'ft').quantity).toBeCloseTo(7 / 0.3048)
  })

  it('flags what a drawing without units cannot convert', () => {
    const boq = {
      ...plan(),
      units: {
        ...plan().units,
        drawing: { code: 0, name: 'unitless', length: 'units', area: 'units²' },
        system: 'drawing' as const,
        length: 'units',
        area: 'units²',
        lengthFactor: 1,
        areaFactor: 1,
      },
    }
    const bill = price(boq, [
      { match: 'length', layer: 'Walls', code: 'W', unit: 'm' },
      { match: 'length', code: 'U' },
    ])
    expect(item(bill, 'W')).toMatchObject({
      quantity: 0,
      flags: ['rule 1: the drawing states no units, so its units cannot be given in m'],
    })
    expect(item(bill, 'W').sources[0]).toMatchObject({ line: 'B1', measured: 23, quantity: 0 })
    expect(item(bill, 'U')).toMatchObject({ quantity: 7, unit: 'units' })
  })

  it('runs formulas per reference on its attributes, flagging what it cannot read', () => {
    const bill = price(plan(), [
      {
        match: 'count',
        block: 'DOOR',
        code: 'F',
        description: 'Frame',
        unit: 'm',
        quantity: 'WIDTH * 2 + 4.2',
        rate: 10,
      },
    ])
    expect(item(bill, 'F').quantity).toBeCloseTo(0.9 * 2 + 4.2 + 1.2 * 2 + 4.2)
    expect(item(bill, 'F').flags).toEqual([
      "rule 1: width is 'wide' on reference D3, not a number; left out of the quantity",
    ])
    expect(item(bill, 'F').sources).toMatchObject([{ line: 'A1', measured: 3, count: 3 }])
  })

  it('flags a formula on a name no reference has', () => {
    const bill = price(plan(), [
      { match: 'count', block: 'WINDOW', code: 'X', quantity: 'HEIGHT * count' },
    ])
    expect(item(bill, 'X')).toMatchObject({
      quantity: 0,
      flags: [
        'rule 1: no reference in this drawing has height (an attribute or a dynamic property)',
      ],
    })
  })

  it('flags a non-finite result and says why', () => {
    const bill = price(plan(), [
      { match: 'count', block: 'DOOR', code: 'X', quantity: '1 / (WIDTH - 0.9)' },
      { match: 'area', code: 'Y', quantity: 'sqrt(-area)' },
    ])
    expect(item(bill, 'X').measuredQuantity).toBeCloseTo(1 / 0.3)
    expect(item(bill, 'X').flags[0]).toBe(
      'rule 1: 1 / (WIDTH - 0.9) gives Infinity for reference D1 (a division by zero?); left out of the quantity',
    )
    expect(item(bill, 'Y')).toMatchObject({ quantity: 0 })
    expect(item(bill, 'Y').flags[0]).toMatch(/gives NaN .* \(not a number\)/)
    expect(numbersIn(bill).every(Number.isFinite)).toBe(true)
  })

  it('flags quantities past the largest figure and leaves them out, whatever the pieces', () => {
    const refs = Array.from({ length: 10 }, (_, i) =>
      placed({ handle: `R${i}`, block: 'B', layer: 'L', attributes: { N: '4e14' } }),
    )
    const huge = price(measured(refs), [
      { match: 'count', code: 'H', quantity: 'count * 1e308', rate: 1 },
    ])
    expect(item(huge, 'H')).toMatchObject({ quantity: 0, amount: 0 })
    expect(item(huge, 'H').flags[0]).toBe(
      'rule 1: count * 1e308 gives 1e+308 for reference R0, past 1e15 either way, the largest taken; left out of the quantity',
    )
    expect(item(huge, 'H').flags.at(-1)).toBe('and 5 more like these')
    const many = price(measured(refs), [{ match: 'count', code: 'M', quantity: 'N', rate: 1 }])
    expect(item(many, 'M')).toMatchObject({ quantity: 8e14, amount: 8e14 })
    expect(item(many, 'M').flags[0]).toBe(
      "rule 1: with reference R2 the item's quantity would be past 1e15 either way, the largest taken; left out of the quantity",
    )
    expect(item(many, 'M').sources[0]).toMatchObject({ count: 10, quantity: 8e14 })
    for (const bill of [huge, many]) expect(figuresIn(bill).every(inRange)).toBe(true)
  })

  it('flags amounts past the largest figure, alone or summed, and leaves them out of the sums', () => {
    const big = { count: 1, attributes: { N: '3e7' } }
    const bill = price(
      measured([
        placed({ handle: 'A', block: 'A', layer: 'L', ...big }),
        placed({ handle: 'B', block: 'B', layer: 'L', ...big }),
      ]),
      [
        { match: 'count', block: 'A', code: '1.1', quantity: 'N', rate: 2e7 },
        { match: 'count', block: 'A', code: '1.2', quantity: 'N', rate: 2e7 },
        { match: 'count', block: 'A', code: '1.3', quantity: 'N', rate: 1e10 },
        { match: 'count', block: 'B', code: '2.1', quantity: 'N', rate: 2e7 },
        { match: 'count', block: 'B', code: '3.1', quantity: 'N', rate: 1 },
      ],
    )
    expect(item(bill, '1.1')).toMatchObject({ amount: 6e14, flags: [] })
    expect(item(bill, '1.2')).toMatchObject({ amount: null, rate: 2e7 })
    expect(item(bill, '1.2').flags).toEqual([
      "with its amount the section's subtotal would be past 1e15 either way, the largest taken: left out of the amounts",
    ])
    expect(item(bill, '1.3').flags).toEqual([
      'its amount 300000000000000000 is past 1e15 either way, the largest taken: left out of the amounts',
    ])
    expect(item(bill, '2.1')).toMatchObject({ amount: null })
    expect(item(bill, '2.1').flags[0]).toMatch(/^with its amount the total would be past 1e15/)
    expect(item(bill, '3.1')).toMatchObject({ amount: 3e7 })
    expect(bill.sections.map((s) => s.subtotal)).toEqual([6e14, 0, 3e7])
    expect(bill.total).toBe(6e14 + 3e7)
    expect(figuresIn(bill).every(inRange)).toBe(true)
  })

  it('flags a formula that is not a plain multiple run on entities measured together', () => {
    const bill = price(plan(), [
      {
        match: 'length',
        layer: 'Walls',
        kind: 'line',
        code: 'bars',
        unit: 'nr',
        quantity: 'ceil(length / 6)',
      },
      {
        match: 'length',
        layer: 'Walls',
        kind: 'arc',
        code: 'fine',
        unit: 'nr',
        quantity: 'ceil(length / 6)',
      },
      { match: 'length', layer: 'Dims', code: 'plain', quantity: 'length * 2' },
    ])
    expect(item(bill, 'bars')).toMatchObject({ quantity: 4 })
    expect(item(bill, 'bars').flags).toEqual([
      'rule 1: ceil(length / 6) ran once on 4 lines on layer Walls (B1), measured together: per entity it may give another figure',
    ])
    expect(item(bill, 'fine').flags).toEqual([])
    expect(item(bill, 'plain').flags).toEqual([])
  })

  it('tells the first few flags of an item and counts the rest', () => {
    const refs = Array.from({ length: 8 }, (_, i) =>
      placed({ handle: `R${i}`, block: 'B', layer: 'L', attributes: { N: 'x' } }),
    )
    const bill = price(measured(refs), [{ match: 'count', code: 'N', quantity: 'N' }])
    expect(item(bill, 'N').flags).toHaveLength(6)
    expect(item(bill, 'N').flags[5]).toBe('and 3 more like these')
  })

  it('leaves amounts empty where no rate is given', () => {
    const bill = price(plan(), [
      { match: 'area', code: 'S', rate: null },
      { match: 'count', code: 'C', rate: 2 },
    ])
    expect(item(bill, 'S')).toMatchObject({ rate: null, amount: null })
    expect(bill.total).toBe(2 * 6)
  })

  it('keeps the rules it used', () => {
    const rules: TakeoffRule[] = [{ match: 'area', code: 'S' }]
    expect(price(plan(), rules).rules).toEqual(rules)
  })
})

describe('classifying items', () => {
  const system = compileClassification([
    { code: '20', title: 'Shell' },
    { code: '10', title: 'Substructure' },
    { code: '10.20', title: 'Floor slabs', parent: '10' },
    { code: '20.10', title: 'Walls', parent: '20' },
    { code: '20.10.5', title: 'Wall finishes', parent: '20.10' },
  ])

  it('names items by their code and groups them by the top level, in the system order', () => {
    const bill = priceBill(
      plan(),
      compileRuleSet([
        { match: 'area', code: '10.20', rate: 50 },
        { match: 'length', layer: 'Walls', code: '20.10.5', rate: 10 },
        { match: 'length', layer: 'Dims', code: '20.10.5.1', description: 'Own words', rate: 1 },
        { match: 'count', code: '99.1', description: 'Outside', rate: 1 },
      ]),
      system,
    )
    expect(bill.items.map((i) => [i.ref, i.section, i.code, i.description])).toEqual([
      ['1', '20', '20.10.5', 'Wall finishes'],
      ['2', '20', '20.10.5.1', 'Own words'],
      ['3', '10', '10.20', 'Floor slabs'],
      ['4', '99', '99.1', 'Outside'],
    ])
    expect(bill.sections).toEqual([
      { code: '20', title: 'Shell', items: ['1', '2'], subtotal: 237 },
      { code: '10', title: 'Substructure', items: ['3'], subtotal: 2000 },
      { code: '99', title: '', items: ['4'], subtotal: 6 },
    ])
    expect(bill.total).toBe(2243)
  })

  it('merges items the title names alike', () => {
    const bill = priceBill(
      plan(),
      compileRuleSet([
        { match: 'length', layer: 'Walls', code: '20.10', rate: 10 },
        { match: 'length', layer: 'Dims', code: '20.10', description: 'Walls', rate: 10 },
      ]),
      system,
    )
    expect(bill.items.map((i) => [i.description, i.quantity])).toEqual([['Walls', 30]])
  })

  it('groups by the first segment of the code without a system, in code order', () => {
    const bill = price(plan(), [
      { match: 'area', code: 'E-10', description: 'Slab' },
      { match: 'length', layer: 'Walls', code: 'C 2', description: 'Walls' },
      { match: 'length', layer: 'Dims', code: 'C.1', description: 'Dims' },
      { match: 'count', description: 'No code' },
    ])
    expect(bill.sections.map((s) => [s.code, s.items])).toEqual([
      ['', ['1']],
      ['C', ['2', '3']],
      ['E', ['4']],
    ])
  })

  it('refuses a broken system, naming the row', () => {
    expect(() => compileClassification([{ code: '1', title: 'A', parent: '2' }])).toThrow(
      "row 1: parent '2' is not a code of the system",
    )
  })
})
