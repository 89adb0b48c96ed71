import { placedAtOrigin, type Shape } from '../../model/picture.ts'
import type { Point, SplineGeometry } from '../../model/primitives.ts'
import { isMirroredOcs, mirroredShape } from '../mirrored.ts'
import {
  DEG,
  type DxfEntity,
  hatchLoops,
  heavyVertices,
  isMeshPolyline,
  lwVertices,
  num,
  pt,
  splineOf,
  type Xy,
} from './geometry.ts'
import type { Pair } from './scan.ts'

/**
 * An entity's shape as the drawing view draws it, from dxf-json's output: world coordinates seen
 * from above, angles in radians, counter-clockwise. Null for what is not drawn (text, meshes,
 * types without geometry here). A reference's shape is given whatever its block is: the caller
 * decides about attached drawings. (`type` is e.type, when the caller has read it: each read of
 * a property of dxf-json's entities is slow, as no two of them share a hidden class.)
 */
export function shapeOf(e: DxfEntity, type: string = e.type): Shape | null {
  switch (type) {
    case 'LINE':
      return { kind: 'line', a: pt(e.startPoint), b: pt(e.endPoint) }
    case 'CIRCLE':
      return inOcs(e, { kind: 'circle', center: pt(e.center), radius: num(e.radius) })
    case 'ARC':
      return inOcs(e, {
        kind: 'arc',
        center: pt(e.center),
        radius: num(e.radius),
        start: num(e.startAngle) * DEG,
        end: num(e.endAngle) * DEG,
      })
    case 'ELLIPSE':
      return inOcs(e, {
        kind: 'ellipse',
        center: pt(e.center),
        major: pt(e.majorAxisEndPoint),
        ratio: num(e.axisRatio),
        start: num(e.startAngle),
        end: num(e.endAngle),
      })
    case 'LWPOLYLINE':
      return inOcs(e, {
        kind: 'polyline',
        vertices: lwVertices(e),
        closed: (num(e.flag) & 1) !== 0,
      })
    case 'POLYLINE':
      return polylineShape(e)
    case 'SPLINE':
      return { kind: 'spline', spline: splineOf(e) }
    case 'HATCH': {
      // 70 = 1 a solid fill; a gradient fills too.
      const solid = num(e.solidFill) === 1 || num(e.gradientFlag) === 1
      return inOcs(e, { kind: 'hatch', loops: hatchLoops(e.boundaryPaths), solid })
    }
    case 'MLINE': {
      const segments = (e.segments as { position?: Xy }[]) ?? []
      const vertices = segments.map((s) => ({ ...pt(s.position), bulge: 0 }))
      // 71: 2 closed.
      return { kind: 'polyline', vertices, closed: (num(e.flags) & 2) !== 0 }
    }
    case 'SOLID':
      return inOcs(e, { kind: 'solid', corners: ((e.points as Xy[]) ?? []).map(pt) })
    case '3DFACE':
      return faceShape(e)
    case 'INSERT':
      return insertShape(e)
    case 'DIMENSION':
    case 'ARC_DIMENSION': {
      // Its graphics block is drawn where it is, in world coordinates.
      const definition = String(e.name ?? '')
      return definition ? placedAtOrigin(definition) : null
    }
    case 'ACAD_TABLE': {
      // Its graphics block is drawn from the origin: placed at the table, along its direction.
      const definition = String(e.name ?? '')
      const direction = pt(e.directionVector ?? { x: 1 })
      const rotation = Math.atan2(direction.y, direction.x)
      return definition
        ? insertOf(definition, pt(e.startPoint), { x: 1, y: 1, z: 1 }, rotation)
        : null
    }
    default:
      return null
  }
}

/** A spline shape from a DXF spline's geometry (a HELIX is drawn as its spline). */
export function splineShape(spline: SplineGeometry): Shape {
  return { kind: 'spline', spline }
}

