import { describe, expect, it } from 'vitest'
import { classificationOf, firstSegment, NO_CLASSIFICATION } from './classification.ts'

describe('classification systems', () => {
  const system = classificationOf([
    { code: 'E', title: 'Services' },
    { code: 'E.10', title: 'Plumbing', parent: 'E' },
    { code: 'E.10.20', title: 'Pipes', parent: 'E.10' },
    { code: 'B', title: 'Shell' },
  ])

  it('gives titles by code', () => {
    expect(system.titleOf('E.10')).toBe('Plumbing')
    expect(system.titleOf(' E.10.20 ')).toBe('Pipes')
    expect(system.titleOf('E.11')).toBeUndefined()
  })

  it('puts a code in the section of its top level, or of its nearest ancestor in the system', () => {
    expect(system.sectionOf('E.10.20')).toEqual({ code: 'E', title: 'Services' })
    expect(system.sectionOf('E.10.20.5')).toEqual({ code: 'E', title: 'Services' })
    expect(system.sectionOf('E.11')).toEqual({ code: 'E', title: 'Services' })
    // A prefix that is not a whole segment is not an ancestor.
    expect(system.sectionOf('Bx.1')).toEqual({ code: 'Bx', title: '' })
    expect(system.sectionOf('')).toEqual({ code: '', title: '' })
  })

  it('orders sections as the system lists them, the rest by code after', () => {
    const sections = [
      { code: 'Z', title: '' },
      { code: 'B', title: 'Shell' },
      { code: 'A', title: '' },
      { code: 'E', title: 'Services' },
    ]
    expect(sections.sort(system.compare).map((s) => s.code)).toEqual(['E', 'B', 'A', 'Z'])
  })

  it('without a system, sections by first segment in natural code order', () => {
    expect(['23.10', 'E-10', 'F 10 20', 'X'].map(firstSegment)).toEqual(['23', 'E', 'F', 'X'])
    const codes = ['10', '9', '2'].map((code) => ({ code, title: '' }))
    expect(codes.sort(NO_CLASSIFICATION.compare).map((s) => s.code)).toEqual(['2', '9', '10'])
  })
})
