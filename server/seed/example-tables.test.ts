import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PricedBill, PricedBillSchema } from '#contract/takeoff-rules.ts'
import { compileClassification, compileRuleSet, priceBill } from '../boq/price/price.ts'
import { createReader } from '../boq/read/libredwg.ts'
import { extractBoq } from '../boq/run/extract.ts'
import { makeId } from '../cloud/local/ids.ts'
import { saveExampleTables } from '../rules/example-tables.ts'
import type { RulesStore } from '../rules/store/types.ts'
import { FIXTURES, fixture } from '../testing/boq/fixtures.ts'
import { openTempRulesStore } from '../testing/rules/temp-store.ts'
import {
  EXAMPLE_SAVED_BY,
  type ExampleTables,
  exampleProjectOf,
  readExampleTables,
} from './example-tables.ts'
import { DEMO_HUB, FEATURED_DRAWING, seedIfEmpty } from './seed.ts'

/** The demo drawings the example is written for: the featured one and the architecture plan. */
const DRAWINGS = [FEATURED_DRAWING, '2018_Dynblocks.dwg'] as const
const PROJECT = `${DEMO_HUB}/Harbour Residences`

let scratch: string
let tables: ExampleTables
const priced = new Map<string, PricedBill>()

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'boq-example-tables-'))
  tables = await readExampleTables()
  const reader = await createReader()
  const rules = compileRuleSet(tables.rules)
  const classification = compileClassification(tables.classification)
  for (const name of DRAWINGS) {
    const boq = extractBoq({ bytes: fixture(name), fileName: name }, reader)
    priced.set(name, priceBill(boq, rules, classification))
  }
}, 60_000)

afterAll(() => rm(scratch, { recursive: true, force: true }))

const ruleNumbers = (filter: (ignore: boolean) => boolean) =>
  tables.rules.flatMap((rule, i) => (filter(rule.ignore === true) ? [i + 1] : []))

describe('the example tables', () => {
  it('say they are an example, and name only codes of their classification', () => {
    const items = tables.rules.filter((rule) => !rule.ignore)
    expect(items.length).toBeGreaterThanOrEqual(8)
    for (const rule of tables.rules) expect(rule.description).toMatch(/^Example: /)
    const codes = new Set(tables.classification.map((entry) => entry.code))
    for (const rule of items) expect(codes).toContain(rule.code)
    for (const top of tables.classification.filter((entry) => !entry.parent))
      expect(top.title).toMatch(/^Example: /)
  })

  it('are written for drawings the demo puts into the featured drawing’s project', async () => {
    const seed = await seedIfEmpty(join(scratch, 'cloud'), FIXTURES)
    for (const name of DRAWINGS)
      expect(seed.files.find((path) => path.endsWith(`/${name}`))).toMatch(`${PROJECT}/`)
    expect(exampleProjectOf(seed)).toBe(makeId('project', PROJECT))
  })

  it('price every item they make from those drawings, each with a quantity and an amount', () => {
    const given = new Set<number>()
    for (const bill of priced.values()) {
      expect(v.is(PricedBillSchema, bill)).toBe(true)
      expect(bill.warnings).toEqual([])
      for (const item of bill.items) {
        expect(item.description).toMatch(/^Example: /)
        expect(item.flags).toEqual([])
        expect(item.quantity).toBeGreaterThan(0)
        expect(item.amount).toBeGreaterThan(0)
        for (const rule of item.rules) given.add(rule)
      }
      expect(bill.total).toBeGreaterThan(0)
    }
    // No item rule is written for something the drawings do not hold.
    expect([...given].sort((a, b) => a - b)).toEqual(ruleNumbers((ignore) => !ignore))
  })

  it('price the featured drawing’s points, blocks, multiline wall and floor, and leave the rest', () => {
    const bill = priced.get(FEATURED_DRAWING) as PricedBill
    const byCode = Object.fromEntries(bill.items.map((item) => [item.code, item.measuredQuantity]))
    expect(byCode['EX-40.10']).toBe(8)
    expect(byCode['EX-40.20']).toBe(2)
    // The assembly: the wall's length, its plaster on both sides 2.7 m high, its skirtings.
    const wall = byCode['EX-20.10'] as number
    expect(byCode['EX-20.20']).toBeCloseTo(wall * 2.7 * 2, 9)
    expect(byCode['EX-20.30']).toBeCloseTo(wall * 2, 9)
    expect(bill.sections.map((section) => section.title)).toEqual([
      'Example: walls and finishes',
      'Example: floors',
      'Example: electrical',
    ])
    expect(bill.notClassified.map((entry) => entry.layer)).toContain('Tavolo 2')
  })

  it('ignore the plan’s dimension layer, and leave what they do not name not classified', () => {
    const bill = priced.get('2018_Dynblocks.dwg') as PricedBill
    expect(bill.items.map((item) => item.code)).toEqual([
      'EX-10.10',
      'EX-10.20',
      'EX-50.10',
      'EX-50.20',
    ])
    const ignoreRules = ruleNumbers((ignore) => ignore)
    expect([...new Set(bill.ignored.map((entry) => entry.rule))]).toEqual(ignoreRules)
    expect(bill.ignored.map((entry) => entry.description)).toEqual([
      'Lines on layer Dim',
      'Polylines on layer Dim',
      'Area on layer Dim',
    ])
    expect(bill.notClassified.map((entry) => entry.layer)).toContain('WALL_0.40')
  })
})

describe('saving the example tables for a project', () => {
  let store: RulesStore
  beforeAll(async () => {
    store = await openTempRulesStore('boq-example-store-')
  })
  afterAll(() => store.close())

  it('saves both as version 1 by the example, once', async () => {
    expect(await saveExampleTables(store, 'b.demo')).toBe(true)
    expect(await store.rules('b.demo', 'rules')).toMatchObject({
      version: 1,
      savedBy: EXAMPLE_SAVED_BY,
      rows: tables.rules,
    })
    expect(await store.rules('b.demo', 'classification')).toMatchObject({
      version: 1,
      savedBy: EXAMPLE_SAVED_BY,
      rows: tables.classification,
    })
    expect(await saveExampleTables(store, 'b.demo')).toBe(false)
    expect(await store.rulesHistory('b.demo', 'rules')).toHaveLength(1)
  })

  it('never touches a project that has rules of its own', async () => {
    const own = [{ match: 'count' as const, block: '*', code: 'A', rate: 1 }]
    await store.saveRules('b.own', 'rules', 0, own, 'Ann')
    expect(await saveExampleTables(store, 'b.own')).toBe(false)
    expect(await store.rules('b.own', 'rules')).toMatchObject({ version: 1, savedBy: 'Ann' })
    expect(await store.rules('b.own', 'classification')).toBeUndefined()
  })

  it('is for the project of the featured drawing only, when this seeding copied it', () => {
    expect(exampleProjectOf({ seeded: true, files: [] })).toBeNull()
    expect(exampleProjectOf({ seeded: false, files: [] })).toBeNull()
    expect(
      exampleProjectOf({ seeded: true, files: [`${DEMO_HUB}/Riverside Offices/Shared/other.dwg`] }),
    ).toBeNull()
  })
})
