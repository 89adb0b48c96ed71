import { describe, expect, it } from 'vitest'
import { clientError, fromRule, newRow, toRule } from './rule-rows'

describe('rule rows', () => {
  it('leave empty cells out of the rule sent, and read the rate as a number', () => {
    const row = newRow({ match: 'length', layer: ' Walls ', rate: '12.5', ignore: false })
    expect(toRule(row)).toEqual({ match: 'length', layer: 'Walls', rate: 12.5 })
    expect(toRule(fromRule({ match: 'count', block: 'Door*', ignore: true, rate: null }))).toEqual({
      match: 'count',
      block: 'Door*',
      ignore: true,
    })
  })

  it('catch an empty match and a rate that is not a number before the server is asked', () => {
    expect(clientError(newRow())).toBe('Choose what the row matches.')
    expect(clientError(newRow({ match: 'area', rate: 'abc' }))).toBe('The rate must be a number.')
    expect(clientError(newRow({ match: 'area', rate: '3' }))).toBeNull()
  })
})
