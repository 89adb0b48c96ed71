import { describe, expect, it } from 'vitest'
import { billLine } from '#contract/testing/boq.ts'
import { handlesOf, indexHandles, lineOfHandle } from './selection'

// A reference (1F) of block "desk" holding a nested "lamp": both lines name it.
const lines = [
  billLine({
    ref: 'A1',
    description: 'desk',
    breakdown: [
      { label: 'layer 0', handles: ['1F', '20'] },
      { label: 'layer Furniture', handles: ['21'] },
    ],
  }),
  billLine({ ref: 'A2', description: 'lamp', breakdown: [{ label: 'layer 0', handles: ['1F'] }] }),
  billLine({
    ref: 'B1',
    kind: 'length',
    description: 'Linework on layer 0',
    breakdown: [
      { label: 'lines', handles: ['30', '31'] },
      { label: 'arcs', handles: ['32'] },
    ],
  }),
]

describe('handlesOf', () => {
  it("gives a line's handles: every breakdown row's, in bill order", () => {
    expect(handlesOf(lines, { ref: 'A1', row: null })).toEqual(['1F', '20', '21'])
    expect(handlesOf(lines, { ref: 'B1', row: null })).toEqual(['30', '31', '32'])
  })

  it("gives a breakdown row's own handles", () => {
    expect(handlesOf(lines, { ref: 'A1', row: 1 })).toEqual(['21'])
    expect(handlesOf(lines, { ref: 'B1', row: 0 })).toEqual(['30', '31'])
  })

  it('names each handle once', () => {
    const twice = [billLine({ breakdown: [{ handles: ['1', '2'] }, { handles: ['2', '3'] }] })]
    expect(handlesOf(twice, { ref: 'A1', row: null })).toEqual(['1', '2', '3'])
  })

  it('is empty for no selection, an unknown line or an unknown row', () => {
    expect(handlesOf(lines, null)).toEqual([])
    expect(handlesOf(lines, { ref: 'Z9', row: null })).toEqual([])
    expect(handlesOf(lines, { ref: 'A1', row: 5 })).toEqual([])
  })
})

describe('lineOfHandle', () => {
  const index = indexHandles(lines)

  it('finds the line whose breakdown holds the handle', () => {
    expect(lineOfHandle(index, '21')).toBe('A1')
    expect(lineOfHandle(index, '32')).toBe('B1')
  })

  it('is null for a handle no line names', () => {
    expect(lineOfHandle(index, 'FFFF')).toBeNull()
  })

  it('moves on to the next line naming the handle when one of them is selected, round', () => {
    expect(lineOfHandle(index, '1F')).toBe('A1')
    expect(lineOfHandle(index, '1F', 'A1')).toBe('A2')
    expect(lineOfHandle(index, '1F', 'A2')).toBe('A1')
    // Another line selected: the first that names it.
    expect(lineOfHandle(index, '1F', 'B1')).toBe('A1')
  })

  it('lists a line once per handle, however many of its rows name it', () => {
    const index = indexHandles([
      billLine({ ref: 'A1', breakdown: [{ handles: ['7'] }, { handles: ['7'] }] }),
    ])
    expect(index.get('7')).toEqual(['A1'])
  })

  it('maps back: every handle of a selected line finds that line', () => {
    for (const line of lines) {
      for (const handle of handlesOf(lines, { ref: line.ref, row: null })) {
        const refs = index.get(handle) ?? []
        expect(refs).toContain(line.ref)
      }
    }
  })
})
