import type { DrawingEntity } from '../model/drawing.ts'
import type { Point, Vertex } from '../model/primitives.ts'
import type { BoqArea, BoqLength, LengthKind } from '../model/schema.ts'
import type { Collator } from './counts.ts'
import { arcLength, ellipseLength, helixLength, splineLength, sweep } from './curves/curves.ts'
import { hatchArea } from './curves/loops.ts'
import { endsMeet, polylineLength, polylineSignedArea } from './curves/polyline.ts'
import { type NearFit, noteNearFit } from './fit-tolerance.ts'
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

/**
 * A per-layer table row and what it measures, entity by entity (for the bill's breakdown and the
 * rules' pieces): `quantities` in drawing units, in the order of `handles`, and the entities
 * themselves (what locations place). Entities without a handle are in the row's figures only.
 */
export type Measured<Row> = {
  row: Row
  handles: string[]
  quantities: number[]
  entities: DrawingEntity[]
}

/** Areas entity by entity, in drawing units: each one's area and boundary length, by handle. */
export type EachArea = {
  handles: string[]
  areas: number[]
  perimeters: number[]
  entities: DrawingEntity[]
}

/** The closed outlines of one kind no hatch fills: how many, their area, each by handle. */
export type Unfilled = EachArea & { count: number; area: number }

/** The kinds of closed outline besides hatches: closed polylines, circles, whole ellipses. */
export type OutlineKind = 'polyline' | 'circle' | 'ellipse'

/** An area row with its entities split by source: hatches, and the outlines no hatch fills. */
export type MeasuredArea = {
  row: BoqArea
  hatches: EachArea
  unfilled: Record<OutlineKind, Unfilled>
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
      return ['helix', helixLength(entity)]
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
 * drawing holds), goes to `leftOut`, not into a row; splines measured through fit points AutoCAD's
 * curve only passes near are counted in `nearFit`.
 */
