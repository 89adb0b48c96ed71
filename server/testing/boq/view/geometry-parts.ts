import type { DrawingGeometry } from '../../../../contract/drawing-geometry.ts'

/** What a geometry holds, for tests: back in drawing coordinates, colours as 0xRRGGBB. */

export type PathPart = { points: [number, number][]; owner: number; rgb: number }
export type ArcPart = {
  cx: number
  cy: number
  r: number
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
    cx: g.arcs[5 * a] + ox,
    cy: g.arcs[5 * a + 1] + oy,
    r: g.arcs[5 * a + 2],
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
