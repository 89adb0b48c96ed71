import { InternalClipper, type Path64, type Paths64, type Point64 } from 'clipper2-ts'
import Flatbush from 'flatbush'
import { areaOf, clipOpen, difference, intersection, length64, Placer } from './clip.ts'
import { type Box, boxesOverlap } from './flatten.ts'
import type { FoundZone } from './zones.ts'

/**
 * The zones' regions, which never overlap: each zone's outline without the regions given before
 * it (deepest zones first, then the zone first in the drawing), so the innermost zone takes a
 * piece and, of two overlapping zones of one level, the earlier one. Indexed twice: the regions'
 * boxes (what may hold a point) and their boundary edges (a piece whose box meets none lies
 * wholly in one region or none, and needs no clipping).
 */

/**
 * `rings`: each ring's box, beside `paths`; `placer`: where a point is in `paths`, asked for each
 * point a piece gives it; `edges`: its boundary's edges as boxes (x0, y0, x1, y1 each), indexed
 * in `edgeIndex` when there are many of them.
 */
type Region = {
  zone: string
  /** The zone's place in `zones[]`. */
  slot: number
  paths: Paths64
  box: Box
  rings: Box[]
  placer: Placer
  edges: Float64Array
  /** Each edge's two ends, in the order of `edges`. */
  ends: Point64[]
  edgeIndex: Flatbush | null
}

/** Edges fewer than this are read one by one; more are looked up in an index of their boxes. */
const FEW_EDGES = 32

/** A figure's parts by zone id (null: no zone), in the frame's units. */
export type Parts = Map<string | null, number>

function box64(paths: Paths64): Box {
  const out: Box = [Infinity, Infinity, -Infinity, -Infinity]
  for (const path of paths)
    for (const p of path) {
      if (p.x < out[0]) out[0] = p.x
      if (p.y < out[1]) out[1] = p.y
      if (p.x > out[2]) out[2] = p.x
      if (p.y > out[3]) out[3] = p.y
    }
  return out
}

function edgeBoxes(paths: Paths64): Float64Array {
  let count = 0
  for (const ring of paths) count += ring.length
  const out = new Float64Array(count * 4)
  let at = 0
  for (const ring of paths)
    for (let i = 0; i < ring.length; i++) {
      const a = ring[i]
      const b = ring[(i + 1) % ring.length]
      out[at++] = Math.min(a.x, b.x)
      out[at++] = Math.min(a.y, b.y)
      out[at++] = Math.max(a.x, b.x)
      out[at++] = Math.max(a.y, b.y)
    }
  return out
}

function indexOfBoxes(boxes: Float64Array): Flatbush | null {
  const count = boxes.length / 4
  if (count < FEW_EDGES) return null
  const index = new Flatbush(count)
  for (let i = 0; i < boxes.length; i += 4)
    index.add(boxes[i], boxes[i + 1], boxes[i + 2], boxes[i + 3])
  index.finish()
  return index
}

/**
 * Calls `visit` with each edge of the region whose box meets the box (touching included), by its
 * number, until it answers true; whether it did.
 */
function someEdgeMeeting(
  region: Region,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  visit: (edge: number) => boolean,
): boolean {
  if (region.edgeIndex) {
    let found = false
    region.edgeIndex.search(x0, y0, x1, y1, (k) => {
      if (!found && visit(k)) found = true
      return false
    })
    return found
  }
  const edges = region.edges
  for (let i = 0; i < edges.length; i += 4)
    if (edges[i] <= x1 && x0 <= edges[i + 2] && edges[i + 1] <= y1 && y0 <= edges[i + 3])
      if (visit(i / 4)) return true
  return false
}

const ANY = () => true

/** Whether an edge of the region meets the box (touching included). */
function edgeMeets(region: Region, x0: number, y0: number, x1: number, y1: number): boolean {
  return someEdgeMeeting(region, x0, y0, x1, y1, ANY)
}

