import { describe, expect, it } from 'vitest'
import type { ClassificationEntry, TakeoffRule } from '#contract/takeoff-rules.ts'
import { readClassification, readRules } from '../boq/price/read.ts'
import { tableCsv, tableXlsx } from './rules-export.ts'

const rules: TakeoffRule[] = [
  {
    match: 'length',
    layer: 'WALL*',
    code: 'A.1',
    description: '- walls, both faces',
    unit: 'm',
    quantity: '+length*2',
    rate: -3.5,
  },
  // A formula cell cannot hold `=…` (not a formula the rules take), but a description can.
  { match: 'length', layer: 'RAIL', code: 'A.2', description: '=length*2', quantity: '-length' },
  { match: 'count', block: '@door', code: 'B.1', description: "'quoted' doors", unit: 'nr' },
  { match: 'area', layer: '+slab', ignore: true },
]

describe('exporting a rules table', () => {
  it('writes no cell a spreadsheet would run as a formula, and reads back as the same rules', async () => {
    const text = new TextDecoder().decode(tableCsv('rules', rules))
    const cells = text.split('\r\n').slice(1).join(',').split(',')
    expect(cells.filter((cell) => /^["]?[=+\-@]/.test(cell) && cell !== '-3.5')).toEqual([])
    expect(text).toContain("'=length*2")
    expect(text).toContain("'- walls")
    expect(text).toContain("'+length*2")
    expect(await readRules(tableCsv('rules', rules), 'csv')).toEqual(rules)
    expect(await readRules(await tableXlsx('rules', rules), 'xlsx')).toEqual(rules)
  })

  it('guards and reads back a classification the same way', async () => {
    const entries: ClassificationEntry[] = [
      { code: '=A', title: '-Walls' },
      { code: '=A.1', title: '@ring', parent: '=A' },
    ]
    expect(await readClassification(tableCsv('classification', entries), 'csv')).toEqual(entries)
  })
})
