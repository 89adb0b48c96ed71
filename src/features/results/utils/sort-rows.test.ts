import { describe, expect, it } from 'vitest'
import { filterRows, nextSort, type SortKey, sortRows } from './sort-rows'

describe('sortRows', () => {
  it('sorts text naturally, whatever the case: A2 before A10', () => {
    const refs = ['A10', 'b1', 'A2', 'A1', 'C1']
    expect(sortRows(refs, (ref) => ref, 'ascending')).toEqual(['A1', 'A2', 'A10', 'b1', 'C1'])
    expect(sortRows(refs, (ref) => ref, 'descending')).toEqual(['C1', 'b1', 'A10', 'A2', 'A1'])
  })

  it('sorts numbers as numbers', () => {
    expect(sortRows([10, 9, 100, 0.5], (n) => n, 'ascending')).toEqual([0.5, 9, 10, 100])
  })

  it('keeps the rows’ own order for ties, both ways', () => {
    const rows = [
      { ref: 'A1', unit: 'nr' },
      { ref: 'B1', unit: 'm' },
      { ref: 'A2', unit: 'nr' },
      { ref: 'B2', unit: 'm' },
    ]
    const refs = (direction: 'ascending' | 'descending') =>
      sortRows(rows, (row) => row.unit, direction).map((row) => row.ref)
    expect(refs('ascending')).toEqual(['B1', 'B2', 'A1', 'A2'])
    expect(refs('descending')).toEqual(['A1', 'A2', 'B1', 'B2'])
  })

  it('sorts within groups kept in their own order, whichever way: counts, lengths, areas apart', () => {
    const kinds = ['count', 'length', 'area']
    const bill = [
      { ref: 'A1', kind: 'count', quantity: 46 },
      { ref: 'A2', kind: 'count', quantity: 3 },
      { ref: 'B1', kind: 'length', quantity: 12.5 },
      { ref: 'B2', kind: 'length', quantity: 250 },
      { ref: 'C1', kind: 'area', quantity: 1.26 },
      { ref: 'C2', kind: 'area', quantity: 80 },
    ]
    const sorted = (
      direction: 'ascending' | 'descending',
      key: (line: (typeof bill)[0]) => SortKey,
    ) => sortRows(bill, key, direction, (line) => kinds.indexOf(line.kind)).map((line) => line.ref)
    expect(sorted('ascending', (line) => line.quantity)).toEqual([
      'A2',
      'A1',
      'B1',
      'B2',
      'C1',
      'C2',
    ])
    expect(sorted('descending', (line) => line.quantity)).toEqual([
      'A1',
      'A2',
      'B2',
      'B1',
      'C2',
      'C1',
    ])
    expect(sorted('descending', (line) => line.ref)).toEqual(['A2', 'A1', 'B2', 'B1', 'C2', 'C1'])
  })

  it('works each key out once', () => {
    let calls = 0
    sortRows(
      [3, 1, 2, 5, 4],
      (n) => {
        calls += 1
        return n
      },
      'ascending',
    )
    expect(calls).toBe(5)
  })
})

describe('nextSort', () => {
  it('sorts a new column ascending, and turns the sorted one round', () => {
    expect(nextSort(null, 'ref')).toEqual({ column: 'ref', direction: 'ascending' })
    const asc = nextSort(null, 'quantity')
    expect(nextSort(asc, 'quantity')).toEqual({ column: 'quantity', direction: 'descending' })
    expect(nextSort(nextSort(asc, 'quantity'), 'quantity')).toEqual(asc)
    expect(nextSort(asc, 'unit')).toEqual({ column: 'unit', direction: 'ascending' })
  })
})

describe('filterRows', () => {
  const rows = ['Linework on layer Walls', 'Door - Imperial', 'Area on layer walls 2']

  it('keeps the rows holding the filter as typed, in any case and spacing', () => {
    expect(filterRows(rows, 'WALLS', (row) => row)).toEqual([
      'Linework on layer Walls',
      'Area on layer walls 2',
    ])
    expect(filterRows(rows, '  layer   walls 2 ', (row) => row)).toEqual(['Area on layer walls 2'])
    // The words in another order are another text.
    expect(filterRows(rows, 'walls layer', (row) => row)).toEqual([])
  })

  it('keeps every row for an empty filter', () => {
    expect(filterRows(rows, '   ', (row) => row)).toEqual(rows)
  })
})