export class Regions {
  /** In allocation order: the first holding a point takes it. */
  private readonly regions: Region[] = []
  private readonly index: Flatbush | null
  /** One look-up's question and answer, kept here so that no look-up makes a closure of its own. */
  private readonly query = {
    x0: 0,
    y0: 0,
    x1: 0,
    y1: 0,
    point: { x: 0, y: 0 },
    first: 0,
    cut: false,
  }
  private readonly visit = (i: number): boolean => {
    const { query } = this
    const region = this.regions[i]
    if (query.cut) return false
    if (edgeMeets(region, query.x0, query.y0, query.x1, query.y1)) query.cut = true
    else if (i < query.first && this.holds(region, query.point)) query.first = i
    return false
  }

  /** The zones' ids by slot. */
  readonly ids: string[]
  private readonly slots: Map<string, number>
  /** The region the last box found wholly in one fell in (-1: none yet). */
  private last = -1

  constructor(zones: FoundZone[]) {
    this.ids = zones.map((z) => z.zone.id)
    this.slots = new Map(this.ids.map((id, slot) => [id, slot]))
    const ordered = zones
      .map((zone, slot) => ({ ...zone, slot }))
      .sort((a, b) => b.depth - a.depth || a.order - b.order)
    const boxes = ordered.map((z) => box64(z.outline))
    const all = boxes.length > 0 ? new Flatbush(boxes.length) : null
    for (const b of boxes) all?.add(b[0], b[1], b[2], b[3])
    all?.finish()
    ordered.forEach((zone, rank) => {
      // Regions that only touch this one take nothing from it.
      const before = all
        ? all.search(...boxes[rank]).filter((i) => i < rank && boxesOverlap(boxes[i], boxes[rank]))
        : []
      const taken = before.flatMap((i) => this.regions[i].paths)
      const paths = taken.length > 0 ? difference(zone.outline, taken) : zone.outline
      const edges = edgeBoxes(paths)
      const ends = paths.flatMap((ring) => ring.flatMap((a, i) => [a, ring[(i + 1) % ring.length]]))
      this.regions.push({
        zone: zone.zone.id,
        slot: zone.slot,
        paths,
        box: paths.length > 0 ? box64(paths) : boxes[rank],
        rings: paths.map((ring) => box64([ring])),
        placer: new Placer(paths),
        edges,
        ends,
        edgeIndex: indexOfBoxes(edges),
      })
    })
    if (this.regions.length === 0) this.index = null
    else {
      const index = new Flatbush(this.regions.length)
      for (const { box } of this.regions) index.add(box[0], box[1], box[2], box[3])
      index.finish()
      this.index = index
    }
  }

  private holds(region: Region, point: { x: number; y: number }): boolean {
    const { box } = region
    if (point.x < box[0] || point.y < box[1] || point.x > box[2] || point.y > box[3]) return false
    return region.placer.place(point) !== 'out'
  }

  /**
   * Asks the regions whose box meets the box (frame units) whether a boundary runs through it,
   * and which first holds the point: the answer in `query`.
   */
  private ask(x0: number, y0: number, x1: number, y1: number, x: number, y: number): void {
    const { query } = this
    query.x0 = x0
    query.y0 = y0
    query.x1 = x1
    query.y1 = y1
    query.point.x = x
    query.point.y = y
    query.first = this.regions.length
    query.cut = false
    this.index?.search(x0, y0, x1, y1, this.visit)
  }

  private crossesAnEdge(box: Box): boolean {
    this.ask(box[0], box[1], box[2], box[3], box[0], box[1])
    return this.query.cut
  }

  /**
   * The slot (place in `zones[]`) of the zone holding the whole of a box (frame units), -1 when no
   * zone holds any of it, or undefined when a boundary runs through it (what is in it must then
   * be clipped).
   */
  slotOfBox(box: Box): number | undefined {
    if (!(box[0] <= box[2] && box[1] <= box[3])) return undefined
    const last = this.regions[this.last]
    if (last && this.wholly(box, last)) return last.slot
    this.ask(box[0], box[1], box[2], box[3], box[0], box[1])
    const { cut, first } = this.query
    if (cut) return undefined
    if (first < this.regions.length) this.last = first
    return first < this.regions.length ? this.regions[first].slot : -1
  }

