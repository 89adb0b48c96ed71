/** One cell that differs between two versions of a row: its column, and its text before and after. */
export type CellChange = { column: number; before: string; after: string }

/**
 * What turns one table into another, row by row: a row added (numbered in the new table), removed
 * (numbered in the old one), or changed in place (numbered in the new one, with its cells).
 */
export type RowChange =
  | { kind: 'added'; row: number; cells: string[] }
  | { kind: 'removed'; row: number; cells: string[] }
  | { kind: 'changed'; row: number; cells: CellChange[] }

/** Past this many rows × rows in the part that differs, rows are paired by position instead. */
const MATCHED_CELLS_LIMIT = 250_000

/**
 * The changes from `before` to `after` (rows as their cells' texts, in the same columns), in the
 * new table's order. Rows equal in both are matched, so that a row put in between shows as one
 * added row rather than every row below it changed; what is left between matched rows is paired
 * in order as changed, the surplus added or removed.
 */
export function rowChanges(before: string[][], after: string[][]): RowChange[] {
  const keysBefore = before.map(rowKey)
  const keysAfter = after.map(rowKey)
  let start = 0
  while (start < before.length && start < after.length && keysBefore[start] === keysAfter[start]) {
    start += 1
  }
  let endBefore = before.length
  let endAfter = after.length
  while (
    endBefore > start &&
    endAfter > start &&
    keysBefore[endBefore - 1] === keysAfter[endAfter - 1]
  ) {
    endBefore -= 1
    endAfter -= 1
  }
  const pairs = matchedRows(keysBefore, keysAfter, start, endBefore, endAfter)
  const changes: RowChange[] = []
  let i = start
  let j = start
  for (const [matchedBefore, matchedAfter] of [...pairs, [endBefore, endAfter] as const]) {
    changes.push(...between(before, after, i, matchedBefore, j, matchedAfter))
    i = matchedBefore + 1
    j = matchedAfter + 1
  }
  return changes
}

/** The changes between matched rows: `before[i, iEnd)` replaced by `after[j, jEnd)`. */
function between(
  before: string[][],
  after: string[][],
  i: number,
  iEnd: number,
  j: number,
  jEnd: number,
): RowChange[] {
  const changes: RowChange[] = []
  const paired = Math.min(iEnd - i, jEnd - j)
  for (let k = 0; k < paired; k += 1) {
    const old = before[i + k] ?? []
    const now = after[j + k] ?? []
    const cells: CellChange[] = []
    for (let column = 0; column < Math.max(old.length, now.length); column += 1) {
      const was = old[column] ?? ''
      const is = now[column] ?? ''
      if (was !== is) cells.push({ column, before: was, after: is })
    }
    changes.push({ kind: 'changed', row: j + k + 1, cells })
  }
  for (let k = i + paired; k < iEnd; k += 1) {
    changes.push({ kind: 'removed', row: k + 1, cells: before[k] ?? [] })
  }
  for (let k = j + paired; k < jEnd; k += 1) {
    changes.push({ kind: 'added', row: k + 1, cells: after[k] ?? [] })
  }
  return changes
}

/**
 * Pairs of equal rows (index before, index after) in the parts that differ, in order: the longest
 * common run of rows, when the parts are small enough to search; else none (paired by position).
 */
function matchedRows(
  before: string[],
  after: string[],
  start: number,
  endBefore: number,
  endAfter: number,
): (readonly [number, number])[] {
  const n = endBefore - start
  const m = endAfter - start
  if (n === 0 || m === 0 || n * m > MATCHED_CELLS_LIMIT) return []
  // lengths[a * (m + 1) + b]: the longest common run of before[start + a..] and after[start + b..].
  const lengths = new Uint32Array((n + 1) * (m + 1))
  const at = (a: number, b: number) => a * (m + 1) + b
  for (let a = n - 1; a >= 0; a -= 1) {
    for (let b = m - 1; b >= 0; b -= 1) {
      lengths[at(a, b)] =
        before[start + a] === after[start + b]
          ? (lengths[at(a + 1, b + 1)] ?? 0) + 1
          : Math.max(lengths[at(a + 1, b)] ?? 0, lengths[at(a, b + 1)] ?? 0)
    }
  }
  const pairs: (readonly [number, number])[] = []
  let a = 0
  let b = 0
  while (a < n && b < m) {
    if (before[start + a] === after[start + b]) {
      pairs.push([start + a, start + b])
      a += 1
      b += 1
    } else if ((lengths[at(a + 1, b)] ?? 0) >= (lengths[at(a, b + 1)] ?? 0)) {
      a += 1
    } else {
      b += 1
    }
  }
  return pairs
}

const rowKey = (cells: string[]) => JSON.stringify(cells)
