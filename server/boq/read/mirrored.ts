import { normalAngle } from '../measure/curves/curves.ts'
import type { Shape } from '../model/picture.ts'
import type { Loop, LoopEdge, Point, SplineGeometry, Vertex } from '../model/primitives.ts'

/**
 * Entities whose extrusion direction is −Z (mirrored arcs, circles, polylines, hatches,
 * references) keep their points in an object coordinate system that is the world's turned over:
 * by the arbitrary axis rule its x axis is −X, its y axis Y and its z axis −Z. Both readers turn
 * such a shape, once read, into world coordinates seen from above with these.
 */

/** Below this, an extrusion's x and y count as zero (the arbitrary axis rule's own limit). */
const ARBITRARY_AXIS = 1 / 64
const TURN = 2 * Math.PI

/** Whether an extrusion direction is (about) −Z. LibreDWG gives an unset one as 0,0,0. */
export function isMirroredOcs(x: number, y: number, z: number): boolean {
  return z < 0 && Math.abs(x) < ARBITRARY_AXIS && Math.abs(y) < ARBITRARY_AXIS
}

/** −v, but 0 for 0 (never −0, which reads as a number of its own in tests and JSON). */
const negate = (v: number): number => 0 - v

export function mirroredPoint(p: Point): Point {
  return { x: negate(p.x), y: p.y, z: negate(p.z) }
}

/** Turned over, an arc segment runs the other way round: its bulge changes sign. */
function mirroredVertex(v: Vertex): Vertex {
  return { x: negate(v.x), y: v.y, z: negate(v.z), bulge: negate(v.bulge) }
}

/**
 * The shape of an entity whose extrusion is −Z, as read (in its object coordinate system; an
 * ellipse's points are world points already), in world coordinates seen from above.
 */
export function mirroredShape(shape: Shape): Shape {
  switch (shape.kind) {
    case 'line':
      return { kind: 'line', a: mirroredPoint(shape.a), b: mirroredPoint(shape.b) }
    case 'circle':
      return { ...shape, center: mirroredPoint(shape.center) }
    case 'arc': {
      // A point at angle θ lands at π − θ, and the counter-clockwise run from start to end
      // becomes a clockwise one: seen counter-clockwise it runs from π − end to π − start.
      const [start, end] = mirroredRange(shape.start, shape.end, Math.PI)
      return { ...shape, center: mirroredPoint(shape.center), start, end }
    }
    case 'ellipse': {
      // Its minor axis is the major one turned a quarter clockwise seen from above (the
      // extrusion × major), so its parameter runs the other way round: −end … −start.
      const [start, end] = mirroredRange(shape.start, shape.end, 0)
      return { ...shape, start, end }
    }
    case 'polyline':
      return { ...shape, vertices: shape.vertices.map(mirroredVertex) }
    case 'hatch':
      return { ...shape, loops: shape.loops.map(mirroredLoop) }
    case 'solid':
      return { kind: 'solid', corners: shape.corners.map(mirroredPoint) }
    case 'insert':
      // Turning over after rotating by θ is rotating by −θ after turning over (M·R(θ)·S =
      // R(−θ)·M·S): the reference mirrors its block in x (scale x and z negated) and turns the
      // other way; MINSERT columns step along its x axis, so their spacing changes sign too.
      return {
        ...shape,
        position: mirroredPoint(shape.position),
        scale: { x: negate(shape.scale.x), y: shape.scale.y, z: negate(shape.scale.z) },
        rotation: normalAngle(-shape.rotation),
        columnSpacing: negate(shape.columnSpacing),
      }
    case 'spline':
      return { kind: 'spline', spline: mirroredSpline(shape.spline) }
  }
}

/**
 * A counter-clockwise range from `start` to `end` seen mirrored, where the angle θ becomes
 * pivot − θ: it starts at pivot − end (in [0, 2π)) and sweeps as far (a whole turn stays one).
 */
function mirroredRange(start: number, end: number, pivot: number): [number, number] {
  let sweep = normalAngle(end - start)
  if (sweep === 0 && end !== start) sweep = TURN
  const mirroredStart = normalAngle(pivot - end)
  return [mirroredStart, mirroredStart + sweep]
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
        start: edge.start + Math.PI,
        end: edge.end + Math.PI,
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
  const { startTangent, endTangent } = spline
  return {
    ...spline,
    control: spline.control.map(mirroredPoint),
    fit: spline.fit.map(mirroredPoint),
    ...(startTangent && { startTangent: mirroredPoint(startTangent) }),
    ...(endTangent && { endTangent: mirroredPoint(endTangent) }),
  }
}
