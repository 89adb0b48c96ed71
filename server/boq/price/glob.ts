import { quoted } from './errors.ts'

/**
 * Globs on names and values: `*` any run of characters, `?` one character, `\` makes the next
 * character literal; everything else is itself, matching the whole value, case aside (both
 * sides compared in lower case). Names are not paths, so a path matcher's separators, brackets
 * and braces would only surprise: a layer `Pipe [old]` or `A/B` must match as written.
 *
 * No regular expression is built from a glob: one with many stars backtracks for ever. Runs of
 * stars are one star, and the stretches between stars are found leftmost first, which is right
 * for `*` and `?` (a stretch found earlier leaves more room for the rest) and never goes back:
 * a test costs at most the value's length times the longest stretch ÷ 32.
 */

export const MAX_GLOB_LENGTH = 1000

export type Glob = {
  source: string
  test: (value: string) => boolean
  /** The same test on a value already in lower case (pieces keep theirs so). */
  testLower: (lower: string) => boolean
  /** What every value it takes starts with, in lower case ('' when it starts with a wildcard). */
  prefix: string
}

/** A value as globs compare it. */
export function lower(value: string): string {
  return value.toLowerCase()
}

/** Text to be itself, or `?`: one character (one code point, as a person counts them). */
type Token = string | typeof ONE
const ONE = Symbol('?')

/** Tokens between two stars (or an end): a literal and `?`s, of a fixed number of characters. */
type Stretch = Token[]

/** A glob, or the reason it cannot be one. */
export function compileGlob(source: string): Glob | { error: string } {
  if (source.length > MAX_GLOB_LENGTH)
    return { error: `${quoted(source)} is longer than ${MAX_GLOB_LENGTH} characters` }
  // The stretches between stars, in order; a run of stars is one cut.
  const stretches: Stretch[] = [[]]
  let literal = ''
  let starBefore = false
  const flush = () => {
    if (literal) stretches[stretches.length - 1].push(lower(literal))
    literal = ''
  }
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === '*') {
      flush()
      if (!starBefore) stretches.push([])
      starBefore = true
      continue
    }
    starBefore = false
    if (c === '\\') {
      if (i === source.length - 1) return { error: `${quoted(source)} ends with an escape (\\)` }
      literal += source[++i]
    } else if (c === '?') {
      flush()
      stretches[stretches.length - 1].push(ONE)
    } else literal += c
  }
  flush()
  const testLower = matcher(stretches)
  const first = stretches[0][0]
  const prefix = typeof first === 'string' ? first : ''
  return { source, testLower, test: (value) => testLower(lower(value)), prefix }
}

export function isGlobError(glob: Glob | { error: string }): glob is { error: string } {
  return 'error' in glob
}

/** Most filters are a name, a prefix, a suffix or a part: plain string tests. */
function matcher(stretches: Stretch[]): (value: string) => boolean {
  const literalOf = (stretch: Stretch): string | null =>
    stretch.length === 0
      ? ''
      : stretch.length === 1 && typeof stretch[0] === 'string'
        ? stretch[0]
        : null
  const literals = stretches.map(literalOf)
  if (literals.every((text) => text !== null)) {
    const [a, b, c] = literals as string[]
    if (stretches.length === 1) return (value) => value === a
    if (stretches.length === 2) {
      if (b === '') return (value) => value.startsWith(a)
      if (a === '') return (value) => value.endsWith(b)
    }
    if (stretches.length === 3 && a === '' && c === '') return (value) => value.includes(b)
  }
  const least = stretches.reduce((sum, stretch) => sum + unitsAtLeast(stretch), 0)
  if (stretches.length === 1) {
    const [only] = stretches
    return (value) => value.length >= least && matchAt(value, 0, only) === value.length
  }
  const head = stretches[0]
  const tail = stretches[stretches.length - 1]
  const middle = stretches
    .slice(1, -1)
    .filter((stretch) => stretch.length > 0)
    .map(compileStretch)
  return (value) => {
    if (value.length < least) return false
    const from = matchAt(value, 0, head)
    if (from < 0) return false
    const to = matchBefore(value, value.length, tail)
    if (to < from) return false
    let at = from
    for (const stretch of middle) {
      at = findFrom(value, at, to, stretch)
      if (at < 0) return false
    }
    return true
  }
}

