import {
  Clipper,
  Clipper64,
  ClipType,
  FillRule,
  InternalClipper,
  type Path64,
  type Paths64,
  type Point64,
  PointInPolygonResult,
} from 'clipper2-ts'
import Flatbush from 'flatbush'
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
   * so that it holds every point of what it held as the frame rounds them. Written into `out`
   * when given (it may be `box` itself).
   */
  box(box: Box, out: Box = [0, 0, 0, 0]): Box {
    out[0] = Math.round((box[0] - this.cx) * this.scale) - 2
    out[1] = Math.round((box[1] - this.cy) * this.scale) - 2
    out[2] = Math.round((box[2] - this.cx) * this.scale) + 2
    out[3] = Math.round((box[3] - this.cy) * this.scale) + 2
    return out
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

/** Rings of fewer corners than this are placed in by Clipper's own test, which reads them all. */
const FEW_CORNERS = 64

/** How many edges nearest a point tell which way the boundary beside it runs. */
const NEAR_EDGES = 16

/**
 * `placeIn` for one region asked about many points: the same answer, from only the edges that
 * reach a ray from the point (indexed once), where Clipper's test reads every corner of every ring
 * for each point. A point is on the region when it lies on one of those edges, else in it when the
 * ray crosses the rings an odd number of times: the parity Clipper's test takes ring by ring, the
 * same whichever way the ray goes, so it goes the way that meets fewest edges. Orientations are
 * Clipper's own exact ones. Rings Clipper's test takes as no polygon (under three
 * corners, or all of one row) are left out, as it leaves them.
 */
export class Placer {
  private readonly region: Paths64
  private readonly edges: { a: Point64; b: Point64 }[] = []
  private readonly index: Flatbush | null = null
  private readonly box: [number, number, number, number] = [
    Infinity,
    Infinity,
    -Infinity,
    -Infinity,
  ]

  constructor(region: Paths64) {
    this.region = region
    let corners = 0
    for (const ring of region) corners += ring.length
    if (corners < FEW_CORNERS) return
    for (const ring of region) {
      if (ring.length < 3 || ring.every((p) => p.y === ring[0].y)) continue
      for (let i = 0; i < ring.length; i++)
        this.edges.push({ a: ring[i], b: ring[(i + 1) % ring.length] })
    }
    if (this.edges.length === 0) return
    this.index = new Flatbush(this.edges.length)
    const box = this.box
    for (const { a, b } of this.edges) {
      const edge = [Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y)]
      this.index.add(edge[0], edge[1], edge[2], edge[3])
      box[0] = Math.min(box[0], edge[0])
      box[1] = Math.min(box[1], edge[1])
      box[2] = Math.max(box[2], edge[2])
      box[3] = Math.max(box[3], edge[3])
    }
    this.index.finish()
  }

  place(point: Point64): Placement {
    if (!this.index) return placeIn(point, this.region)
    const { x, y } = point
    // On an edge whose box holds it: on the region.
    let on = false
    this.index.search(x, y, x, y, (i) => {
      const { a, b } = this.edges[i]
      if (!on && (a.y === b.y || InternalClipper.crossProductSign(a, b, point) === 0)) on = true
      return false
    })
    if (on) return 'on'
    const [x0, y0, x1, y1] = this.box
    // The ray's way, and a quarter turn taking it to the left (turns keep every orientation).
    const ways = [
      { reach: x - x0, query: [-Infinity, y, x, y], turn: (p: Point64) => p },
      { reach: x1 - x, query: [x, y, Infinity, y], turn: (p: Point64) => ({ x: -p.x, y: -p.y }) },
      { reach: y - y0, query: [x, -Infinity, x, y], turn: (p: Point64) => ({ x: p.y, y: -p.x }) },
      { reach: y1 - y, query: [x, y, x, Infinity], turn: (p: Point64) => ({ x: -p.y, y: p.x }) },
    ]
    // A ray along the boundary meets the box of every edge it passes: it goes across the
    // boundary nearest the point (up or down when those edges run along x), then out of the
    // region's box the shorter way.
    const near: Box = [Infinity, Infinity, -Infinity, -Infinity]
    for (const i of this.index.neighbors(x, y, NEAR_EDGES)) {
      const { a, b } = this.edges[i]
      near[0] = Math.min(near[0], a.x, b.x)
      near[1] = Math.min(near[1], a.y, b.y)
      near[2] = Math.max(near[2], a.x, b.x)
      near[3] = Math.max(near[3], a.y, b.y)
    }
    const upright = near[2] - near[0] >= near[3] - near[1]
    const way = (upright ? ways.slice(2) : ways.slice(0, 2)).reduce((best, one) =>
      one.reach < best.reach ? one : best,
    )
    const at = way.turn(point)
    let inside = false
    const [qx0, qy0, qx1, qy1] = way.query
    this.index.search(qx0, qy0, qx1, qy1, (i) => {
      const a = way.turn(this.edges[i].a)
      const b = way.turn(this.edges[i].b)
      // An edge along the ray's row, or not across it, is no crossing.
      if (a.y > at.y === b.y > at.y) return false
      // Across the row left of the point, or past it: left when the point is right of the edge
      // going up (never on it: that was asked first).
      if (Math.max(a.x, b.x) < at.x) inside = !inside
      else if (InternalClipper.crossProductSign(a, b, at) === (b.y > a.y ? -1 : 1)) inside = !inside
      return false
    })
    return inside ? 'in' : 'out'
  }
}

export function length64(path: Path64): number {
  let total = 0
  for (let i = 1; i < path.length; i++)
    total += Math.hypot(path[i].x - path[i - 1].x, path[i].y - path[i - 1].y)
  return total
}
