import type { HandleZones, ZonePart } from '#contract/locations.ts'
import type { Pieces } from '../measure/bill.ts'
import type { CountLine } from '../measure/counts.ts'
import type { Shape } from '../model/picture.ts'
import type { BillBreakdownRow, BillLine, Boq } from '../model/schema.ts'
import { boundsOf } from './bounds.ts'
import { ZoneTally } from './by-zone.ts'
import { type Frame, regionOf } from './clip.ts'
import { type Box, lineworkOf, ringsOf } from './flatten.ts'
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
  /** The entities of each length and area row, beside its handles. */
  pieces: Pieces
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

/** Sums are made by the zones' slots (their places in `zones[]`): a bill has many pieces. */
export function allocateBill(
  boq: Boq,
  counts: CountLine[],
  placing: Placing,
  unplaced: Unplaced,
): void {
  const { ids } = placing.regions
  const slotOfReference = new Map<string, number>()
  const slotOfHandle = (handle: string): number => {
    let slot = slotOfReference.get(handle)
    if (slot === undefined) {
      const at = placing.insertAt(handle)
      slot = at ? placing.regions.slotAt(placing.frame.point(at.x, at.y)) : -1
      slotOfReference.set(handle, slot)
    }
    return slot
  }
  const countsByKey = new Map<string, CountLine>()
  for (const line of counts) countsByKey.set(countKey(line.block, line.values), line)
  const rowSums = new ZoneTally(ids)
  const lineSums = new ZoneTally(ids)
  for (const line of boq.bill) {
    for (const row of line.breakdown) {
      if (line.kind === 'count') countRow(line, row, countsByKey, slotOfHandle, rowSums, unplaced)
      else measuredRow(line, row, placing, rowSums, unplaced)
      row.byZone = rowSums.take(row.quantity)
      for (const part of row.byZone) lineSums.add(placing.regions.slotOf(part.zone), part.quantity)
    }
    line.byZone = lineSums.take(line.quantity)
  }
  for (const ref of boq.references) {
    const slot = slotOfHandle(ref.handle)
    ref.zone = slot < 0 ? null : ids[slot]
  }
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
  slotOf: (handle: string) => number,
  sums: ZoneTally,
  unplaced: Unplaced,
): void {
  const counted = counts.get(countKey(line.block, line.values))?.layers.get(row.layer)?.byHandle
  if (counted) {
    for (const handle of row.handles) sums.add(slotOf(handle), counted.get(handle) ?? 0)
    return
  }
  // A line the counts cannot tell by reference: whole to one zone when all its references are in it.
  const zones = new Set(row.handles.map(slotOf))
  if (zones.size === 1 && row.handles.length > 0) {
    const [slot] = zones
    sums.add(slot, row.quantity)
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
  sums: ZoneTally,
  unplaced: Unplaced,
): void {
  const { regions } = placing
  const quantities = row.quantities ?? []
  if (quantities.length !== row.handles.length) {
    unplaced.count += row.count
    row.zones = row.handles.map(() => null)
    return
  }
  unplaced.count += row.count - row.handles.length
  const zones: HandleZones[] = new Array(row.handles.length)
  const entities = placing.pieces.get(row)
  const box: Box = [0, 0, 0, 0]
  for (let i = 0; i < row.handles.length; i++) {
    const quantity = quantities[i]
    const shape = entities?.[i]?.shape
    if (!shape) {
      unplaced.count++
      zones[i] = null
      continue
    }
    // Most pieces lie wholly in one zone (or none), found from their box alone.
    const whole = boundsOf(shape, box) ? regions.slotOfBox(placing.frame.box(box, box)) : undefined
    if (whole !== undefined) {
      sums.add(whole, quantity)
      zones[i] = whole < 0 ? null : regions.ids[whole]
      continue
    }
    const parts = partsOf(line, shape, quantity, row.perimeters?.[i], placing)
    if (parts.length === 1) {
      sums.add(regions.slotOf(parts[0].zone), quantity)
      zones[i] = parts[0].zone
    } else {
      for (const part of parts) sums.add(regions.slotOf(part.zone), part.quantity)
      zones[i] = parts
    }
  }
  row.zones = zones
}

/** The parts of a piece a zone boundary runs through. */
function partsOf(
  line: BillLine,
  shape: Shape,
  quantity: number,
  perimeter: number | undefined,
  placing: Placing,
): ZonePart[] {
  let parts: ZonePart[]
  if (line.kind === 'length') parts = shares(lengthParts(shape, placing), quantity)
  else {
    parts = shares(areaParts(shape, placing), quantity)
    if (perimeter !== undefined)
      parts = mergePerimeter(parts, shares(lengthParts(shape, placing), perimeter))
  }
  return parts
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
