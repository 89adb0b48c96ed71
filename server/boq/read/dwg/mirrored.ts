import type { Loop, LoopEdge, Point, SplineGeometry, Vertex } from '../../drawing.ts'
import type { Shape } from '../../picture.ts'

/**
 * Entities whose extrusion direction is −Z (mirrored arcs, circles, polylines, references) keep
 * their points in an object coordinate system that is the world's turned over: by the arbitrary
 * axis rule its x axis is −X, its y axis Y and its z axis −Z. These turn such a shape into world
 * coordinates seen from above.
 */

/** Below this, an extrusion's x and y count as zero (the arbitrary axis rule's own limit). */
const ARBITRARY_AXIS = 1 / 64
const TURN = 2 * Math.PI

/** Whether an extrusion direction is (about) −Z. LibreDWG gives an unset one as 0,0,0. */
export function isMirroredOcs(x: number, y: number, z: number): boolean {
  return z < 0 && Math.abs(x) < ARBITRARY_AXIS && Math.abs(y) < ARBITRARY_AXIS
}

/** An angle in [0, 2π). */
export function normalAngle(angle: number): number {
  const a = angle % TURN
  return a < 0 ? a + TURN : a
}

export function mirroredPoint(p: Point): Point {
  return { x: -p.x, y: p.y, z: -p.z }
}

/** Turned over, an arc segment runs the other way round: its bulge changes sign. */
function mirroredVertex(v: Vertex): Vertex {
  return { x: -v.x, y: v.y, z: -v.z, bulge: -v.bulge }
}

/** A shape read in a −Z object coordinate system, in world coordinates. */
export function mirroredShape(shape: Shape): Shape {
  switch (shape.kind) {
    case 'line':
      return { kind: 'line', a: mirroredPoint(shape.a), b: mirroredPoint(shape.b) }
    case 'circle':
      return { ...shape, center: mirroredPoint(shape.center) }
    case 'arc':
      // A point at angle θ lands at π − θ, and the counter-clockwise run from start to end
      // becomes a clockwise one: seen counter-clockwise it runs from π − end to π − start.
      return {
        ...shape,
        center: mirroredPoint(shape.center),
        start: normalAngle(Math.PI - shape.end),
        end: normalAngle(Math.PI - shape.start),
      }
    case 'polyline':
      return { ...shape, vertices: shape.vertices.map(mirroredVertex) }
    case 'hatch':
      return { ...shape, loops: shape.loops.map(mirroredLoop) }
    case 'solid':
      return { kind: 'solid', corners: shape.corners.map(mirroredPoint) }
    case 'insert':
      // Turning over after rotating by θ is rotating by −θ after turning over: the reference
      // mirrors its block in x (scale x and z negated) and turns the other way; MINSERT columns
      // step along its x axis, so their spacing changes sign too.
      return {
        ...shape,
        position: mirroredPoint(shape.position),
        scale: { x: -shape.scale.x, y: shape.scale.y, z: -shape.scale.z },
        rotation: normalAngle(-shape.rotation),
        columnSpacing: -shape.columnSpacing,
      }
    case 'spline':
      return { kind: 'spline', spline: mirroredSpline(shape.spline) }
    case 'ellipse':
      // Ellipses are in world coordinates already; see ellipseSeenFromAbove.
      return shape
  }
}

/**
 * An ellipse (world coordinates) whose extrusion is −Z: its minor axis is the major one turned a
 * quarter clockwise seen from above, so its parameter runs the other way round.
 */
export function ellipseSeenFromAbove(
  shape: Extract<Shape, { kind: 'ellipse' }>,
): Extract<Shape, { kind: 'ellipse' }> {
  return { ...shape, start: normalAngle(-shape.end), end: normalAngle(-shape.start) }
}

function mirroredLoop(loop: Loop): Loop {
  if (loop.kind === 'polyline')
    return { kind: 'polyline', vertices: loop.vertices.map(mirroredVertex) }
  return { kind: 'edges', edges: loop.edges.map(mirroredEdge) }
}

/**
 * Hatch edges keep their direction of travel (the loop's edges join end to start). An arc's
 * point at angle φ lands at π − φ, so its direction of turning flips; in the edges' convention
 * (a clockwise edge stores its angles negated) that is both angles plus π. An elliptic edge's
 * minor axis turns over with it, so only its direction flips.
 */
function mirroredEdge(edge: LoopEdge): LoopEdge {
  switch (edge.kind) {
    case 'line':
      return { kind: 'line', a: mirroredPoint(edge.a), b: mirroredPoint(edge.b) }
    case 'arc':
      return {
        ...edge,
        center: mirroredPoint(edge.center),
        start: normalAngle(edge.start + Math.PI),
        end: normalAngle(edge.end + Math.PI),
        ccw: !edge.ccw,
      }
    case 'ellipse':
      return {
        ...edge,
        center: mirroredPoint(edge.center),
        major: mirroredPoint(edge.major),
        ccw: !edge.ccw,
      }
    case 'spline':
      return { kind: 'spline', spline: mirroredSpline(edge.spline) }
  }
}

function mirroredSpline(spline: SplineGeometry): SplineGeometry {
  return {
    ...spline,
    control: spline.control.map(mirroredPoint),
    fit: spline.fit.map(mirroredPoint),
    startTangent: spline.startTangent ? mirroredPoint(spline.startTangent) : spline.startTangent,
    endTangent: spline.endTangent ? mirroredPoint(spline.endTangent) : spline.endTangent,
  }
}
