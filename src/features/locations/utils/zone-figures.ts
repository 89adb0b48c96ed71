import type { BillLine, Boq } from '#contract/boq.ts'
import type { ByZone } from '#contract/locations.ts'
import type { PricedItem } from '#contract/takeoff-rules.ts'

/** A zone picked to show the bill in; null: what no zone holds (unallocated). */
export type ZonePick = string | null

/** One line or item of the bill in a zone: its share there, and the whole it is a share of. */
export type InZone = {
  ref: string
  description: string
  kind: BillLine['kind'] | 'item'
  unit: string
  quantity: number
  whole: number
}

/** A figure's part in the zone (0 when the zone holds none of it). */
export function partIn(byZone: ByZone | undefined, zone: ZonePick): number {
  let sum = 0
  for (const part of byZone ?? []) if (part.zone === zone) sum += part.quantity
  return sum
}

/** The measured lines with a part in the zone, in the bill's order. */
export function linesInZone(boq: Boq, zone: ZonePick): InZone[] {
  return boq.bill.flatMap((line) => {
    const quantity = partIn(line.byZone, zone)
    if (quantity <= 0) return []
    const { ref, description, kind, unit } = line
    return [{ ref, description, kind, unit, quantity, whole: line.quantity }]
  })
}

/** The priced items with a part in the zone (their measured quantity's share), in order. */
export function itemsInZone(items: readonly PricedItem[], zone: ZonePick): InZone[] {
  return items.flatMap((item) => {
    const quantity = partIn(item.byZone, zone)
    if (quantity <= 0) return []
    const { ref, unit } = item
    const description = item.code ? `${item.code} ${item.description}` : item.description
    return [
      { ref, description, kind: 'item' as const, unit, quantity, whole: item.measuredQuantity },
    ]
  })
}

/** How much of every line no zone holds: is there any? */
export function hasUnallocated(boq: Boq): boolean {
  return boq.bill.some((line) => partIn(line.byZone, null) > 0)
}

/** What a breakdown row says of one handle's place: a zone, none, or its parts. */
type HandlePlace = string | null | readonly { zone: string | null; quantity: number }[]

function holds(place: HandlePlace | undefined, zone: ZonePick): boolean {
  if (place === undefined) return false
  if (place === null || typeof place === 'string') return place === zone
  return place.some((part) => part.zone === zone && part.quantity > 0)
}

/**
 * What the drawing lights for a zone: its outline, and every piece with a part in it (block
 * references by the zone of their insertion point, linework and areas by their parts).
 */
export function zoneHandles(boq: Boq, zone: ZonePick): string[] {
  const handles = new Set<string>()
  const own = zone === null ? undefined : boq.zones?.find((z) => z.id === zone)
  if (own) handles.add(own.handle)
  for (const reference of boq.references) {
    if (reference.zone !== undefined && reference.zone === zone) handles.add(reference.handle)
  }
  for (const line of boq.bill) {
    if (line.kind === 'count') continue
    for (const row of line.breakdown) {
      const places = row.zones as readonly HandlePlace[] | undefined
      if (!places) continue
      row.handles.forEach((handle, index) => {
        if (holds(places[index], zone)) handles.add(handle)
      })
    }
  }
  return [...handles]
}