/** TRACE (which dxf-json does not read) from its pairs: its four corners, like a SOLID. */
export function traceShape(pairs: Pair[]): Shape {
  const corners: Point[] = [0, 1, 2, 3].map(() => ({ x: 0, y: 0, z: 0 }))
  const extrusion = { x: 0, y: 0, z: 1 }
  for (const [code, value] of pairs) {
    const n = Number(value) || 0
    if (code >= 10 && code <= 13) corners[code - 10].x = n
    else if (code >= 20 && code <= 23) corners[code - 20].y = n
    else if (code >= 30 && code <= 33) corners[code - 30].z = n
    else if (code === 210) extrusion.x = n
    else if (code === 220) extrusion.y = n
    else if (code === 230) extrusion.z = n
  }
  const shape: Shape = { kind: 'solid', corners }
  return isMirroredOcs(extrusion.x, extrusion.y, extrusion.z) ? mirroredShape(shape) : shape
}

function polylineShape(e: DxfEntity): Shape | null {
  if (isMeshPolyline(e)) return null
  const flag = num(e.flag)
  const vertices = heavyVertices(e)
  // A 3D polyline (8) is in world coordinates; a 2D one in its object coordinate system.
  const shape: Shape = { kind: 'polyline', vertices, closed: (flag & 1) !== 0 }
  return (flag & 8) === 0 ? inOcs(e, shape) : shape
}

/** 3DFACE: a closed polyline of its corners (a triangle repeats its third as its fourth). */
function faceShape(e: DxfEntity): Shape {
  const corners = ((e.vertices as Xy[]) ?? []).map(pt)
  const [, , third, fourth] = corners
  if (fourth && third && samePoint(third, fourth)) corners.pop()
  return { kind: 'polyline', vertices: corners.map((c) => ({ ...c, bulge: 0 })), closed: true }
}

function insertShape(e: DxfEntity): Shape | null {
  const definition = String(e.name ?? '')
  if (!definition) return null
  const position = pt(e.insertionPoint)
  const scale = { x: factor(e.xScale), y: factor(e.yScale), z: factor(e.zScale) }
  const rotation = num(e.rotation) * DEG
  const columns = Math.max(1, num(e.columnCount) || 1)
  const rows = Math.max(1, num(e.rowCount) || 1)
  // A MINSERT's spacing (an INSERT's is not read: one cell).
  const grid =
    columns === 1 && rows === 1
      ? ONE
      : { columns, rows, columnSpacing: num(e.columnSpacing), rowSpacing: num(e.rowSpacing) }
  return inOcs(e, insertOf(definition, position, scale, rotation, grid))
}

type Grid = { columns: number; rows: number; columnSpacing: number; rowSpacing: number }

const ONE: Grid = { columns: 1, rows: 1, columnSpacing: 0, rowSpacing: 0 }

function insertOf(
  definition: string,
  position: Point,
  scale: Point,
  rotation: number,
  grid: Grid = ONE,
): Shape {
  return {
    kind: 'insert',
    definition,
    position,
    scale,
    rotation,
    columns: grid.columns,
    rows: grid.rows,
    columnSpacing: grid.columnSpacing,
    rowSpacing: grid.rowSpacing,
  }
}

/** A scale factor: 1 when the file leaves it out. */
const factor = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 1)

/**
 * The shape of an entity with an object coordinate system, seen from above: mirrored when its
 * extrusion direction is (0, 0, −1). (The direction is read here, for the types that have one:
 * one shared read of the property would see every type and be slow.)
 */
function inOcs(e: DxfEntity, shape: Shape): Shape {
  const direction = e.extrusionDirection as Xy | undefined
  if (direction === undefined) return shape
  const mirrored = isMirroredOcs(num(direction.x), num(direction.y), num(direction.z))
  return mirrored ? mirroredShape(shape) : shape
}

const samePoint = (a: Point, b: Point): boolean => a.x === b.x && a.y === b.y && a.z === b.z
