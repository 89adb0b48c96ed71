import { normalAngle, sampleSpline, sweep } from '../measure/curves/curves.ts'
import type { Shape } from '../model/picture.ts'
import { type HatchDrawing, hatchDrawing, solidTriangles } from './fill.ts'
import type { GeometrySink } from './sink.ts'
import { conicPoints, polylinePoints, splineSamplesPerSpan, TWO_PI } from './tessellate.ts'
import { type Affine, isMirrored, largestStretch, mapAngle, uniformScale } from './transform.ts'

/** What one shape, placed by `m`, adds: paths, arcs or triangles with its owner and colour. */
export type Drawn = { owner: number; colour: number; m: Affine; tolerance: number }

/** Shapes drawn the same way every time they are placed, found once (a block's hatches). */
export type ShapeCache = WeakMap<Shape, HatchDrawing>

const ENDS = { start: true, end: true }

export function drawShape(
  sink: GeometrySink,
  shape: Exclude<Shape, { kind: 'insert' }>,
  at: Drawn,
  cache: ShapeCache,
): void {
  const { m, owner, colour } = at
  switch (shape.kind) {
    case 'line':
      sink.beginPath()
      sink.point(m.a * shape.a.x + m.c * shape.a.y + m.e, m.b * shape.a.x + m.d * shape.a.y + m.f)
      sink.point(m.a * shape.b.x + m.c * shape.b.y + m.e, m.b * shape.b.x + m.d * shape.b.y + m.f)
      sink.endPath(owner, colour)
      return
    case 'polyline':
      sink.beginPath()
      polylinePoints(sink, m, shape.vertices, shape.closed, at.tolerance)
      sink.endPath(owner, colour)
      return
    case 'circle':
      drawCircular(sink, shape.center, shape.radius, 0, TWO_PI, at)
      return
    case 'arc':
      drawCircular(sink, shape.center, shape.radius, shape.start, sweep(shape.start, shape.end), at)
      return
    case 'ellipse': {
      const { major, ratio } = shape
      // The minor axis: the major one turned a quarter counter-clockwise, scaled by the ratio.
      const minor = { x: -major.y * ratio, y: major.x * ratio }
      sink.beginPath()
      conicPoints(
        sink,
        m,
        shape.center,
        major,
        minor,
        shape.start,
        sweep(shape.start, shape.end),
        at.tolerance,
        ENDS,
      )
      sink.endPath(owner, colour)
      return
    }
    case 'spline': {
      const perSpan = splineSamplesPerSpan(shape.spline, largestStretch(m), at.tolerance)
      sink.beginPath()
      for (const p of sampleSpline(shape.spline, perSpan)) {
        sink.point(m.a * p.x + m.c * p.y + m.e, m.b * p.x + m.d * p.y + m.f)
      }
      sink.endPath(owner, colour)
      return
    }
    case 'hatch': {
      let drawing = cache.get(shape)
      if (!drawing) {
        drawing = hatchDrawing(shape.loops, shape.solid)
        cache.set(shape, drawing)
      }
      drawHatch(sink, drawing, at)
      return
    }
    case 'solid': {
      const corners = shape.corners
      const at3 = solidTriangles(corners)
      const xy = new Float64Array(corners.length * 2)
      corners.forEach((p, i) => {
        xy[2 * i] = p.x
        xy[2 * i + 1] = p.y
      })
      drawTriangles(sink, xy, at3, at)
      return
    }
  }
}

/**
 * A circle or arc: an arc entry while the placement keeps circles circles (a mirror reverses it,
 * so it is stored from its mapped end, counter-clockwise again), else a flattened path.
 */
function drawCircular(
  sink: GeometrySink,
  center: { x: number; y: number },
  radius: number,
  start: number,
  turn: number,
  at: Drawn,
): void {
  const { m, owner, colour } = at
  const scale = uniformScale(m)
  if (scale !== null) {
    const from = turn >= TWO_PI ? 0 : mapAngle(m, isMirrored(m) ? start + turn : start)
    sink.arc(
      owner,
      colour,
      m.a * center.x + m.c * center.y + m.e,
      m.b * center.x + m.d * center.y + m.f,
      radius * scale,
      normalAngle(from),
      turn,
    )
    return
  }
  if (!(radius > 0)) return
  sink.beginPath()
  conicPoints(
    sink,
    m,
    center,
    { x: radius, y: 0 },
    { x: 0, y: radius },
    start,
    turn,
    at.tolerance,
    ENDS,
  )
  sink.endPath(owner, colour)
}

function drawHatch(sink: GeometrySink, drawing: HatchDrawing, at: Drawn): void {
  const { m, owner, colour } = at
  for (const xy of drawing.outlines) {
    sink.beginPath()
    for (let i = 0; i < xy.length; i += 2) {
      sink.point(m.a * xy[i] + m.c * xy[i + 1] + m.e, m.b * xy[i] + m.d * xy[i + 1] + m.f)
    }
    sink.point(m.a * xy[0] + m.c * xy[1] + m.e, m.b * xy[0] + m.d * xy[1] + m.f)
    sink.endPath(owner, colour)
  }
  if (drawing.fill) drawTriangles(sink, drawing.fill.xy, drawing.fill.indices, at)
}

function drawTriangles(sink: GeometrySink, xy: Float64Array, indices: number[], at: Drawn): void {
  const { m, owner, colour } = at
  const x = (i: number) => m.a * xy[2 * i] + m.c * xy[2 * i + 1] + m.e
  const y = (i: number) => m.b * xy[2 * i] + m.d * xy[2 * i + 1] + m.f
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const [i, j, k] = [indices[t], indices[t + 1], indices[t + 2]]
    sink.triangle(owner, colour, x(i), y(i), x(j), y(j), x(k), y(k))
  }
}
