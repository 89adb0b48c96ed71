import { describe, expect, it } from 'vitest'
import { billGroups, groupDescription, groupsOf, isPastedBlock, withGroups } from './bill-groups.ts'
import type { BillLine } from './boq.ts'

const count = (ref: string, block: string, quantity: number): BillLine => ({
  ref,
  kind: 'count',
  description: block,
  quantity,
  unit: 'nr',
  block,
  breakdown: [],
})

const lines = [
  count('A1', 'A$C00294823', 2),
  count('A2', 'Chair', 4),
  count('A3', 'A$C1F2E', 1),
  count('A4', 'a$c0ff', 3),
]

describe('bill groups', () => {
  it('tells pasted blocks by AutoCAD’s name for them, and nothing else', () => {
    expect(['A$C00294823', 'a$c0ff', 'A$C1F2E'].every(isPastedBlock)).toBe(true)
    expect(['A$C', 'A$CXYZ', 'Chair', 'XA$C12', 'A$C12 copy'].some(isPastedBlock)).toBe(false)
  })

  it('groups the pasted blocks’ lines under one line that names how many kinds and placed', () => {
    expect(billGroups(lines)).toEqual([
      {
        name: 'Pasted blocks',
        description: 'Pasted blocks (3 kinds, 6 placed)',
        kind: 'count',
        lines: ['A1', 'A3', 'A4'],
        quantity: 6,
        unit: 'nr',
      },
    ])
    // One pasted block is a line like any other.
    expect(billGroups(lines.slice(0, 2))).toEqual([])
    expect(groupDescription('Pasted blocks', 1, 1_200)).toBe('Pasted blocks (1 kind, 1,200 placed)')
  })

  it('a bill kept before groups gets them from its lines; a bill’s own are kept', () => {
    expect(groupsOf({ bill: lines })).toHaveLength(1)
    expect(groupsOf({ bill: lines, groups: [] })).toEqual([])
  })

  it('puts a group’s rows together where its first row is, each row once', () => {
    const groups = billGroups(lines)
    const entries = withGroups(lines, groups, (line) => line.ref)
    expect(
      entries.map((e) => ('group' in e ? e.rows.map((r) => r.ref).join('+') : e.row.ref)),
    ).toEqual(['A1+A3+A4', 'A2'])
    // A group with one row shown (a filter) is that row.
    const one = withGroups([lines[1], lines[2]] as BillLine[], groups, (line) => line.ref)
    expect(one).toEqual([{ row: lines[1] }, { row: lines[2] }])
  })
})
