import type { ChangeLine } from '#contract/compare.ts'
import type { BillLine } from '../model/schema.ts'

/** What a removed item's number says after it: the number is the older bill's. */
export const REMOVED_MARK = ' (removed)'

/**
 * Each change-bill line its own item number. A line of the newer bill keeps its number there; a
 * removed item keeps its number in the older bill, marked as removed; an added item whose number
 * the older bill gave to another item (B1 removed, B1 added) gets the next number of its series
 * that neither bill uses, so that no two lines, and no line of either bill, read as the same item.
 * `lines` carry their own bill's number; their order is kept.
 */
export function numberChanges(
  lines: ChangeLine[],
  before: BillLine[],
  after: BillLine[],
): ChangeLine[] {
  const older = new Set(before.map((line) => line.ref))
  const fresh = new FreshNumbers([...older, ...after.map((line) => line.ref)])
  return lines.map((line) => {
    if (line.state === 'removed') return { ...line, ref: `${line.ref}${REMOVED_MARK}` }
    if (line.state === 'added' && older.has(line.ref)) return { ...line, ref: fresh.next(line.ref) }
    return line
  })
}

/** Numbers past the highest of each series (the letters before the digits) that no bill uses. */
class FreshNumbers {
  private readonly used: Set<string>
  private readonly last = new Map<string, number>()

  constructor(used: string[]) {
    this.used = new Set(used)
    for (const ref of used) {
      const { series, number } = split(ref)
      this.last.set(series, Math.max(this.last.get(series) ?? 0, number))
    }
  }

  /** The next unused number in the series of `ref`. */
  next(ref: string): string {
    const { series } = split(ref)
    let number = this.last.get(series) ?? 0
    let candidate: string
    do candidate = `${series}${++number}`
    while (this.used.has(candidate))
    this.last.set(series, number)
    this.used.add(candidate)
    return candidate
  }
}

/** `B12` → series `B`, number 12; a number without digits is a series of its own from 0. */
function split(ref: string): { series: string; number: number } {
  const match = /^(.*?)(\d+)$/.exec(ref)
  return match
    ? { series: match[1] as string, number: Number(match[2]) }
    : { series: `${ref}.`, number: 0 }
}
