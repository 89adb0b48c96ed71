import { describe, expect, it } from 'vitest'
import { compileGlob, type Glob, isGlobError, MAX_GLOB_LENGTH } from './glob.ts'

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

  it('answer hostile globs of the longest length at once, rightly', () => {
    const stars = '*'.repeat(MAX_GLOB_LENGTH)
    expect(glob(stars).test('x'.repeat(100_000))).toBe(true)
    expect(glob(`${'*'.repeat(40)}z`).test('a'.repeat(100_000))).toBe(false)
    expect(glob(`${'*'.repeat(998)}z`).test(`${'a'.repeat(100_000)}z`)).toBe(true)
    const manyA = '*a'.repeat(MAX_GLOB_LENGTH / 2)
    expect(glob(manyA).test('a'.repeat(499))).toBe(false)
    expect(glob(manyA).test('ab'.repeat(500))).toBe(false)
    expect(glob(manyA).test('ba'.repeat(500))).toBe(true)
    expect(glob(`${'*a'.repeat(499)}*b`).test('a'.repeat(100_000))).toBe(false)
    expect(glob(`${'*a'.repeat(499)}*b`).test(`${'a'.repeat(499)}b`)).toBe(true)
    const manyAny = '?*'.repeat(MAX_GLOB_LENGTH / 2)
    expect(glob(manyAny).test('x'.repeat(499))).toBe(false)
    expect(glob(manyAny).test('x'.repeat(100_000))).toBe(true)
    const spread = `*${'a?'.repeat(249)}*${'b?'.repeat(249)}*`
    expect(glob(spread).test('a'.repeat(100_000))).toBe(false)
    expect(glob(spread).test(`${'ax'.repeat(249)}${'by'.repeat(249)}`)).toBe(true)
  })

  it('answer as the regular expression they stand for, on many random globs and values', () => {
    const random = seeded(37)
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]
    const globParts = ['a', 'b', 'B', '*', '*', '?', '\\*', '\\?', 'é', '😀', '.']
    const valueChars = ['a', 'b', 'B', '*', '?', 'é', '😀', '.', '\n']
    for (let n = 0; n < 20_000; n++) {
      const source = Array.from({ length: Math.floor(random() * 9) }, () => pick(globParts)).join(
        '',
      )
      const value = Array.from({ length: Math.floor(random() * 11) }, () => pick(valueChars)).join(
        '',
      )
      expect(glob(source).test(value), `${source} on ${JSON.stringify(value)}`).toBe(
        reference(source).test(value.toLowerCase()),
      )
    }
  })

  it('answer as the regular expression on long stretches of text and ? between a few stars', () => {
    const random = seeded(2)
    const stretch = () =>
      Array.from({ length: Math.floor(random() * 80) }, () => (random() < 0.3 ? '?' : 'a')).join('')
    for (let n = 0; n < 2_000; n++) {
      const source = Array.from({ length: 1 + Math.floor(random() * 4) }, stretch).join('*')
      const value = Array.from({ length: Math.floor(random() * 240) }, () =>
        random() < 0.97 ? 'a' : 'b',
      ).join('')
      expect(glob(source).test(value), `${source} on ${value}`).toBe(reference(source).test(value))
    }
  })
})

/** What globs meant when each was a regular expression (short ones only: it backtracks). */
function reference(source: string): RegExp {
  let pattern = ''
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === '\\') pattern += escapeRegExp(source[++i].toLowerCase())
    else if (c === '*') pattern += '.*'
    else if (c === '?') pattern += '.'
    else pattern += escapeRegExp(c.toLowerCase())
  }
  return new RegExp(`^${pattern}$`, 'su')
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}

/** A small repeatable random source (mulberry32), so a failure can be run again. */
function seeded(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
