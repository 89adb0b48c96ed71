import type { ByZone, ZonePart } from '../../../contract/locations.ts'

/** Sums parts by zone; what they leave of `quantity` (or pass it by, in rounding) is unallocated. */
export function byZoneOf(
  parts: Iterable<ZonePart>,
  quantity: number,
  order: Map<string, number>,
): ByZone {
  const sums = new Map<string, number>()
  for (const part of parts) {
    if (part.zone === null) continue
    sums.set(part.zone, (sums.get(part.zone) ?? 0) + part.quantity)
  }
  const out: ByZone = [...sums]
    .filter(([, q]) => q !== 0)
    .sort(([a], [b]) => (order.get(a) ?? 0) - (order.get(b) ?? 0))
    .map(([zone, q]) => ({ zone, quantity: q }))
  const rest = quantity - out.reduce((sum, part) => sum + part.quantity, 0)
  if (Math.abs(rest) > 1e-12 * Math.max(1, Math.abs(quantity)))
    out.push({ zone: null, quantity: rest })
  else if (out.length > 0) {
    // A rounding's worth is the last zone's, so the parts add up to the figure exactly.
    out[out.length - 1].quantity += rest
  } else out.push({ zone: null, quantity })
  return out
}
