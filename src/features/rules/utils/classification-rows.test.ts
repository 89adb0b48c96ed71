import { describe, expect, it } from 'vitest'
import { entryError, fromEntry, newEntryRow, toEntry } from './classification-rows'

describe('classification rows', () => {
  it('send cells trimmed, and no parent for a code at the top level', () => {
    expect(toEntry(newEntryRow({ code: ' E.1 ', title: ' Points ', parent: ' E ' }))).toEqual({
      code: 'E.1',
      title: 'Points',
      parent: 'E',
    })
    expect(toEntry(newEntryRow({ code: 'E', title: 'Electrical', parent: '  ' }))).toEqual({
      code: 'E',
      title: 'Electrical',
    })
    expect(toEntry(fromEntry({ code: 'F', title: 'Finishes' }))).toEqual({
      code: 'F',
      title: 'Finishes',
    })
  })

  it('catch a row without a code or a title before the server is asked', () => {
    expect(entryError(newEntryRow())).toBe('Give the row a code.')
    expect(entryError(newEntryRow({ code: 'E', title: ' ' }))).toBe('Give the code a title.')
    expect(entryError(newEntryRow({ code: 'E', title: 'Electrical' }))).toBeNull()
  })
})
