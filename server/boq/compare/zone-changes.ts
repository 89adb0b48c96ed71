import type { ZoneChange } from '#contract/compare.ts'
import type { ByZone } from '#contract/locations.ts'
import type { BillLine, Boq } from '../model/schema.ts'
import { MEASURING_TOLERANCE } from './change-tolerance.ts'

/** What has figures by zone: a bill line, a priced item. */
type Zoned = { byZone?: ByZone }

/**
 * A line's figures zone by zone in two bills, zones matched by their path (their ids are each
 * bill's own): what the change bill says of a chair moved from one room to the next, the line's
 * total the same.
 */
export class ZoneMatch {
  private readonly olderPaths: Map<string, string>
  private readonly newerPaths: Map<string, string>
  /** Paths in the newer bill's order, then those only the older bill has. */
  private readonly order = new Map<string, number>()

  constructor(before: Boq, after: Boq) {
    this.olderPaths = new Map((before.zones ?? []).map((z) => [z.id, z.path]))
    this.newerPaths = new Map((after.zones ?? []).map((z) => [z.id, z.path]))
    for (const path of [...this.newerPaths.values(), ...this.olderPaths.values()])
      if (!this.order.has(path)) this.order.set(path, this.order.size)
  }

  /** Whether both bills were made with zones, so that their lines compare zone by zone. */
  static applies(before: Boq, after: Boq): boolean {
    return before.zones !== undefined && after.zones !== undefined
  }

  /**
   * A line's (or a priced item's) figures by zone path (null: unallocated), the older one's
   * scaled to the newer units.
   */
  changes(was: Zoned | undefined, now: Zoned | undefined, scale: number): ZoneChange[] {
    const figures = new Map<string | null, ZoneChange>()
    const add = (path: string | null, side: 'before' | 'after', quantity: number) => {
      const entry = figures.get(path) ?? { zone: path, before: 0, after: 0 }
      entry[side] += quantity
      figures.set(path, entry)
    }
    for (const part of was?.byZone ?? [])
      add(
        part.zone === null ? null : (this.olderPaths.get(part.zone) ?? null),
        'before',
        part.quantity * scale,
      )
    for (const part of now?.byZone ?? [])
      add(
        part.zone === null ? null : (this.newerPaths.get(part.zone) ?? null),
        'after',
        part.quantity,
      )
    const rank = (zone: string | null) => (zone === null ? Infinity : (this.order.get(zone) ?? 0))
    return [...figures.values()].sort((a, b) => rank(a.zone) - rank(b.zone))
  }
}

/**
 * Whether some zone's figure moved by more than two readings of one drawing can differ by (as a
 * share of the line's figure: a pipe redrawn may shift a trace of its length across a wall).
 */
export function movedBetweenZones(
  changes: ZoneChange[],
  kind: BillLine['kind'] | 'measured',
  line: { before: number; after: number },
): boolean {
  const tolerance = kind === 'count' ? 1e-9 : MEASURING_TOLERANCE
  const whole = Math.max(1e-9, Math.abs(line.before), Math.abs(line.after))
  return changes.some((z) => Math.abs(z.after - z.before) > tolerance * whole)
}