  /**
   * Whether a box lies wholly inside a region: within its box, meeting none of its edges, and a
   * corner inside it. No other region reaches into it then (regions never overlap), so the
   * region takes the box without the index being asked; the piece before, most often beside
   * this one, says which region to try.
   */
  private wholly(box: Box, region: Region): boolean {
    const [x0, y0, x1, y1] = region.box
    if (box[0] < x0 || box[1] < y0 || box[2] > x1 || box[3] > y1) return false
    if (edgeMeets(region, box[0], box[1], box[2], box[3])) return false
    const { point } = this.query
    point.x = box[0]
    point.y = box[1]
    return region.placer.place(point) === 'in'
  }

  /**
   * The slot of the zone holding a point (inside or on its boundary), the first in allocation
   * order; or -1.
   */
  slotAt(point: { x: number; y: number }): number {
    const first = this.firstAt(point)
    return first < this.regions.length ? this.regions[first].slot : -1
  }

  /** The first region in allocation order holding a point; the regions' count when none does. */
  private firstAt(point: { x: number; y: number }): number {
    const { query } = this
    query.point.x = point.x
    query.point.y = point.y
    query.first = this.regions.length
    this.index?.search(point.x, point.y, point.x, point.y, this.visitPoint)
    return query.first
  }

  /** A zone's slot by its id; -1 for none (null). */
  slotOf(zone: string | null): number {
    return zone === null ? -1 : (this.slots.get(zone) ?? -1)
  }

  /** The zone holding a point, as slotAt finds it: its id, or null. */
  zoneAt(point: { x: number; y: number }): string | null {
    const slot = this.slotAt(point)
    return slot < 0 ? null : this.ids[slot]
  }

  private readonly visitPoint = (i: number): boolean => {
    const { query } = this
    if (i < query.first && this.holds(this.regions[i], query.point)) query.first = i
    return false
  }

  /** Regions whose box meets `box`, in allocation order. */
  private near(box: Box): number[] {
    return this.index ? this.index.search(...box).sort((a, b) => a - b) : []
  }

  /** Open paths' lengths by zone (a piece's linework, or an area's boundary). */
  lengths(paths: Paths64): Parts {
    const total = paths.reduce((sum, path) => sum + length64(path), 0)
    const parts: Parts = new Map()
    if (!(total > 0)) return parts
    const box = box64(paths)
    if (!this.crossesAnEdge(box)) {
      parts.set(this.zoneAt(paths[0][0]), total)
      return parts
    }
    // A long path's box meets many regions that none of its segments comes near.
    const near = this.near(box).filter((i) => pathsMeetBox(paths, this.regions[i].box))
    const rest = this.offBoundaries(paths, near, parts)
    const clipped = new Map<number, Paths64>()
    const along: Along[] = []
    for (const i of rest.length > 0 ? near : []) {
      const region = this.regions[i]
      let inside = 0
      const given = clipOpen(rest, ringsMeeting(region, box))
      clipped.set(i, given)
      for (const part of given) inside += this.ownLength(part, i, along)
      if (inside > 0) parts.set(region.zone, (parts.get(region.zone) ?? 0) + inside)
    }
    // A segment along a boundary that Clipper gave to the region not taking it, and not to the
    // one that does: that one takes it (once, however many regions were given it).
    const taken = new Set<string>()
    const segmentsOf = new Map<number, Segments>()
    for (const { first, a, b, length } of along) {
      const key = `${first} ${a.x} ${a.y} ${b.x} ${b.y}`
      if (taken.has(key)) continue
      let segments = segmentsOf.get(first)
      if (!segments) {
        segments = new Segments(clipped.get(first) ?? [])
        segmentsOf.set(first, segments)
      }
      if (segments.hold(a, b)) continue
      taken.add(key)
      const { zone } = this.regions[first]
      parts.set(zone, (parts.get(zone) ?? 0) + length)
    }
    return withRest(parts, total)
  }

  /**
   * The paths less what of them lies along an edge of a region (of `near`): each stretch of a
   * segment that does is the first such region's, added to `parts`. Clipper gives a stretch
   * along its clip's edge to either side, or to neither.
   */
  private offBoundaries(paths: Paths64, near: number[], parts: Parts): Paths64 {
    const rest: Paths64 = []
    for (const path of paths) {
      let run: Path64 = [path[0]]
      for (let k = 1; k < path.length; k++) {
        for (const { from, to, region } of this.stretches(path[k - 1], path[k], near)) {
          if (region === undefined) {
            if (run[run.length - 1] !== from) run = [from]
            run.push(to)
            if (run.length === 2) rest.push(run)
            continue
          }
          const { zone } = this.regions[region]
          parts.set(zone, (parts.get(zone) ?? 0) + Math.hypot(to.x - from.x, to.y - from.y))
        }
      }
    }
    return rest
  }

