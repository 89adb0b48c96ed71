import type { DrawingEntity } from '../model/drawing.ts'
import type { Point } from '../model/primitives.ts'

/**
 * What the measures leave out of the bill because it measures nothing (a line of no length, an
 * outline of no area, a figure that is not a number), by a label naming the entity and why: the
 * bill never holds a line of 0, and nothing is left out without being listed.
 */
export type LeftOut = Map<string, { count: number; reason: string }>

export function leaveOut(leftOut: LeftOut, type: string, reason: string): void {
  const entry = leftOut.get(type)
  if (entry) entry.count += 1
  else leftOut.set(type, { count: 1, reason })
}

/**
 * Below this share of an entity's coordinates a figure is the rounding of its arithmetic, not a
 * length: the tolerance the polylines' closing test uses.
 */
const RELATIVE = 1e-9

/** A length that is no length beside coordinates as large as `size` (or not a number). */
export function isNoLength(length: number, size: number): boolean {
  return !(length > RELATIVE * Math.max(1, size))
}

/**
 * The same for areas, against size²: the shoelace sum of an outline with no width (its corners
 * in a row) rounds to about 1e-16 of size² per corner, not to 0.
 */
const AREA_RELATIVE = 1e-12

/** An area that is no area beside coordinates as large as `size` (or not a number). */
export function isNoArea(area: number, size: number): boolean {
  const scale = Math.max(1, size)
  return !(area > AREA_RELATIVE * scale * scale)
}

/**
 * Beyond this many drawing units from the origin no drawing places anything (10¹² mm is a
 * million kilometres): a coordinate past it, or one that is not a number, is damaged geometry.
 * Kept below this, no sum of a bill's figures can overflow.
 */
export const MAX_COORDINATE = 1e12

/** Whether an entity of this size is damaged geometry rather than something drawn. */
export function isImplausible(size: number): boolean {
  return !(size <= MAX_COORDINATE)
}

/** The Not measured label of damaged geometry, and its reason. */
export function damagedLabel(type: string): string {
  return `${type} (damaged geometry)`
}
export const DAMAGED_REASON =
  'a coordinate or figure that is not a number or lies beyond 10¹² drawing units, as no drawing holds: left out'

/** The largest coordinate of these points: how large the rounding of their arithmetic can be. */
export function sizeOf(points: Iterable<{ x: number; y: number; z?: number }>): number {
  let size = 0
  for (const p of points) size = Math.max(size, Math.abs(p.x), Math.abs(p.y), Math.abs(p.z ?? 0))
  return size
}

/** The points an entity's figure is worked out from (a circle or arc: its radius alone). */
export function entitySize(entity: DrawingEntity): number {
  switch (entity.type) {
    case 'line':
      return sizeOf([entity.a, entity.b])
    case 'arc':
    case 'circle':
      return Math.abs(entity.radius)
    case 'polyline':
    case 'mline':
      return sizeOf(entity.vertices)
    case 'spline':
    case 'helix':
      return Math.max(sizeOf(entity.control), sizeOf(entity.fit))
    case 'ellipse':
      return sizeOf([entity.center, plus(entity.center, entity.major)])
    case 'hatch':
      return 0
  }
}

function plus(a: Point, b: Point): Point {
  return { x: a.x + b.x, y: a.y + b.y, z: a.z + b.z }
}

/** The type as a drawing names it, for the Not measured list. */
const TYPE_NAMES: Record<DrawingEntity['type'], string> = {
  line: 'LINE',
  arc: 'ARC',
  circle: 'CIRCLE',
  polyline: 'POLYLINE',
  spline: 'SPLINE',
  helix: 'HELIX',
  ellipse: 'ELLIPSE',
  mline: 'MLINE',
  hatch: 'HATCH',
}

export function typeName(entity: DrawingEntity): string {
  return TYPE_NAMES[entity.type]
}
