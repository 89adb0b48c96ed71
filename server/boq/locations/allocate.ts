import type { HandleZones, ZonePart } from '#contract/locations.ts'
import type { CountLine } from '../measure/counts.ts'
import type { Shape } from '../model/picture.ts'
import type { BillBreakdownRow, BillLine, Boq } from '../model/schema.ts'
import { boundsOf } from './bounds.ts'
import { addTo, byZoneOfSums, type ZoneSums } from './by-zone.ts'
import { type Frame, regionOf } from './clip.ts'
import { lineworkOf, ringsOf } from './flatten.ts'
import type { Parts, Regions } from './regions.ts'

/**
 * Every measured piece of the bill given to the zones: its figure shared out by what the regions
 * hold of its shape, what they leave unallocated (zone null). The parts are shares of the bill's
 * own figures, so each row and each line adds up to its quantity.
 */

export type Placing = {
  regions: Regions
  frame: Frame
  tolerance: number
  shapeOf: (handle: string) => Shape | undefined
  /** A model-space reference's insertion point (world coordinates), by handle. */
  insertAt: (handle: string) => { x: number; y: number } | undefined
}

/** Shares of `figure` by the parts' proportions (parts in any unit, their total the whole). */
function shares(parts: Parts, figure: number): ZonePart[] {
  let total = 0
  for (const value of parts.values()) total += value
  if (!(total > 0)) return [{ zone: null, quantity: figure }]
  const out: ZonePart[] = []
  for (const [zone, value] of parts)
    if (value > 0) out.push({ zone, quantity: (figure * value) / total })
  return out
}

export type Unplaced = { count: number }

export function allocateBill(
  boq: Boq,
  counts: CountLine[],
  placing: Placing,
  order: Map<string, number>,
  unplaced: Unplaced,
): void {
  const zoneOfReference = new Map<string, string | null>()
  const zoneOfHandle = (handle: string): string | null => {
    let zone = zoneOfReference.get(handle)
    if (zone === undefined) {
      const at = placing.insertAt(handle)
      zone = at ? placing.regions.zoneAt(placing.frame.point(at.x, at.y)) : null
      zoneOfReference.set(handle, zone)
    }
    return zone
  }
  const countsByKey = new Map<string, CountLine>()
  for (const line of counts) countsByKey.set(countKey(line.block, line.values), line)
  for (const line of boq.bill) {
    const lineSums: ZoneSums = new Map()
    for (const row of line.breakdown) {
      const sums: ZoneSums = new Map()
      if (line.kind === 'count') countRow(line, row, countsByKey, zoneOfHandle, sums, unplaced)
      else measuredRow(line, row, placing, sums, unplaced)
      row.byZone = byZoneOfSums(sums, row.quantity, order)
      for (const part of row.byZone) addTo(lineSums, part.zone, part.quantity)
    }
    line.byZone = byZoneOfSums(lineSums, line.quantity, order)
  }
  for (const ref of boq.references) ref.zone = zoneOfHandle(ref.handle)
}

function countKey(block: string | undefined, values: Record<string, string> | undefined): string {
  return [block ?? '', ...Object.values(values ?? {})].join('\u0000')
}

/**
 * Each reference of a count row to the zone of its insertion point, with what it brought. The
 * row keeps only its sums by zone: its references' zones are the references list's.
 */
function countRow(
  line: BillLine,
  row: BillBreakdownRow,
  counts: Map<string, CountLine>,
  zoneOf: (handle: string) => string | null,
  sums: ZoneSums,
  unplaced: Unplaced,
): void {
  const counted = counts.get(countKey(line.block, line.values))?.layers.get(row.layer)?.byHandle
  if (counted) {
    for (const handle of row.handles) addTo(sums, zoneOf(handle), counted.get(handle) ?? 0)
    return
  }
  // A line the counts cannot tell by reference: whole to one zone when all its references are in it.
  const zones = new Set(row.handles.map(zoneOf))
  if (zones.size === 1 && row.handles.length > 0) {
    const [zone] = zones
    addTo(sums, zone, row.quantity)
  } else unplaced.count += row.count
}

/**
 * Each entity of a length or area row shared out by its shape: beside its handle, the zone
 * holding all of it (found from a box around it when no boundary runs through that box, with no
 * flattening), or its parts.
 */
function measuredRow(
  line: BillLine,
  row: BillBreakdownRow,
  placing: Placing,
  sums: ZoneSums,
  unplaced: Unplaced,
): void {
  const quantities = row.quantities ?? []
  if (quantities.length !== row.handles.length) {
    unplaced.count += row.count
    row.zones = row.handles.map(() => null)
    return
  }
  unplaced.count += row.count - row.handles.length
  const zones: HandleZones[] = new Array(row.handles.length)
  for (let i = 0; i < row.handles.length; i++) {
    const quantity = quantities[i]
    const shape = placing.shapeOf(row.handles[i])
    let place: HandleZones = null
    if (!shape) unplaced.count++
    else place = placeOf(line, shape, quantity, row.perimeters?.[i], placing)
    if (place === null || typeof place === 'string') addTo(sums, place, quantity)
    else for (const part of place) addTo(sums, part.zone, part.quantity)
    zones[i] = place
  }
  row.zones = zones
}

function placeOf(
  line: BillLine,
  shape: Shape,
  quantity: number,
  perimeter: number | undefined,
  placing: Placing,
): HandleZones {
  const box = boundsOf(shape)
  const whole = box ? placing.regions.zoneOfBox(placing.frame.box(box)) : undefined
  if (whole !== undefined) return whole
  let parts: ZonePart[]
  if (line.kind === 'length') parts = shares(lengthParts(shape, placing), quantity)
  else {
    parts = shares(areaParts(shape, placing), quantity)
    if (perimeter !== undefined)
      parts = mergePerimeter(parts, shares(lengthParts(shape, placing), perimeter))
  }
  return parts.length === 1 ? parts[0].zone : parts
}
function lengthParts(shape: Shape, placing: Placing): Parts {
  const paths = lineworkOf(shape, placing.tolerance).filter((path) => path.length >= 2)
  return paths.length > 0 ? placing.regions.lengths(placing.frame.paths(paths)) : new Map()
}

function areaParts(shape: Shape, placing: Placing): Parts {
  const rings = ringsOf(shape, placing.tolerance)
  if (!rings) return new Map()
  const region = regionOf(placing.frame.paths(rings), shape.kind === 'hatch')
  return region.length > 0 ? placing.regions.areas(region) : new Map()
}

/** An area's parts with their shares of the boundary beside them (a zone may have one of the two). */
function mergePerimeter(area: ZonePart[], around: ZonePart[]): ZonePart[] {
  const out = new Map<string | null, ZonePart>()
  for (const part of area)
    out.set(part.zone, { zone: part.zone, quantity: part.quantity, perimeter: 0 })
  for (const part of around) {
    const entry = out.get(part.zone) ?? { zone: part.zone, quantity: 0, perimeter: 0 }
    entry.perimeter = (entry.perimeter ?? 0) + part.quantity
    out.set(part.zone, entry)
  }
  return [...out.values()]
}