  /**
   * Segment ab cut where the region edges along it (of `near`) begin and end, in order from a:
   * each stretch with the first region one of whose edges it lies on, if any. The cuts are the
   * edges' own corners, so every stretch ends on integers, as Clipper needs.
   */
  private stretches(a: Point64, b: Point64, near: number[]): Stretch[] {
    const along: { t0: number; t1: number; region: number }[] = []
    const cuts = new Map<number, Point64>([
      [0, a],
      [1, b],
    ])
    const dx = b.x - a.x
    const dy = b.y - a.y
    const squared = dx * dx + dy * dy
    if (squared === 0) return []
    const at = (p: Point64) => ((p.x - a.x) * dx + (p.y - a.y) * dy) / squared
    const [x0, y0, x1, y1] = [
      Math.min(a.x, b.x),
      Math.min(a.y, b.y),
      Math.max(a.x, b.x),
      Math.max(a.y, b.y),
    ]
    for (const i of near) {
      const { box, ends } = this.regions[i]
      if (x1 < box[0] || y1 < box[1] || x0 > box[2] || y0 > box[3]) continue
      someEdgeMeeting(this.regions[i], x0, y0, x1, y1, (edge) => {
        const [p, q] = [ends[2 * edge], ends[2 * edge + 1]]
        if (InternalClipper.crossProductSign(a, b, p) !== 0) return false
        if (InternalClipper.crossProductSign(a, b, q) !== 0) return false
        const [tp, tq] = [at(p), at(q)]
        const t0 = Math.max(0, Math.min(tp, tq))
        const t1 = Math.min(1, Math.max(tp, tq))
        if (!(t1 > t0)) return false
        along.push({ t0, t1, region: i })
        if (tp > 0 && tp < 1) cuts.set(tp, p)
        if (tq > 0 && tq < 1) cuts.set(tq, q)
        return false
      })
    }
    if (along.length === 0) return [{ from: a, to: b, region: undefined }]
    const ts = [...cuts.keys()].sort((x, y) => x - y)
    const out: Stretch[] = []
    for (let k = 1; k < ts.length; k++) {
      const [u, v] = [ts[k - 1], ts[k]]
      let region: number | undefined
      for (const one of along)
        if (one.t0 <= u && v <= one.t1 && (region === undefined || one.region < region))
          region = one.region
      out.push({ from: cuts.get(u) as Point64, to: cuts.get(v) as Point64, region })
    }
    return out
  }

  /**
   * The length of a part Clipper gives for region i that is the region's own: each segment whose
   * midpoint lies inside it, and each running along its boundary that the region first in
   * allocation order holding its midpoint is (never two). Clipper gives such a segment to both
   * sides, or to one only, which may be the other: those go to `along`. Clipper gives nothing
   * outside the region: a midpoint found outside was rounded off its boundary (a slanting one),
   * and is the region's unless the region it was rounded into takes it.
   */
  private ownLength(part: Path64, i: number, along: Along[]): number {
    const region = this.regions[i]
    let own = 0
    for (let k = 1; k < part.length; k++) {
      const a = part[k - 1]
      const b = part[k]
      // Clipper's points are integers; so is the midpoint tested (one decision for both sides).
      const mid = { x: Math.round((a.x + b.x) / 2), y: Math.round((a.y + b.y) / 2) }
      const where = region.placer.place(mid)
      const length = Math.hypot(b.x - a.x, b.y - a.y)
      if (where === 'in') {
        own += length
        continue
      }
      const first = this.firstAt(mid)
      if (first === i || first === this.regions.length) own += length
      else along.push({ first, a, b, length })
    }
    return own
  }

