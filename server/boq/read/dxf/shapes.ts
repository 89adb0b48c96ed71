import type { Loop, LoopEdge, Point, SplineGeometry, Vertex } from '../../drawing.ts'
import type { Shape } from '../../picture.ts'
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
    case 'CIRCLE': {
      const center = pt(e.center)
      return {
        kind: 'circle',
        center: isMirrored(e.extrusionDirection) ? mirrorPoint(center) : center,
        radius: num(e.radius),
      }
    }
    case 'ARC':
      return arcShape(e)
    case 'ELLIPSE':
      return ellipseShape(e)
    case 'LWPOLYLINE': {
      const vertices = lwVertices(e)
      const closed = (num(e.flag) & 1) !== 0
      return {
        kind: 'polyline',
        vertices: isMirrored(e.extrusionDirection) ? vertices.map(mirrorVertex) : vertices,
        closed,
      }
    }
    case 'POLYLINE':
      return polylineShape(e)
    case 'SPLINE':
      return { kind: 'spline', spline: splineOf(e) }
    case 'HATCH': {
      const loops = hatchLoops(e.boundaryPaths)
      // 70 = 1 a solid fill; a gradient fills too.
      const solid = num(e.solidFill) === 1 || num(e.gradientFlag) === 1
      return {
        kind: 'hatch',
        loops: isMirrored(e.extrusionDirection) ? loops.map(mirrorLoop) : loops,
        solid,
      }
    }
    case 'MLINE': {
      const segments = (e.segments as { position?: Xy }[]) ?? []
      const vertices = segments.map((s) => ({ ...pt(s.position), bulge: 0 }))
      // 71: 2 closed.
      return { kind: 'polyline', vertices, closed: (num(e.flags) & 2) !== 0 }
    }
    case 'SOLID': {
      const corners = ((e.points as Xy[]) ?? []).map(pt)
      return {
        kind: 'solid',
        corners: isMirrored(e.extrusionDirection) ? corners.map(mirrorPoint) : corners,
      }
    }
    case '3DFACE':
      return faceShape(e)
    case 'INSERT':
      return insertShape(e)
    case 'DIMENSION':
    case 'ARC_DIMENSION': {
      // Its graphics block is drawn where it is, in world coordinates.
      const definition = String(e.name ?? '')
      return definition ? insertOf(definition, { x: 0, y: 0, z: 0 }, { x: 1, y: 1, z: 1 }, 0) : null
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
  return { kind: 'solid', corners: isMirrored(extrusion) ? corners.map(mirrorPoint) : corners }
}

function arcShape(e: DxfEntity): Shape {
  const center = pt(e.center)
  const radius = num(e.radius)
  const start = num(e.startAngle) * DEG
  const end = num(e.endAngle) * DEG
  if (!isMirrored(e.extrusionDirection)) return { kind: 'arc', center, radius, start, end }
  // Seen from above, the point at angle θ is at π − θ, and the arc runs the other way.
  const [mirroredStart, mirroredEnd] = mirroredRange(start, end, Math.PI)
  return {
    kind: 'arc',
    center: mirrorPoint(center),
    radius,
    start: mirroredStart,
    end: mirroredEnd,
  }
}

function ellipseShape(e: DxfEntity): Shape {
  const start = num(e.startAngle)
  const end = num(e.endAngle)
  const shape = {
    kind: 'ellipse' as const,
    center: pt(e.center),
    major: pt(e.majorAxisEndPoint),
    ratio: num(e.axisRatio),
    start,
    end,
  }
  if (!isMirrored(e.extrusionDirection)) return shape
  // Centre and axis are world points already; seen from above its parameter runs clockwise,
  // so the same points are the parameters −end … −start counter-clockwise.
  const [mirroredStart, mirroredEnd] = mirroredRange(start, end, 0)
  return { ...shape, start: mirroredStart, end: mirroredEnd }
}

