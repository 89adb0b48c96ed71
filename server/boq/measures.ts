import type { Collator } from './counts.ts'
import type { DrawingEntity, Point, Vertex } from './drawing.ts'
import { arcLength, ellipseLength, splineLength } from './geometry/curves.ts'
import { hatchArea } from './geometry/loops.ts'
import { endsMeet, polylineLength, polylineSignedArea } from './geometry/polyline.ts'
import {
  DAMAGED_REASON,
  damagedLabel,
  entitySize,
  isImplausible,
  isNoArea,
  isNoLength,
  type LeftOut,
  leaveOut,
  sizeOf,
  typeName,
} from './no-quantity.ts'
import { hatchPerimeter } from './perimeters.ts'
import type { BoqArea, BoqLength, LengthKind } from './schema.ts'

/**
 * A per-layer table row and what it measures, entity by entity (for the bill's breakdown and the
 * rules' pieces): `quantities` in drawing units, in the order of `handles`. Entities without a
 * handle are in the row's figures only.
 */
export type Measured<Row> = { row: Row; handles: string[]; quantities: number[] }

/** Areas entity by entity, in drawing units: each one's area and boundary length, by handle. */
export type EachArea = { handles: string[]; areas: number[]; perimeters: number[] }

/** An area row with its entities split by source: hatches, and closed polylines no hatch fills. */
export type MeasuredArea = {
  row: BoqArea
  hatches: EachArea
  unfilled: EachArea
  unfilledArea: number
}

function lengthOf(entity: DrawingEntity): [LengthKind, number] | null {
  switch (entity.type) {
    case 'line': {
      const { a, b } = entity
      return ['line', Math.hypot(b.x - a.x, b.y - a.y, b.z - a.z)]
    }
    case 'arc':
      return ['arc', arcLength(entity.radius, entity.start, entity.end)]
    case 'circle':
      return ['circle', 2 * Math.PI * Math.abs(entity.radius)]
    case 'polyline':
      return ['polyline', polylineLength(entity.vertices, entity.closed)]
    case 'spline':
      return ['spline', splineLength(entity)]
    case 'helix':
      return ['helix', splineLength(entity)]
    case 'ellipse':
      return ['ellipse', ellipseLength(entity.major, entity.ratio, entity.start, entity.end)]
    case 'mline':
      return ['multiline', pathLength(entity.vertices, entity.closed)]
    case 'hatch':
      return null
  }
}

/** Length along straight segments, with the closing one when closed. */
function pathLength(points: Point[], closed: boolean): number {
  let total = 0
  for (let i = 1; i < points.length; i++) total += distance(points[i - 1], points[i])
  if (closed && points.length > 2) total += distance(points[points.length - 1], points[0])
  return total
}

function distance(a: Point, b: Point): number {
  return Math.hypot(b.x - a.x, b.y - a.y, b.z - a.z)
}

/**
 * Linework per layer and kind (multilines also per style), in drawing units. What has no length
 * (a line from a point to itself), and damaged geometry (no finite length, or coordinates no
 * drawing holds), goes to `leftOut`, not into a row.
 */
export function measureLengths(
  entities: DrawingEntity[],
  compare: Collator,
  leftOut: LeftOut,
): Measured<BoqLength>[] {
  const rows = new Map<string, Measured<BoqLength>>()
  for (const entity of entities) {
    const measured = lengthOf(entity)
    if (!measured) continue
    const [kind, length] = measured
    const size = entitySize(entity)
    if (!Number.isFinite(length) || isImplausible(size) || isImplausible(length)) {
      leaveOut(leftOut, damagedLabel(typeName(entity)), DAMAGED_REASON)
      continue
    }
    if (isNoLength(length, size)) {
      leaveOut(leftOut, `${typeName(entity)} (zero length)`, 'no length: nothing to measure')
      continue
    }
    const style = entity.type === 'mline' ? entity.style : null
    const key = `${entity.layer}\u0000${kind}\u0000${style ?? ''}`
    let entry = rows.get(key)
    if (!entry) {
      entry = {
        row: { layer: entity.layer, kind, style, count: 0, length: 0 },
        handles: [],
        quantities: [],
      }
      rows.set(key, entry)
    }
    entry.row.count += 1
    entry.row.length += length
    if (entity.handle) {
      entry.handles.push(entity.handle)
      entry.quantities.push(length)
    }
  }
  return [...rows.values()].sort(
    (a, b) =>
      compare(a.row.layer, b.row.layer) ||
      compare(a.row.kind, b.row.kind) ||
      compare(a.row.style ?? '', b.row.style ?? ''),
  )
}

type Outline = { area: number; box: [number, number, number, number] }

function boxOf(points: { x: number; y: number }[]): [number, number, number, number] {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity]
  for (const p of points) {
    x0 = Math.min(x0, p.x)
    y0 = Math.min(y0, p.y)
    x1 = Math.max(x1, p.x)
    y1 = Math.max(y1, p.y)
  }
  return [x0, y0, x1, y1]
}

