import type { DrawingGeometry, DrawnGeometry } from '../drawing-geometry.ts'
import { GeometryHandles } from '../geometry-handles.ts'

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

/** geometryOf as the drawing view holds it (decodeDrawnGeometry): its handles as numbers. */
export function drawnGeometryOf(parts: GeometryParts = {}): DrawnGeometry {
  const geometry = geometryOf(parts)
  return { ...geometry, handles: GeometryHandles.of(geometry.handles) }
}

/*
 * What a geometry holds, read back in the words geometryOf is given: in drawing coordinates (the
 * origin added), each part with its owner's index and its colour as 0xRRGGBB.
 */

export type PathPart = { points: [number, number][]; owner: number; rgb: number }
export type ArcPart = {
  x: number
  y: number
  radius: number
  start: number
  sweep: number
  owner: number
  rgb: number
}
export type TrianglePart = { corners: [number, number][]; owner: number; rgb: number }

export function pathsOf(g: DrawingGeometry): PathPart[] {
  const [ox, oy] = g.origin
  return Array.from(g.pathOwners, (owner, p) => {
    const points: [number, number][] = []
    for (let i = g.pathStarts[p]; i < g.pathStarts[p + 1]; i++) {
      points.push([g.points[2 * i] + ox, g.points[2 * i + 1] + oy])
    }
    return { points, owner, rgb: g.colours[g.pathColours[p]] }
  })
}

export function arcsOf(g: DrawingGeometry): ArcPart[] {
  const [ox, oy] = g.origin
  return Array.from(g.arcOwners, (owner, a) => ({
    x: g.arcs[5 * a] + ox,
    y: g.arcs[5 * a + 1] + oy,
    radius: g.arcs[5 * a + 2],
    start: g.arcs[5 * a + 3],
    sweep: g.arcs[5 * a + 4],
    owner,
    rgb: g.colours[g.arcColours[a]],
  }))
}

export function trianglesOf(g: DrawingGeometry): TrianglePart[] {
  const [ox, oy] = g.origin
  return Array.from(g.triangleOwners, (owner, t) => ({
    corners: [0, 1, 2].map((k): [number, number] => [
      g.triangles[6 * t + 2 * k] + ox,
      g.triangles[6 * t + 2 * k + 1] + oy,
    ]),
    owner,
    rgb: g.colours[g.triangleColours[t]],
  }))
}

/** A triangle's area, whichever way round it runs. */
export function triangleArea({ corners: [a, b, c] }: TrianglePart): number {
  return Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2
}
