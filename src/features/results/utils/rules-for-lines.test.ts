import { describe, expect, it } from 'vitest'
import { billGroups } from '#contract/bill-groups.ts'
import type { NotClassified } from '#contract/takeoff-rules.ts'
import { pastedBlocksBoq } from '#contract/testing/boq.ts'
import { notClassifiedLine } from '../../../testing/fixtures'
import { ruleForLine, rulesForLines } from './rules-for-lines'

const arcs = notClassifiedLine({ line: 'B1', description: 'Arcs on layer Tavolo 2', kind: 'arc' })
const polylines = notClassifiedLine({
  line: 'B2',
  description: 'Polylines on layer Tavolo 2',
  kind: 'polyline',
})
const splines = notClassifiedLine({
  line: 'B3',
  description: 'Splines on layer Tavolo 2',
  kind: 'spline',
})
const walls = notClassifiedLine({
  line: 'B4',
  description: 'Lines on layer Walls',
  layer: 'Walls',
  kind: 'line',
})
const door = notClassifiedLine({
  line: 'A1',
  match: 'count',
  description: 'Door',
  block: 'Door',
  layer: 'Doors',
  kind: undefined,
  unit: 'nr',
})
const window = { ...door, line: 'A2', description: 'Window', block: 'Window' }

describe('rules for not-classified lines', () => {
  it('a line alone: its block, or its layer and kind, and its words', () => {
    expect(ruleForLine(door)).toEqual({ match: 'count', block: 'Door', description: 'Door' })
    expect(ruleForLine(arcs)).toEqual({
      match: 'length',
      layer: 'Tavolo 2',
      kind: 'arc',
      description: 'Arcs on layer Tavolo 2',
    })
  })

  it('lines of one layer are one rule of their kinds; other layers and each block a rule of their own', () => {
    expect(rulesForLines([arcs, door, polylines, walls, splines, window])).toEqual([
      {
        match: 'length',
        layer: 'Tavolo 2',
        kind: 'arc,polyline,spline',
        description: 'Arcs, polylines and splines on layer Tavolo 2',
      },
      { match: 'count', block: 'Door', description: 'Door' },
      { match: 'length', layer: 'Walls', kind: 'line', description: 'Lines on layer Walls' },
      { match: 'count', block: 'Window', description: 'Window' },
    ])
  })

  it('a group whose every line is selected is one rule; some of its lines, a rule each', () => {
    const boq = pastedBlocksBoq(3)
    const [group] = billGroups(boq.bill)
    const pasted: NotClassified[] = (group?.lines ?? []).map((ref) => {
      const line = boq.bill.find((l) => l.ref === ref)
      return { ...door, line: ref, block: line?.block, description: line?.description ?? '' }
    })
    const groupOf = (line: NotClassified) => (group?.lines.includes(line.line) ? group : undefined)
    expect(rulesForLines([door, ...pasted], group ? [group] : [], groupOf)).toEqual([
      { match: 'count', block: 'Door', description: 'Door' },
      { match: 'count', block: 'A$C*', description: 'Pasted blocks' },
    ])
    expect(rulesForLines(pasted.slice(0, 2), [], groupOf).map((rule) => rule.block)).toEqual([
      'A$C00294820',
      'A$C00294821',
    ])
  })
})
