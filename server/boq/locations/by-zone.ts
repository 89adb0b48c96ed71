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
