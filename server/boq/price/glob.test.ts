import { describe, expect, it } from 'vitest'
import { compileGlob, type Glob, isGlobError } from './glob.ts'

function glob(source: string): Glob {
  const compiled = compileGlob(source)
  if (isGlobError(compiled)) throw new Error(compiled.error)
  return compiled
}

describe('globs', () => {
  it('match the whole value, case-insensitively', () => {
    expect(glob('Walls').test('WALLS')).toBe(true)
    expect(glob('Walls').test('Walls 2')).toBe(false)
    expect(glob('Wall').test('Walls')).toBe(false)
    expect(glob('ÄUSSERE').test('äussere')).toBe(true)
  })

  it('take * as any run and ? as one character', () => {
    expect(glob('Sprinkler*').test('Sprinkler Pipe')).toBe(true)
    expect(glob('Sprinkler*').test('Sprinkler')).toBe(true)
    expect(glob('*Pipe*').test('Sprinkler Pipe 2')).toBe(true)
    expect(glob('D?').test('D1')).toBe(true)
    expect(glob('D?').test('D12')).toBe(false)
    expect(glob('*').test('')).toBe(true)
    expect(glob('?').test('é')).toBe(true)
    expect(glob('*').test('two\nlines')).toBe(true)
  })

  it('take everything else literally, paths and brackets included', () => {
    expect(glob('Pipe [old]').test('pipe [old]')).toBe(true)
    expect(glob('Pipe [old]').test('Pipe o')).toBe(false)
    expect(glob('A/B').test('a/b')).toBe(true)
    expect(glob('a.b').test('axb')).toBe(false)
    expect(glob('{a,b}').test('{A,B}')).toBe(true)
    expect(glob('(x)+$^|-').test('(X)+$^|-')).toBe(true)
  })

  it('escape * and ? with a backslash', () => {
    expect(glob('\\*U12').test('*U12')).toBe(true)
    expect(glob('\\*U12').test('XU12')).toBe(false)
    expect(glob('why\\?').test('why?')).toBe(true)
    expect(glob('a\\\\b').test('a\\b')).toBe(true)
  })

  it('say why a glob is broken', () => {
    expect(compileGlob('abc\\')).toEqual({ error: "'abc\\' ends with an escape (\\)" })
    expect(isGlobError(compileGlob('x'.repeat(1001)))).toBe(true)
  })

  it('answer alike by every way of testing', () => {
    const cases: [string, string, boolean][] = [
      ['', '', true],
      ['', 'x', false],
      ['L*', 'layer', true],
      ['*er', 'LAYER', true],
      ['*ay*', 'Layer', true],
      ['*ay*', 'Lxyer', false],
      ['L*r', 'Layer', true],
      ['L*r', 'Layers', false],
      ['**', '', true],
      ['a*b*c', 'aXbYc', true],
      ['?*', '', false],
    ]
    for (const [source, value, answer] of cases) {
      expect(glob(source).test(value), `${source} on ${value}`).toBe(answer)
      expect(glob(source).testLower(value.toLowerCase())).toBe(answer)
    }
  })
})
