import type { DrawingGeometry } from '../drawing-geometry.ts'

/** What a test says of a geometry, in plain numbers; the rest is filled in. */
export type GeometryParts = {
  handles?: string[]
  colours?: number[]
  origin?: [number, number]
  /** One path's x y pairs; or several paths with `paths`. */
  points?: number[]
  paths?: { points: number[]; owner?: number; colour?: number }[]
  arcs?: {
    x: number
    y: number
    radius: number
    start?: number
    sweep?: number
    owner?: number
    colour?: number
  }[]
  triangles?: { points: number[]; owner?: number; colour?: number }[]
}

/**
 * A DrawingGeometry for tests (server and app): paths, arcs and triangles owned by the handle at
 * `owner` (default 0) in the colour at `colour` (default 0); bounds from what is given.
 */
export function geometryOf(parts: GeometryParts = {}): DrawingGeometry {
  const paths = parts.paths ?? (parts.points ? [{ points: parts.points }] : [])
  const arcs = parts.arcs ?? []
  const triangles = parts.triangles ?? []
  const points = paths.flatMap((path) => path.points)
  const starts = [0]
  for (const path of paths) starts.push((starts.at(-1) ?? 0) + path.points.length / 2)
  const xs: number[] = []
  const ys: number[] = []
  const add = (values: number[]) => {
    for (const [i, value] of values.entries()) (i % 2 === 0 ? xs : ys).push(value)
  }
  add(points)
  for (const triangle of triangles) add(triangle.points)
  for (const arc of arcs)
    add([arc.x - arc.radius, arc.y - arc.radius, arc.x + arc.radius, arc.y + arc.radius])
  const bounds: DrawingGeometry['bounds'] =
    xs.length > 0
      ? [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]
      : [0, 0, 0, 0]
  return {
    origin: parts.origin ?? [0, 0],
    bounds,
    handles: parts.handles ?? ['1'],
    colours: parts.colours ?? [0xffffff],
    points: new Float32Array(points),
    pathStarts: new Uint32Array(paths.length > 0 ? starts : [0]),
    pathOwners: new Uint32Array(paths.map((path) => path.owner ?? 0)),
    pathColours: new Uint32Array(paths.map((path) => path.colour ?? 0)),
    arcs: new Float32Array(
      arcs.flatMap((arc) => [arc.x, arc.y, arc.radius, arc.start ?? 0, arc.sweep ?? 2 * Math.PI]),
    ),
    arcOwners: new Uint32Array(arcs.map((arc) => arc.owner ?? 0)),
    arcColours: new Uint32Array(arcs.map((arc) => arc.colour ?? 0)),
    triangles: new Float32Array(triangles.flatMap((triangle) => triangle.points)),
    triangleOwners: new Uint32Array(triangles.map((triangle) => triangle.owner ?? 0)),
    triangleColours: new Uint32Array(triangles.map((triangle) => triangle.colour ?? 0)),
  }
}
