import { describe, expect, it } from 'vitest'
import { billLine } from '#contract/testing/boq.ts'
import { initialResultState, type ResultState, resultReducer } from './result-state'
import { indexHandles } from './selection'

const lines = [
  billLine({ ref: 'A1', breakdown: [{ handles: ['1F'] }] }),
  billLine({ ref: 'A2', breakdown: [{ handles: ['1F', '20'] }] }),
]
const index = indexHandles(lines)
const everyLine = new Set(['A1', 'A2'])

describe('resultReducer', () => {
  it('selects a line or a row, and unselects it on a second click', () => {
    let state = resultReducer(initialResultState, {
      type: 'select',
      selection: { ref: 'A2', row: null },
    })
    expect(state.selection).toEqual({ ref: 'A2', row: null })
    state = resultReducer(state, { type: 'select', selection: { ref: 'A2', row: 0 } })
    expect(state.selection).toEqual({ ref: 'A2', row: 0 })
    state = resultReducer(state, { type: 'select', selection: { ref: 'A2', row: 0 } })
    expect(state.selection).toBeNull()
  })

  it('opens and closes a line', () => {
    const open = resultReducer(initialResultState, { type: 'toggle', ref: 'A1' })
    expect([...open.expanded]).toEqual(['A1'])
    expect([...resultReducer(open, { type: 'toggle', ref: 'A1' }).expanded]).toEqual([])
  })

  it('sorts each tab on its own', () => {
    let state = resultReducer(initialResultState, { type: 'sort', tab: 'bill', column: 'quantity' })
    state = resultReducer(state, { type: 'sort', tab: 'bill', column: 'quantity' })
    state = resultReducer(state, { type: 'sort', tab: 'lengths', column: 'layer' })
    expect(state.sorts).toEqual({
      bill: { column: 'quantity', direction: 'descending' },
      lengths: { column: 'layer', direction: 'ascending' },
    })
  })

  it('a pick selects the line naming the entity, on the Bill tab, and asks to scroll to it', () => {
    const onLengths: ResultState = { ...initialResultState, tab: 'lengths', filter: 'A' }
    const picked = resultReducer(onLengths, { type: 'pick', handle: '20', index, shown: everyLine })
    expect(picked.selection).toEqual({ ref: 'A2', row: null })
    expect(picked.tab).toBe('bill')
    expect(picked.filter).toBe('A')
    expect(picked.reveal).toEqual({ ref: 'A2', count: 1 })
    // The same pick again scrolls again.
    const again = resultReducer(picked, { type: 'pick', handle: '20', index, shown: everyLine })
    expect(again.reveal).toEqual({ ref: 'A2', count: 2 })
  })

  it('a pick of a line shown under a closed group opens the group, and leaves an open one open', () => {
    const groupOf = (ref: string) => (ref === 'A2' ? 'group:Pasted blocks' : undefined)
    const pick = { type: 'pick', handle: '20', index, shown: everyLine, groupOf } as const
    const picked = resultReducer(initialResultState, pick)
    expect([...picked.expanded]).toEqual(['group:Pasted blocks'])
    expect(resultReducer(picked, pick).expanded).toBe(picked.expanded)
  })

  it('a pick of an entity two lines name goes from one to the other', () => {
    const first = resultReducer(initialResultState, {
      type: 'pick',
      handle: '1F',
      index,
      shown: everyLine,
    })
    expect(first.selection?.ref).toBe('A1')
    const second = resultReducer(first, { type: 'pick', handle: '1F', index, shown: everyLine })
    expect(second.selection?.ref).toBe('A2')
  })

  it('a pick of a line the filter hides clears the filter', () => {
    const filtered: ResultState = { ...initialResultState, filter: 'A1' }
    const picked = resultReducer(filtered, {
      type: 'pick',
      handle: '20',
      index,
      shown: new Set(['A1']),
    })
    expect(picked.selection).toEqual({ ref: 'A2', row: null })
    expect(picked.filter).toBe('')
  })

  it('a pick the bill does not name keeps the selection and says so', () => {
    const selected = resultReducer(initialResultState, {
      type: 'select',
      selection: { ref: 'A1', row: null },
    })
    const picked = resultReducer(selected, { type: 'pick', handle: 'ABC', index, shown: everyLine })
    expect(picked.selection).toEqual({ ref: 'A1', row: null })
    expect(picked.note).toBe('No line of the bill names entity ABC.')
    expect(picked.reveal).toBeNull()
  })
})
