/**
 * Globs on names and values: `*` any run of characters, `?` one character, `\` makes the next
 * character literal; everything else is itself, case-insensitive, matching the whole value.
 * Names are not paths, so a path matcher's separators, brackets and braces would only surprise:
 * a layer `Pipe [old]` or `A/B` must match as written.
 */

export const MAX_GLOB_LENGTH = 1000

/** Answers kept per glob: a drawing has few distinct layers and blocks, and many pieces. */
const MEMO_LIMIT = 10_000

export type Glob = { source: string; test: (value: string) => boolean }

/** A glob, or the reason it cannot be one. */
export function compileGlob(source: string): Glob | { error: string } {
  if (source.length > MAX_GLOB_LENGTH)
    return { error: `'${source.slice(0, 40)}…' is longer than ${MAX_GLOB_LENGTH} characters` }
  let pattern = ''
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === '\\') {
      if (i === source.length - 1) return { error: `'${source}' ends with an escape (\\)` }
      pattern += escapeChar(source[++i])
    } else if (c === '*') pattern += '.*'
    else if (c === '?') pattern += '.'
    else pattern += escapeChar(c)
  }
  const re = new RegExp(`^${pattern}$`, 'isu')
  const memo = new Map<string, boolean>()
  const test = (value: string) => {
    let answer = memo.get(value)
    if (answer === undefined) {
      answer = re.test(value)
      if (memo.size < MEMO_LIMIT) memo.set(value, answer)
    }
    return answer
  }
  return { source, test }
}

export function isGlobError(glob: Glob | { error: string }): glob is { error: string } {
  return 'error' in glob
}

/** The RegExp syntax characters, the only ones the `u` flag lets a backslash escape. */
function escapeChar(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c
}
