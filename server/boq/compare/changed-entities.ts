import type { EntityChanges } from '#contract/compare.ts'
import type { Boq, BoqReference } from '../model/schema.ts'

/**
 * Two positions this close (a millionth of the coordinate, at least of a drawing unit) are the
 * same place: a reference copied or re-inserted where it was lands on the same figures.
 */
const POSITION_TOLERANCE = 1e-6

/**
 * The entities that only one of two bills counts or measures: handles in the newer bill's
 * breakdown and not the older one's are added, and the other way round removed. A drawing saved
 * again (or rebuilt) can give the same block reference a new handle: an added and a removed
 * reference of the same block at the same position are the same reference, in neither list.
 * Linework and areas carry no position in the bill, so they are matched by handle alone.
 */
export function changedEntities(before: Boq, after: Boq): EntityChanges {
  const older = handlesOf(before)
  const newer = handlesOf(after)
  const added = [...newer].filter((handle) => !older.has(handle))
  const removed = [...older].filter((handle) => !newer.has(handle))
  if (added.length === 0 || removed.length === 0) return { added, removed }
  const places = new PlacesOf(referencesBy(before, removed))
  const moved = new Set<string>()
  for (const reference of referencesBy(after, added)) {
    const same = places.take(reference)
    if (same) moved.add(reference.handle).add(same)
  }
  return {
    added: added.filter((handle) => !moved.has(handle)),
    removed: removed.filter((handle) => !moved.has(handle)),
  }
}

/** Every handle the bill's lines count or measure, in the bill's order, once each. */
function handlesOf(boq: Boq): Set<string> {
  const handles = new Set<string>()
  for (const line of boq.bill) {
    for (const row of line.breakdown) for (const handle of row.handles) handles.add(handle)
  }
  return handles
}

/** The bill's placed references among these handles (the bill lists them up to its cap). */
function referencesBy(boq: Boq, handles: string[]): BoqReference[] {
  const wanted = new Set(handles)
  return boq.references.filter((reference) => wanted.has(reference.handle))
}

/** References by block, sorted by x, each matched at most once. */
class PlacesOf {
  private readonly byBlock = new Map<string, BoqReference[]>()
  private readonly taken = new Set<BoqReference>()

  constructor(references: BoqReference[]) {
    for (const reference of references) {
      const list = this.byBlock.get(reference.block)
      if (list) list.push(reference)
      else this.byBlock.set(reference.block, [reference])
    }
    for (const list of this.byBlock.values()) list.sort((a, b) => a.x - b.x)
  }

  /** The handle of an unmatched reference of the same block at the same position, now matched. */
  take(reference: BoqReference): string | undefined {
    const list = this.byBlock.get(reference.block)
    if (!list) return undefined
    const reach = tolerance(reference.x)
    for (let i = firstFrom(list, reference.x - reach); i < list.length; i++) {
      const other = list[i] as BoqReference
      if (other.x > reference.x + reach) break
      if (this.taken.has(other) || !near(other.x, reference.x) || !near(other.y, reference.y)) {
        continue
      }
      this.taken.add(other)
      return other.handle
    }
    return undefined
  }
}

/** The first index whose x is at least `x` (the list sorted by x). */
function firstFrom(list: BoqReference[], x: number): number {
  let low = 0
  let high = list.length
  while (low < high) {
    const middle = (low + high) >> 1
    if ((list[middle] as BoqReference).x < x) low = middle + 1
    else high = middle
  }
  return low
}

/** How far along x to look about a coordinate: wider than any difference `near` accepts there. */
function tolerance(coordinate: number): number {
  return POSITION_TOLERANCE * Math.max(1, Math.abs(coordinate)) * 2
}

function near(a: number, b: number): boolean {
  return Math.abs(a - b) <= POSITION_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b))
}
