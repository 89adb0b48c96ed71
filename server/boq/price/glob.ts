/**
 * Globs on names and values: `*` any run of characters, `?` one character, `\` makes the next
 * character literal; everything else is itself, matching the whole value, case aside (both
 * sides compared in lower case). Names are not paths, so a path matcher's separators, brackets
 * and braces would only surprise: a layer `Pipe [old]` or `A/B` must match as written.
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

type Part = { literal: string } | { any: true } | { one: true }

/** A glob, or the reason it cannot be one. */
export function compileGlob(source: string): Glob | { error: string } {
  if (source.length > MAX_GLOB_LENGTH)
    return { error: `'${source.slice(0, 40)}…' is longer than ${MAX_GLOB_LENGTH} characters` }
  const parts: Part[] = []
  let literal = ''
  const flush = () => {
    if (literal) parts.push({ literal: lower(literal) })
    literal = ''
  }
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === '\\') {
      if (i === source.length - 1) return { error: `'${source}' ends with an escape (\\)` }
      literal += source[++i]
    } else if (c === '*' || c === '?') {
      flush()
      parts.push(c === '*' ? { any: true } : { one: true })
    } else literal += c
  }
  flush()
  const testLower = matcher(parts)
  const prefix = parts[0] && 'literal' in parts[0] ? parts[0].literal : ''
  return { source, testLower, test: (value) => testLower(lower(value)), prefix }
}

export function isGlobError(glob: Glob | { error: string }): glob is { error: string } {
  return 'error' in glob
}

/** Most filters are a name, a prefix, a suffix or a part: plain string tests, no RegExp. */
function matcher(parts: Part[]): (value: string) => boolean {
  const text = (part: Part | undefined) => (part && 'literal' in part ? part.literal : null)
  const any = (part: Part | undefined) => part !== undefined && 'any' in part
  if (parts.length === 0) return (value) => value === ''
  const [a, b, c] = parts
  if (parts.length === 1) {
    const only = text(a)
    if (only !== null) return (value) => value === only
    if (any(a)) return () => true
  }
  if (parts.length === 2) {
    const [head, tail] = [text(a), text(b)]
    if (head !== null && any(b)) return (value) => value.startsWith(head)
    if (any(a) && tail !== null) return (value) => value.endsWith(tail)
  }
  if (parts.length === 3 && any(a) && any(c)) {
    const middle = text(b)
    if (middle !== null) return (value) => value.includes(middle)
  }
  const pattern = parts
    .map((part) => ('literal' in part ? escapeRegExp(part.literal) : 'any' in part ? '.*' : '.'))
    .join('')
  const re = new RegExp(`^${pattern}$`, 'su')
  return (value) => re.test(value)
}

/** The RegExp syntax characters, the only ones the `u` flag lets a backslash escape. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
