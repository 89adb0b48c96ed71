import {
  Clipper,
  Clipper64,
  ClipType,
  FillRule,
  type Path64,
  type Paths64,
  PointInPolygonResult,
} from 'clipper2-ts'
import type { Box, Path } from './flatten.ts'

/**
 * Clipper2 works in integers: drawing coordinates are taken relative to the zones' centre and
 * scaled so that the zones span about 2³⁶ steps, and no point of the drawing passes 2⁵⁰, short
 * of 2⁵³ where doubles stop being exact integers.
 */
export class Frame {
  private readonly cx: number
  private readonly cy: number
  private readonly scale: number

  /** `box`: the zones'; `size`: the drawing's (the larger side of its extents). */
  constructor(box: Box, size: number) {
    this.cx = Number.isFinite(box[0]) ? (box[0] + box[2]) / 2 : 0
    this.cy = Number.isFinite(box[1]) ? (box[1] + box[3]) / 2 : 0
    const extent = Math.max(box[2] - box[0], box[3] - box[1])
    const fine = extent > 0 && Number.isFinite(extent) ? 2 ** 36 / extent : 1
    // Every point of the drawing lies within twice its size of the zones' centre.
    const reach = Math.max(2 * size, extent, 1e-12)
    this.scale = Math.min(fine, 2 ** 50 / (Number.isFinite(reach) ? reach : 2e12))
  }

  path(path: Path): Path64 {
    const out: Path64 = new Array(path.length)
    for (let i = 0; i < path.length; i++) {
      out[i] = {
        x: Math.round((path[i].x - this.cx) * this.scale),
        y: Math.round((path[i].y - this.cy) * this.scale),
      }
    }
    return out
  }

  paths(paths: Path[]): Paths64 {
    return paths.map((path) => this.path(path))
  }

  /** An area in the frame's units squared, in drawing units squared. */
  area(scaled: number): number {
    return scaled / (this.scale * this.scale)
  }

  /**
   * A box of drawing coordinates in the frame, a step wider each way than its corners round to,
   * so that it holds every point of what it held as the frame rounds them.
   */
  box(box: Box): Box {
    return [
      Math.round((box[0] - this.cx) * this.scale) - 2,
      Math.round((box[1] - this.cy) * this.scale) - 2,
      Math.round((box[2] - this.cx) * this.scale) + 2,
      Math.round((box[3] - this.cy) * this.scale) + 2,
    ]
  }

  point(x: number, y: number): { x: number; y: number } {
    return { x: Math.round((x - this.cx) * this.scale), y: Math.round((y - this.cy) * this.scale) }
  }
}

/** The region rings enclose by a fill rule (a self-crossing outline is what the rule makes of it). */
export function regionOf(rings: Paths64, evenOdd = false): Paths64 {
  return Clipper.union(rings, evenOdd ? FillRule.EvenOdd : FillRule.NonZero)
}

/** The area a region covers (outer rings less holes), in the frame's units squared. */
export function areaOf(region: Paths64): number {
  return Math.abs(Clipper.areaPaths(region))
}

export function intersection(a: Paths64, b: Paths64): Paths64 {
  return Clipper.intersect(a, b, FillRule.NonZero)
}

export function difference(a: Paths64, b: Paths64): Paths64 {
  return Clipper.difference(a, b, FillRule.NonZero)
}

/** The parts of open paths inside a region. */
export function clipOpen(paths: Paths64, region: Paths64): Paths64 {
  const clipper = new Clipper64()
  clipper.addOpenSubject(paths)
  clipper.addClip(region)
  const closed: Paths64 = []
  const open: Paths64 = []
  clipper.execute(ClipType.Intersection, FillRule.NonZero, closed, open)
  return open
}

export type Placement = 'in' | 'on' | 'out'

/** Where a point is in a region of outer rings and holes (Clipper's rings do not overlap). */
export function placeIn(point: { x: number; y: number }, region: Paths64): Placement {
  let inside = false
  for (const ring of region) {
    const where = Clipper.pointInPolygon(point, ring)
    if (where === PointInPolygonResult.IsOn) return 'on'
    if (where === PointInPolygonResult.IsInside) inside = !inside
  }
  return inside ? 'in' : 'out'
}

export function length64(path: Path64): number {
  let total = 0
  for (let i = 1; i < path.length; i++)
    total += Math.hypot(path[i].x - path[i - 1].x, path[i].y - path[i - 1].y)
  return total
}