function polylineShape(e: DxfEntity): Shape | null {
  if (isMeshPolyline(e)) return null
  const flag = num(e.flag)
  const vertices = heavyVertices(e)
  // A 3D polyline (8) is in world coordinates; a 2D one in its object coordinate system.
  const mirrored = (flag & 8) === 0 && isMirrored(e.extrusionDirection)
  return {
    kind: 'polyline',
    vertices: mirrored ? vertices.map(mirrorVertex) : vertices,
    closed: (flag & 1) !== 0,
  }
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
  if (!isMirrored(e.extrusionDirection))
    return insertOf(definition, position, scale, rotation, grid)
  // Seen from above the reference's system is mirrored (x → −x): M·R(θ)·S = R(−θ)·M·S, so the
  // same placement is a rotation of −θ with x (and z) scaled the other way; its columns, spaced
  // along its own x, step the other way too.
  return insertOf(
    definition,
    mirrorPoint(position),
    { x: negate(scale.x), y: scale.y, z: negate(scale.z) },
    normalAngle(-rotation),
    { ...grid, columnSpacing: negate(grid.columnSpacing) },
  )
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
 * Whether an extrusion direction is (0, 0, −1), as mirroring leaves arcs, circles, polylines and
 * references: their object coordinate system is then the world's seen from below (x → −x,
 * z → −z). Any other direction is left as it is. (Read where each type's entity is at hand:
 * one shared read of the property would see every type and be slow.)
 */
function isMirrored(direction: unknown): boolean {
  if (direction === undefined) return false
  const n = direction as Xy
  // The arbitrary axis algorithm's test for a direction along z.
  return Math.abs(num(n.x)) < 1 / 64 && Math.abs(num(n.y)) < 1 / 64 && num(n.z) < 0
}

/** −v, but 0 for 0 (never −0, which reads as a number of its own in tests and JSON). */
const negate = (v: number): number => 0 - v

const mirrorPoint = (p: Point): Point => ({ x: negate(p.x), y: p.y, z: negate(p.z) })

/** A mirrored vertex's arc to the next one turns the other way. */
const mirrorVertex = (v: Vertex): Vertex => ({
  x: negate(v.x),
  y: v.y,
  z: negate(v.z),
  bulge: negate(v.bulge),
})

function mirrorLoop(loop: Loop): Loop {
  return loop.kind === 'polyline'
    ? { kind: 'polyline', vertices: loop.vertices.map(mirrorVertex) }
    : { kind: 'edges', edges: loop.edges.map(mirrorEdge) }
}

/**
 * A hatch edge mirrored: the same points, from the same end, turning the other way. A clockwise
 * edge stores its angles negated (it runs from −start to −end), so an arc's angle θ, which is
 * π − θ mirrored, is stored as θ + π either way; an ellipse's angle from its (mirrored) major
 * axis only changes sign, which the flipped direction stores as it was.
 */
function mirrorEdge(edge: LoopEdge): LoopEdge {
  switch (edge.kind) {
    case 'line':
      return { kind: 'line', a: mirrorPoint(edge.a), b: mirrorPoint(edge.b) }
    case 'arc':
      return {
        ...edge,
        center: mirrorPoint(edge.center),
        start: edge.start + Math.PI,
        end: edge.end + Math.PI,
        ccw: !edge.ccw,
      }
    case 'ellipse':
      return {
        ...edge,
        center: mirrorPoint(edge.center),
        major: mirrorPoint(edge.major),
        ccw: !edge.ccw,
      }
    case 'spline':
      return {
        kind: 'spline',
        spline: {
          ...edge.spline,
          control: edge.spline.control.map(mirrorPoint),
          fit: edge.spline.fit.map(mirrorPoint),
        },
      }
  }
}

/**
 * A counter-clockwise range from `start` to `end` seen mirrored, where the angle θ becomes
 * pivot − θ: it starts at pivot − end (in [0, 2π)) and sweeps as far (a whole turn stays one).
 */
function mirroredRange(start: number, end: number, pivot: number): [number, number] {
  let sweep = normalAngle(end - start)
  if (sweep === 0 && end !== start) sweep = 2 * Math.PI
  const mirroredStart = normalAngle(pivot - end)
  return [mirroredStart, mirroredStart + sweep]
}

/** An angle in [0, 2π). */
function normalAngle(a: number): number {
  const turn = 2 * Math.PI
  const r = a % turn
  if (r < 0) return r + turn
  return r === 0 ? 0 : r // −0 (from −0 or −2π) is 0
}

const samePoint = (a: Point, b: Point): boolean => a.x === b.x && a.y === b.y && a.z === b.z