  /** A region's (an area piece's) area by zone. */
  areas(piece: Paths64): Parts {
    const total = areaOf(piece)
    const parts: Parts = new Map()
    if (!(total > 0)) return parts
    const box = box64(piece)
    if (!this.crossesAnEdge(box)) {
      parts.set(this.zoneAt(piece[0][0]), total)
      return parts
    }
    for (const i of this.near(box)) {
      const region = this.regions[i]
      if (!boxesOverlap(box, region.box)) continue
      const shared = areaOf(intersection(piece, ringsMeeting(region, box)))
      if (shared > 0) parts.set(region.zone, (parts.get(region.zone) ?? 0) + shared)
    }
    return withRest(parts, total)
  }
}

/**
 * The region's rings whose box meets `box` (touching included): what the region is within the
 * box, as the rest lie wholly outside it. A piece is clipped with those alone, not with every
 * ring of a zone whose holes (say a finely drawn room inside it) it comes nowhere near.
 */
function ringsMeeting(region: Region, box: Box): Paths64 {
  const near = region.paths.filter((_, k) => boxesMeet(region.rings[k], box))
  return near.length === region.paths.length ? region.paths : near
}

function boxesMeet(a: Box, b: Box): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3]
}

/** A segment ab on region `first`'s boundary, and its length, given by another's clip. */
type Along = { first: number; a: Point64; b: Point64; length: number }

/** The segments of paths, indexed: whether one of them holds a given segment. */
class Segments {
  private readonly ends: [Point64, Point64][] = []
  private readonly index: Flatbush | null = null

  constructor(paths: Paths64) {
    for (const path of paths)
      for (let k = 1; k < path.length; k++) this.ends.push([path[k - 1], path[k]])
    if (this.ends.length === 0) return
    this.index = new Flatbush(this.ends.length)
    for (const [p, q] of this.ends)
      this.index.add(Math.min(p.x, q.x), Math.min(p.y, q.y), Math.max(p.x, q.x), Math.max(p.y, q.y))
    this.index.finish()
  }

  /** Whether segment ab lies on one of the segments. */
  hold(a: Point64, b: Point64): boolean {
    if (!this.index) return false
    let found = false
    const box = [Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y)]
    this.index.search(box[0], box[1], box[2], box[3], (i) => {
      const [p, q] = this.ends[i]
      if (!found && onSegment(p, q, a) && onSegment(p, q, b)) found = true
      return false
    })
    return found
  }
}

/** A stretch of a segment, and the region along whose edge it lies (if any). */
type Stretch = { from: Point64; to: Point64; region: number | undefined }

function onSegment(p: Point64, q: Point64, point: Point64): boolean {
  if (point.x < Math.min(p.x, q.x) || point.x > Math.max(p.x, q.x)) return false
  if (point.y < Math.min(p.y, q.y) || point.y > Math.max(p.y, q.y)) return false
  return InternalClipper.crossProductSign(p, q, point) === 0
}

/** What the zones leave of the total is no zone's; shares never add up past the whole. */
function withRest(parts: Parts, total: number): Parts {
  let sum = 0
  for (const value of parts.values()) sum += value
  if (sum > total) {
    for (const [zone, value] of parts) parts.set(zone, (value / sum) * total)
    return parts
  }
  if (total - sum > 0) parts.set(null, (parts.get(null) ?? 0) + total - sum)
  return parts
}

/** Whether some segment of the paths meets a box (its inside or its edge). */
function pathsMeetBox(paths: Paths64, box: Box): boolean {
  for (const path of paths)
    for (let k = 1; k < path.length; k++)
      if (segmentMeetsBox(path[k - 1], path[k], box)) return true
  return false
}

/** Liang–Barsky: the part of segment ab within the box's slabs, if any is left. */
function segmentMeetsBox(a: Point64, b: Point64, box: Box): boolean {
  let t0 = 0
  let t1 = 1
  const d = [b.x - a.x, b.y - a.y]
  const from = [a.x, a.y]
  for (let axis = 0; axis < 2; axis++) {
    const low = box[axis] - from[axis]
    const high = box[axis + 2] - from[axis]
    if (d[axis] === 0) {
      if (low > 0 || high < 0) return false
      continue
    }
    let near = low / d[axis]
    let far = high / d[axis]
    if (near > far) [near, far] = [far, near]
    if (near > t0) t0 = near
    if (far < t1) t1 = far
    if (t0 > t1) return false
  }
  return true
}
