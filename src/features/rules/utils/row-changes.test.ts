import { describe, expect, it } from 'vitest'
import { rowChanges } from './row-changes'

const rows = (...names: string[]) => names.map((name) => [name, '1'])

describe('row changes', () => {
  it('are none between equal tables', () => {
    expect(rowChanges(rows('a', 'b'), rows('a', 'b'))).toEqual([])
    expect(rowChanges([], [])).toEqual([])
  })

  it('tell a row put in between as one added row, not every row below it changed', () => {
    expect(rowChanges(rows('a', 'b', 'c'), rows('a', 'x', 'b', 'c'))).toEqual([
      { kind: 'added', row: 2, cells: ['x', '1'] },
    ])
    expect(rowChanges(rows('a', 'b', 'c'), rows('a', 'c'))).toEqual([
      { kind: 'removed', row: 2, cells: ['b', '1'] },
    ])
  })

  it('tell a row edited in place by its cells, numbered in the new table', () => {
    const before = [
      ['count', 'Door*', '450'],
      ['length', 'Walls', '95'],
      ['area', 'Floor', '40'],
    ]
    const after = [
      ['count', 'Window*', '600'],
      ['count', 'Door*', '450'],
      ['length', 'Walls', '100'],
      ['area', 'Floor', '40'],
    ]
    expect(rowChanges(before, after)).toEqual([
      { kind: 'added', row: 1, cells: ['count', 'Window*', '600'] },
      { kind: 'changed', row: 3, cells: [{ column: 2, before: '95', after: '100' }] },
    ])
  })

  it('pair what differs by position past the size it searches', () => {
    const before = Array.from({ length: 600 }, (_, i) => [`r${i}`])
    const after = before.map(([name]) => [`${name}!`])
    const changes = rowChanges(before, after)
    expect(changes).toHaveLength(600)
    expect(changes[0]).toEqual({
      kind: 'changed',
      row: 1,
      cells: [{ column: 0, before: 'r0', after: 'r0!' }],
    })
  })
})