/** The fewest UTF-16 units a stretch can take: its literals, and one per `?`. */
function unitsAtLeast(stretch: Stretch): number {
  return stretch.reduce((sum, token) => sum + (token === ONE ? 1 : token.length), 0)
}

/** Where one character (a code point) starting at `at` ends. */
function nextChar(value: string, at: number): number {
  const code = value.charCodeAt(at)
  if (code >= 0xd800 && code <= 0xdbff && at + 1 < value.length) {
    const low = value.charCodeAt(at + 1)
    if (low >= 0xdc00 && low <= 0xdfff) return at + 2
  }
  return at + 1
}

/** Where one character ending at `end` starts. */
function previousChar(value: string, end: number): number {
  const code = value.charCodeAt(end - 1)
  if (code >= 0xdc00 && code <= 0xdfff && end >= 2) {
    const high = value.charCodeAt(end - 2)
    if (high >= 0xd800 && high <= 0xdbff) return end - 2
  }
  return end - 1
}

/** Where the stretch ends when it matches at `at`, or -1. */
function matchAt(value: string, at: number, stretch: Stretch): number {
  let i = at
  for (const token of stretch) {
    if (token === ONE) {
      if (i >= value.length) return -1
      i = nextChar(value, i)
    } else {
      if (!value.startsWith(token, i)) return -1
      i += token.length
    }
  }
  return i
}

/** Where the stretch starts when it matches ending at `end`, or -1. */
function matchBefore(value: string, end: number, stretch: Stretch): number {
  let i = end
  for (let t = stretch.length - 1; t >= 0; t--) {
    const token = stretch[t]
    if (token === ONE) {
      if (i <= 0) return -1
      i = previousChar(value, i)
    } else {
      if (i < token.length || !value.endsWith(token, i)) return -1
      i -= token.length
    }
  }
  return i
}

/**
 * The end of the stretch's leftmost match starting at `from` or later and ending by `to`, or
 * -1. Text alone is found by indexOf; text with `?`s by Shift-And: one bit per character of the
 * stretch, all moved along once per character of the value, so nothing is ever tried twice.
 */
function findFrom(value: string, from: number, to: number, stretch: CompiledStretch): number {
  if (stretch.text !== null) {
    const at = value.indexOf(stretch.text, from)
    return at < 0 || at + stretch.text.length > to ? -1 : at + stretch.text.length
  }
  const { masks, others, words, last } = stretch
  const state = new Uint32Array(words)
  for (let i = from; i < to; ) {
    const code = value.codePointAt(i) as number
    const mask = masks.get(code) ?? others
    let carry = 1
    for (let w = 0; w < words; w++) {
      const next = state[w] >>> 31
      state[w] = ((state[w] << 1) | carry) & mask[w]
      carry = next
    }
    i += code > 0xffff ? 2 : 1
    if (state[words - 1] & last) return i <= to ? i : -1
  }
  return -1
}

/** A stretch between stars made ready for findFrom. */
type CompiledStretch =
  | { text: string }
  | {
      text: null
      /** Per character of the stretch, the places (bits) it may stand at; `?` stands anywhere. */
      masks: Map<number, Uint32Array>
      /** The places any other character may stand at: the `?`s. */
      others: Uint32Array
      words: number
      /** The bit of the stretch's last place, in the last word. */
      last: number
    }

function compileStretch(stretch: Stretch): CompiledStretch {
  if (stretch.every((token) => token !== ONE)) return { text: stretch.join('') }
  const places: (number | null)[] = []
  for (const token of stretch)
    if (token === ONE) places.push(null)
    else for (const char of token) places.push(char.codePointAt(0) as number)
  const words = Math.ceil(places.length / 32)
  const others = new Uint32Array(words)
  const masks = new Map<number, Uint32Array>()
  places.forEach((code, place) => {
    const bit = 1 << (place % 32)
    if (code === null) others[place >> 5] |= bit
    else {
      const mask = masks.get(code) ?? new Uint32Array(words)
      mask[place >> 5] |= bit
      masks.set(code, mask)
    }
  })
  for (const mask of masks.values()) for (let w = 0; w < words; w++) mask[w] |= others[w]
  return { text: null, masks, others, words, last: 1 << ((places.length - 1) % 32) }
}