export function measureLengths(
  entities: DrawingEntity[],
  compare: Collator,
  leftOut: LeftOut,
  nearFit: NearFit,
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
        entities: [],
      }
      rows.set(key, entry)
    }
    entry.row.count += 1
    entry.row.length += length
    noteNearFit(nearFit, entity)
    if (entity.handle) {
      entry.handles.push(entity.handle)
      entry.quantities.push(length)
      entry.entities.push(entity)
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

/** What an outline of no area is not measured for: an outline still has its length. */
const OUTLINE_NO_AREA = 'encloses no area: no area measured (its length is in the linework)'
const NO_AREA = {
  'closed POLYLINE': OUTLINE_NO_AREA,
  CIRCLE: OUTLINE_NO_AREA,
  ELLIPSE: OUTLINE_NO_AREA,
  HATCH: 'encloses no area (or has no boundary): nothing to measure',
}

/**
 * Whether the area is none, or damaged geometry, listed in `leftOut` when so. An outline that is
 * also linework is listed once: its damage, or its having no length at all, is listed by the
 * linework's measure (`perimeter`: its length, for outlines other than hatches).
 */
function noArea(
  area: number,
  size: number,
  name: keyof typeof NO_AREA,
  leftOut: LeftOut,
  perimeter?: number,
) {
  const linework = perimeter !== undefined
  if (!Number.isFinite(area) || isImplausible(size)) {
    if (!linework) leaveOut(leftOut, damagedLabel(name), DAMAGED_REASON)
    return true
  }
  if (!isNoArea(area, size)) return false
  if (!linework || !isNoLength(perimeter, size)) {
    leaveOut(leftOut, `${name} (zero area)`, NO_AREA[name])
  }
  return true
}

type Outlined = { area: number; perimeter: number; entity: DrawingEntity }

/** A closed outline other than a hatch, and how to tell a hatch's loop that follows it. */
type ClosedOutline = Outlined & { kind: OutlineKind; follows: (loop: Outline & Corners) => boolean }

type Corners = { corners: { x: number; y: number }[] }

type LayerAreas = {
  outlines: ClosedOutline[]
  hatches: (Outlined & { loops: (Outline & Corners)[] })[]
}

/** Each entity's figures, those with a handle only (the others are in the row's totals). */
function eachArea(list: Outlined[]): EachArea {
  const withHandle = list.filter((entry) => entry.entity.handle)
  return {
    handles: withHandle.map((entry) => entry.entity.handle),
    entities: withHandle.map((entry) => entry.entity),
    areas: withHandle.map((entry) => entry.area),
    perimeters: withHandle.map((entry) => entry.perimeter),
  }
}

function unfilledOf(list: Outlined[]): Unfilled {
  return { ...eachArea(list), count: list.length, area: list.reduce((sum, o) => sum + o.area, 0) }
}

/** Equal areas, to a millionth. */
function sameArea(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-6 * Math.max(a, b)
}

/**
 * A circle or a whole ellipse as a closed outline: its area and perimeter, and a hatch loop
 * follows it when the areas agree and every corner of the loop lies on it. Null for an open arc
 * of an ellipse.
 */
function closedCurve(entity: DrawingEntity): Omit<ClosedOutline, 'entity'> | null {
  if (entity.type === 'circle') {
    const r = Math.abs(entity.radius)
    const { x: cx, y: cy } = entity.center
    const area = Math.PI * r * r
    return {
      kind: 'circle',
      area,
      perimeter: 2 * Math.PI * r,
      follows: (loop) =>
        sameArea(loop.area, area) &&
        loop.corners.every((p) => Math.abs(Math.hypot(p.x - cx, p.y - cy) - r) <= 1e-6 * r),
    }
  }
  if (entity.type !== 'ellipse' || sweep(entity.start, entity.end) < 2 * Math.PI - 1e-9) return null
  const { center, major, ratio } = entity
  const a = Math.hypot(major.x, major.y, major.z)
  const b = a * Math.abs(ratio)
  const area = Math.PI * a * b
  return {
    kind: 'ellipse',
    area,
    perimeter: ellipseLength(major, ratio, entity.start, entity.end),
    follows: (loop) =>
      sameArea(loop.area, area) &&
      loop.corners.every((p) => {
        // The corner in the ellipse's own axes: on the ellipse when (u/a)² + (v/b)² = 1.
        const dx = p.x - center.x
        const dy = p.y - center.y
        const u = (dx * major.x + dy * major.y) / a
        const v = (dy * major.x - dx * major.y) / a
        return Math.abs(Math.hypot(u / a, v / b) - 1) <= 1e-6
      }),
  }
}

/**
 * Areas per layer, in drawing units squared: closed polylines, circles and whole ellipses, and
 * hatches; a hatch and the outline it fills count once. An outline enclosing no area (its corners
 * in a row, a hatch without a boundary) goes to `leftOut`.
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
      entry = { outlines: [], hatches: [] }
      layers.set(name, entry)
    }
    return entry
  }
  for (const entity of entities) {
    if (isClosedPolyline(entity)) {
      const area = Math.abs(polylineSignedArea(entity.vertices))
      const perimeter = polylineLength(entity.vertices, entity.closed)
      if (noArea(area, sizeOf(entity.vertices), 'closed POLYLINE', leftOut, perimeter)) continue
      const outline: Outline = { area, box: boxOf(entity.vertices) }
      layerOf(entity.layer).outlines.push({
        kind: 'polyline',
        area,
        perimeter,
        entity,
        follows: (loop) => sameOutline(outline, loop),
      })
    } else if (entity.type === 'circle' || entity.type === 'ellipse') {
      const curve = closedCurve(entity)
      if (!curve) continue
      const name = entity.type === 'circle' ? 'CIRCLE' : 'ELLIPSE'
      if (noArea(curve.area, entitySize(entity), name, leftOut, curve.perimeter)) continue
      layerOf(entity.layer).outlines.push({ ...curve, entity })
    } else if (entity.type === 'hatch') {
      const { area, loopAreas, corners } = hatchArea(entity.loops, entity.style)
      if (noArea(area, sizeOf(corners.flat()), 'HATCH', leftOut)) continue
      layerOf(entity.layer).hatches.push({
        area,
        perimeter: hatchPerimeter(entity.loops),
        loops: loopAreas.map((a, i) => ({ area: a, box: boxOf(corners[i]), corners: corners[i] })),
        entity,
      })
    }
  }
  const out: MeasuredArea[] = []
  for (const [layer, { outlines, hatches }] of layers) {
    const loops = hatches.flatMap((h) => h.loops)
    const unfilled: Record<OutlineKind, Outlined[]> = { polyline: [], circle: [], ellipse: [] }
    let filled = 0
    for (const outline of outlines) {
      if (loops.some((loop) => outline.follows(loop))) filled++
      else unfilled[outline.kind].push(outline)
    }
    const of = (kind: OutlineKind) => outlines.filter((o) => o.kind === kind)
    const sum = (list: Outlined[]) => list.reduce((total, o) => total + o.area, 0)
    const hatchTotal = sum(hatches)
    const curves = [...of('circle'), ...of('ellipse')]
    out.push({
      row: {
        layer,
        closedPolylines: of('polyline').length,
        closedPolylineArea: sum(of('polyline')),
        ...(curves.length > 0 ? { closedCurves: curves.length, closedCurveArea: sum(curves) } : {}),
        hatches: hatches.length,
        hatchArea: hatchTotal,
        filledByHatch: filled,
        net: hatchTotal + sum(Object.values(unfilled).flat()),
      },
      hatches: eachArea(hatches),
      unfilled: {
        polyline: unfilledOf(unfilled.polyline),
        circle: unfilledOf(unfilled.circle),
        ellipse: unfilledOf(unfilled.ellipse),
      },
    })
  }
  return out.sort((a, b) => compare(a.row.layer, b.row.layer))
}
