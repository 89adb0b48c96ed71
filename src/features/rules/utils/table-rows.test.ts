import { describe, expect, it } from 'vitest'
import { nextRowId, rowErrors } from './table-rows'

describe('table rows', () => {
  it('read the server’s refusal by the rows it names', () => {
    expect(
      rowErrors("row 3: unknown match 'volume'\nrow 12: broken glob '[a'\nThe file is too big."),
    ).toEqual({ 3: "unknown match 'volume'", 12: "broken glob '[a'", 0: 'The file is too big.' })
    expect(rowErrors('Row 1: empty')).toEqual({ 1: 'empty' })
    expect(rowErrors("Row 2: code 'E' is already on row 1 (and 1 more).")).toEqual({
      2: "code 'E' is already on row 1 (and 1 more).",
    })
  })

  it('give every row an id of its own', () => {
    const first = nextRowId()
    expect(nextRowId()).toBeGreaterThan(first)
  })
})
