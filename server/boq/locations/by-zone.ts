import type { ByZone, ZonePart } from '#contract/locations.ts'

/** A figure's sums by zone id (null: unallocated), as they are added up. */
export type ZoneSums = Map<string | null, number>

export function addTo(sums: ZoneSums, zone: string | null, quantity: number): void {
  sums.set(zone, (sums.get(zone) ?? 0) + quantity)
}

/** Sums parts by zone; what they leave of `quantity` (or pass it by, in rounding) is unallocated. */
export function byZoneOf(
  parts: Iterable<ZonePart>,
  quantity: number,
  order: Map<string, number>,
): ByZone {
  const sums: ZoneSums = new Map()
  for (const part of parts) addTo(sums, part.zone, part.quantity)
  return byZoneOfSums(sums, quantity, order)
}

/** byZoneOf from sums already made (what is summed under null is left to the rest). */
export function byZoneOfSums(sums: ZoneSums, quantity: number, order: Map<string, number>): ByZone {
  const out: ByZone = []
  for (const [zone, q] of sums) if (zone !== null && q !== 0) out.push({ zone, quantity: q })
  out.sort((a, b) => (order.get(a.zone ?? '') ?? 0) - (order.get(b.zone ?? '') ?? 0))
  return withRest(out, quantity)
}

/**
 * Sums by zone as a bill's many pieces are added up, by the zone's slot (its place in
 * `zones[]`, -1 for none: left to the rest), with no map look-up a piece: what byZoneOfSums
 * makes of the same sums.
 */
export class ZoneTally {
  private readonly ids: string[]
  private readonly sums: Float64Array
  private readonly seen: Uint8Array
  private readonly touched: number[] = []

  /** `ids`: the zones' ids by slot. */
  constructor(ids: string[]) {
    this.ids = ids
    this.sums = new Float64Array(ids.length)
    this.seen = new Uint8Array(ids.length)
  }

  add(slot: number, quantity: number): void {
    if (slot < 0) return
    if (this.seen[slot] === 0) {
      this.seen[slot] = 1
      this.touched.push(slot)
    }
    this.sums[slot] += quantity
  }

  /** The sums as the parts of `quantity`, and the tally emptied for the next figure. */
  take(quantity: number): ByZone {
    const out: ByZone = []
    this.touched.sort((a, b) => a - b)
    for (const slot of this.touched) {
      const q = this.sums[slot]
      if (q !== 0) out.push({ zone: this.ids[slot], quantity: q })
      this.sums[slot] = 0
      this.seen[slot] = 0
    }
    this.touched.length = 0
    return withRest(out, quantity)
  }
}

/** Parts in zone order and the rest of `quantity` they leave, as one figure's byZone. */
function withRest(out: ByZone, quantity: number): ByZone {
  let placed = 0
  for (const part of out) placed += part.quantity
  const rest = quantity - placed
  if (Math.abs(rest) > 1e-12 * Math.max(1, Math.abs(quantity)))
    out.push({ zone: null, quantity: rest })
  else if (out.length > 0) {
    // A rounding's worth is the last zone's, so the parts add up to the figure exactly.
    out[out.length - 1].quantity += rest
  } else out.push({ zone: null, quantity })
  return out
}