/** Same outline: equal area, and the box of the corners equal, to a millionth of its size. */
function sameOutline(a: Outline, b: Outline): boolean {
  const size = Math.max(a.box[2] - a.box[0], a.box[3] - a.box[1], 1e-12)
  if (Math.abs(a.area - b.area) > 1e-6 * Math.max(a.area, b.area)) return false
  return a.box.every((v, i) => Math.abs(v - b.box[i]) <= 1e-6 * size)
}

function isClosedPolyline(
  entity: DrawingEntity,
): entity is Extract<DrawingEntity, { type: 'polyline' }> & { vertices: Vertex[] } {
  return (
    entity.type === 'polyline' &&
    !entity.is3d &&
    ((entity.closed &&
      (entity.vertices.length >= 3 || entity.vertices.some((v) => v.bulge !== 0))) ||
      endsMeet(entity.vertices))
  )
}

/** What an outline of no area is not measured for: a closed polyline still has its length. */
const NO_AREA = {
  'closed POLYLINE': 'encloses no area: no area measured (its length is in the linework)',
  HATCH: 'encloses no area (or has no boundary): nothing to measure',
}

/** Whether the area is none, or damaged geometry, listed in `leftOut` when so. */
function noArea(area: number, size: number, name: keyof typeof NO_AREA, leftOut: LeftOut) {
  if (!Number.isFinite(area) || isImplausible(size)) {
    leaveOut(leftOut, damagedLabel(name), DAMAGED_REASON)
    return true
  }
  if (!isNoArea(area, size)) return false
  leaveOut(leftOut, `${name} (zero area)`, NO_AREA[name])
  return true
}

type Outlined = { area: number; perimeter: number; handle: string }

type LayerAreas = {
  polylines: (Outline & Outlined)[]
  hatches: (Outlined & { loops: Outline[] })[]
}

/** Each entity's figures, those with a handle only (the others are in the row's totals). */
function eachArea(list: Outlined[]): EachArea {
  const withHandle = list.filter((entry) => entry.handle)
  return {
    handles: withHandle.map((entry) => entry.handle),
    areas: withHandle.map((entry) => entry.area),
    perimeters: withHandle.map((entry) => entry.perimeter),
  }
}

/**
 * Areas per layer, in drawing units squared: a hatch and the polyline it fills count once. An
 * outline enclosing no area (its corners in a row, a hatch without a boundary) goes to `leftOut`.
 */
export function measureAreas(
  entities: DrawingEntity[],
  compare: Collator,
  leftOut: LeftOut,
): MeasuredArea[] {
  const layers = new Map<string, LayerAreas>()
  const layerOf = (name: string) => {
    let entry = layers.get(name)
    if (!entry) {
      entry = { polylines: [], hatches: [] }
      layers.set(name, entry)
    }
    return entry
  }
  for (const entity of entities) {
    if (isClosedPolyline(entity)) {
      const area = Math.abs(polylineSignedArea(entity.vertices))
      if (noArea(area, sizeOf(entity.vertices), 'closed POLYLINE', leftOut)) continue
      layerOf(entity.layer).polylines.push({
        area,
        perimeter: polylineLength(entity.vertices, entity.closed),
        box: boxOf(entity.vertices),
        handle: entity.handle,
      })
    } else if (entity.type === 'hatch') {
      const { area, loopAreas, corners } = hatchArea(entity.loops, entity.style)
      if (noArea(area, sizeOf(corners.flat()), 'HATCH', leftOut)) continue
      layerOf(entity.layer).hatches.push({
        area,
        perimeter: hatchPerimeter(entity.loops),
        loops: loopAreas.map((a, i) => ({ area: a, box: boxOf(corners[i]) })),
        handle: entity.handle,
      })
    }
  }
  const out: MeasuredArea[] = []
  for (const [layer, { polylines, hatches }] of layers) {
    const loops = hatches.flatMap((h) => h.loops)
    let filled = 0
    let unfilledArea = 0
    const unfilled: Outlined[] = []
    for (const outline of polylines) {
      if (loops.some((loop) => sameOutline(outline, loop))) filled++
      else {
        unfilledArea += outline.area
        unfilled.push(outline)
      }
    }
    const hatchTotal = hatches.reduce((sum, h) => sum + h.area, 0)
    out.push({
      row: {
        layer,
        closedPolylines: polylines.length,
        closedPolylineArea: polylines.reduce((sum, p) => sum + p.area, 0),
        hatches: hatches.length,
        hatchArea: hatchTotal,
        filledByHatch: filled,
        net: hatchTotal + unfilledArea,
      },
      hatches: eachArea(hatches),
      unfilled: eachArea(unfilled),
      unfilledArea,
    })
  }
  return out.sort((a, b) => compare(a.row.layer, b.row.layer))
}
