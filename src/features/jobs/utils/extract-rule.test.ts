import { describe, expect, it } from 'vitest'
import { extensionOf, isExtractableName } from './extract-rule'

describe('Extract enabling rule', () => {
  it.each([
    ['plan.dwg', '.dwg', true],
    ['a.b.dwg', '.dwg', true],
    ['PLAN.DWG', '.DWG', false],
    ['plan.Dwg', '.Dwg', false],
    ['README', '', false],
    ['plan.dwg.pdf', '.pdf', false],
    ['.dwg', '.dwg', true],
    ['plan.dwg ', '.dwg ', false],
  ])('%s → extension %j, extractable %s', (name, extension, extractable) => {
    expect(extensionOf(name)).toBe(extension)
    expect(isExtractableName(name)).toBe(extractable)
  })
})
