import type { Paths64 } from 'clipper2-ts'
import Flatbush from 'flatbush'
import { ZONE_PATH_SEPARATOR, type Zone } from '#contract/locations.ts'
import { ellipseLength, splineLength } from '../measure/curves/curves.ts'
import { polylineLength, polylineSignedArea } from '../measure/curves/polyline.ts'
import type { Drawing } from '../model/drawing.ts'
import type { PictureEntity, Shape } from '../model/picture.ts'
import type { BillUnits } from '../model/schema.ts'
import { areaOf, type Frame, intersection as intersectionOf, Placer, regionOf } from './clip.ts'
import {
  type Box,
  boxesOverlap,
  boxOfPaths,
  isOpenOutline,
  type Path,
  pathLength,
  ringsOf,
  type XY,
} from './flatten.ts'
import {
  labelLayersUnmatched,
  listed,
  nothingFound,
  type RowProblem,
  type RowProblemKind,
} from './row-problems.ts'
import type { CompiledLocation, CompiledLocations } from './table.ts'

/**
 * The zones of a drawing: closed outlines on the layers a locations row takes, named from the
 * text or room tag inside (or their layer), nested by containment into paths.
 */

/** A zone as found, with what allocation needs: its outline in the frame, depth, drawing order. */
export type FoundZone = {
  zone: Zone
  /** The outline as a region (a self-crossing one as the non-zero rule makes it), frame units. */
  outline: Paths64
  box: Box
  /** 0 at the top level. */
  depth: number
  /** Its place in the drawing (model space order). */
  order: number
}

type Candidate = {
  entity: PictureEntity
  row: CompiledLocation
  rings: Path[]
  outline: Paths64
  /** Where a point is in `outline`: asked for each corner of the zones within, each label. */
  placer: Placer
  box: Box
  /** Drawing units. */
  area: number
  perimeter: number
  order: number
  parent: Candidate | null
  depth: number
  name: string
  label: Zone['label']
  otherLabels: string[]
  attributes?: Record<string, string>
  centre: XY
}

type Label = {
  text: string
  handle: string
  x: number
  y: number
  attributes?: Record<string, string>
}

function rowFor(rows: CompiledLocation[], layer: string): CompiledLocation | undefined {
  return rows.find((row) => row.layer.test(layer))
}

/** The outline's own area and perimeter, arcs as arcs (drawing units). */
function exactFigures(shape: Shape, rings: Path[]): { area: number; perimeter: number } {
  switch (shape.kind) {
    case 'polyline': {
      const vertices = shape.closed ? shape.vertices : shape.vertices.slice(0, -1)
      return {
        area: Math.abs(polylineSignedArea(vertices)),
        perimeter: polylineLength(vertices, true),
      }
    }
    case 'circle': {
      const r = Math.abs(shape.radius)
      return { area: Math.PI * r * r, perimeter: 2 * Math.PI * r }
    }
    case 'ellipse': {
      const a = Math.hypot(shape.major.x, shape.major.y)
      return {
        area: Math.PI * a * a * Math.abs(shape.ratio),
        perimeter: ellipseLength(shape.major, shape.ratio, shape.start, shape.end),
      }
    }
    case 'spline':
      return { area: Math.abs(shoelace(rings[0])), perimeter: splineLength(shape.spline) }
    default:
      return {
        area: Math.abs(shoelace(rings[0])),
        perimeter: pathLength([...rings[0], rings[0][0]]),
      }
  }
}

function shoelace(ring: Path): number {
  let twice = 0
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    twice += ring[j].x * ring[i].y - ring[i].x * ring[j].y
  return twice / 2
}

/** The area centroid of a ring (its first corner for a ring of no area). */
function centroid(ring: Path): XY {
  let twice = 0
  let cx = 0
  let cy = 0
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const cross = ring[j].x * ring[i].y - ring[i].x * ring[j].y
    twice += cross
    cx += (ring[j].x + ring[i].x) * cross
    cy += (ring[j].y + ring[i].y) * cross
  }
  if (twice === 0) return ring[0]
  return { x: cx / (3 * twice), y: cy / (3 * twice) }
}

/**
 * The zones, the warnings of what they could not take (as the bill says them), and the same
 * problems by the row of the table each concerns, with what only a row is told.
 */
export type ZoneFinding = { zones: FoundZone[]; warnings: string[]; problems: RowProblem[] }

/**
 * Every zone of the drawing. `insertAt` gives a reference's insertion point in world
 * coordinates (the picture's, mirrored ones turned), by handle.
 */
export function findZones(
  drawing: Drawing,
  locations: CompiledLocations,
  units: BillUnits,
  frameOf: (box: Box) => Frame,
  tolerance: number,
  insertAt: (handle: string) => XY | undefined,
): ZoneFinding & { frame: Frame } {
  const warnings: string[] = []
  const problems: RowProblem[] = []
  const problem = (row: CompiledLocation, kind: RowProblemKind, message: string) =>
    problems.push({ row: row.row, kind, message })
  const open = new Map<string, { row: CompiledLocation; count: number }>()
  // Each layer of the drawing's shapes and the row taking it: a row that finds nothing says why.
  const layers = new Map<string, CompiledLocation | undefined>()
  const rowOf = (layer: string) => {
    let row = layers.get(layer)
    if (row === undefined && !layers.has(layer)) {
      row = rowFor(locations.rows, layer)
      layers.set(layer, row)
    }
    return row
  }
  for (const t of drawing.texts) rowOf(t.layer)
  const raw: Omit<Candidate, 'outline' | 'placer'>[] = []
  drawing.picture.modelSpace.forEach((entity, order) => {
    const row = rowOf(entity.layer)
    if (!row || !entity.shape) return
    const rings = ringsOf(entity.shape, tolerance)
    if (!rings || entity.shape.kind === 'hatch') {
      if (isOpenOutline(entity.shape, tolerance)) {
        const seen = open.get(entity.layer) ?? { row, count: 0 }
        seen.count++
        open.set(entity.layer, seen)
      }
      return
    }
    const { area, perimeter } = exactFigures(entity.shape, rings)
    if (!Number.isFinite(area) || !Number.isFinite(perimeter)) return
    raw.push({
      entity,
      row,
      rings,
      box: boxOfPaths(rings),
      area,
      perimeter,
      order,
      parent: null,
      depth: 0,
      name: '',
      label: { source: 'none' },
      otherLabels: [],
      centre: centroid(rings[0]),
    })
  })
  for (const [layer, { row, count }] of open) {
    const message = `${count === 1 ? '1 outline' : `${count.toLocaleString('en')} outlines`} on zone layer ${layer} ${count === 1 ? 'is' : 'are'} not closed: not ${count === 1 ? 'a zone' : 'zones'}.`
    warnings.push(message)
    problem(row, 'open', message)
  }
  const frame = frameOf(raw.length > 0 ? unionBox(raw.map((c) => c.box)) : [0, 0, 0, 0])
  const crossing: Candidate[] = []
  const candidates: Candidate[] = []
  for (const c of raw) {
    const outline = regionOf(frame.paths(c.rings))
    const covered = areaOf(outline)
    if (!(covered > 0)) continue
    const flat = Math.abs(shoelace(frame.path(c.rings[0])))
    const candidate = { ...c, outline, placer: new Placer(outline) }
    if (outline.length > 1 || Math.abs(covered - flat) > 1e-6 * flat) {
      crossing.push(candidate)
      // Its own figure cancels where it crosses: the region's is what it encloses.
      candidate.area = frame.area(covered)
    }
    candidates.push(candidate)
  }
  if (crossing.length > 0) {
    warnings.push(crossingWarning(crossing))
    for (const [row, ones] of byRow(crossing)) problem(row, 'crossing', crossingWarning(ones))
  }
  const index = boxIndex(candidates.map((c) => c.box))
  nest(candidates, index, frame)
  label(candidates, drawing, index, frame, insertAt)
  for (const said of [...name(candidates), ...overlaps(candidates, index)]) {
    warnings.push(said.warning)
    problems.push(...said.problems)
  }
  problems.push(...labelLayerProblems(locations.rows, drawing))
  const found = new Set(candidates.map((c) => c.row.row))
  problems.push(...nothingFound(locations.rows, found, layers))
  // In the table's order, each row's in the order found.
  const inOrder = problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => a.p.row - b.p.row || a.i - b.i)
    .map(({ p }) => p)
  return { zones: asZones(candidates, units), warnings, problems: inOrder, frame }
}

/** A bill's warning and what it says again by row. */
type Said = { warning: string; problems: RowProblem[] }

/** The candidates by the row that took each, rows in the table's order. */
function byRow(candidates: Candidate[]): Map<CompiledLocation, Candidate[]> {
  const rows = new Map<CompiledLocation, Candidate[]>()
  for (const c of [...candidates].sort((a, b) => a.row.row - b.row.row)) {
    const list = rows.get(c.row) ?? []
    list.push(c)
    rows.set(c.row, list)
  }
  return rows
}

/** Each outline named as the bill's pieces are: its entity's handle, on its layer. */
function crossingWarning(crossing: Candidate[]): string {
  const names = crossing.map((c) => `entity ${c.entity.handle} on layer ${c.entity.layer}`)
  return `${crossing.length === 1 ? 'A zone outline crosses itself' : `${crossing.length} zone outlines cross themselves`} (${listed(names)}): each is taken as the region the non-zero fill rule gives.`
}

/** The rows whose label layer holds no label of their source anywhere in the drawing. */
function labelLayerProblems(rows: CompiledLocation[], drawing: Drawing): RowProblem[] {
  const asking = rows.filter((row) => row.labelLayer && row.label.source !== 'layer')
  if (asking.length === 0) return []
  const textLayers = new Set(drawing.texts.map((t) => t.layer))
  const tagLayers = new Map<string, Set<string>>()
  for (const ref of drawing.inserts) {
    for (const a of ref.attributes) {
      const tag = a.tag.toUpperCase()
      const layers = tagLayers.get(tag) ?? new Set()
      layers.add(ref.layer)
      tagLayers.set(tag, layers)
    }
  }
  return labelLayersUnmatched(asking, textLayers, tagLayers)
}

function unionBox(boxes: Box[]): Box {
  const out: Box = [Infinity, Infinity, -Infinity, -Infinity]
  for (const b of boxes) {
    out[0] = Math.min(out[0], b[0])
    out[1] = Math.min(out[1], b[1])
    out[2] = Math.max(out[2], b[2])
    out[3] = Math.max(out[3], b[3])
  }
  return out
}

export function boxIndex(boxes: Box[]): Flatbush | null {
  if (boxes.length === 0) return null
  const index = new Flatbush(boxes.length)
  for (const b of boxes) index.add(b[0], b[1], b[2], b[3])
  index.finish()
  return index
}

/** Whether `inner` lies in `outer`: every corner inside it or on its boundary. */
function within(inner: Candidate, outer: Candidate, frame: Frame): boolean {
  if (inner.area >= outer.area) return false
  const [a, b] = [inner.box, outer.box]
  if (a[0] < b[0] || a[1] < b[1] || a[2] > b[2] || a[3] > b[3]) return false
  for (const ring of inner.rings)
    for (const p of ring) if (outer.placer.place(frame.point(p.x, p.y)) === 'out') return false
  return true
}

/** Parents by containment: the smallest zone holding each; depths from the top. */
function nest(candidates: Candidate[], index: Flatbush | null, frame: Frame): void {
  if (!index) return
  for (const c of candidates) {
    let parent: Candidate | null = null
    for (const i of index.search(...c.box)) {
      const other = candidates[i]
      if (other === c || (parent && other.area >= parent.area)) continue
      if (within(c, other, frame)) parent = other
    }
    c.parent = parent
  }
  const depthOf = (c: Candidate): number => {
    let depth = 0
    for (let p = c.parent; p && depth <= candidates.length; p = p.parent) depth++
    return depth
  }
  for (const c of candidates) c.depth = depthOf(c)
}

/** The innermost zone holding a point (its own outline, boundary included), or null. */
function innermost(
  candidates: Candidate[],
  index: Flatbush | null,
  frame: Frame,
  x: number,
  y: number,
): Candidate | null {
  if (!index) return null
  let best: Candidate | null = null
  const at = frame.point(x, y)
  for (const i of index.search(x, y, x, y)) {
    const c = candidates[i]
    if (best && (c.depth < best.depth || (c.depth === best.depth && c.area >= best.area))) continue
    if (c.placer.place(at) !== 'out') best = c
  }
  return best
}

/** Each zone's labels: texts or room tags held by it and by no zone within it. */
function label(
  candidates: Candidate[],
  drawing: Drawing,
  index: Flatbush | null,
  frame: Frame,
  insertAt: (handle: string) => XY | undefined,
): void {
  const found = new Map<Candidate, Label[]>()
  const offer = (layer: string, label: Label, wants: (row: CompiledLocation) => boolean) => {
    const zone = innermost(candidates, index, frame, label.x, label.y)
    if (!zone || !wants(zone.row)) return
    if (zone.row.labelLayer && !zone.row.labelLayer.test(layer)) return
    const list = found.get(zone) ?? []
    list.push(label)
    found.set(zone, list)
  }
  const rows = candidates.map((c) => c.row)
  if (rows.some((row) => row.label.source === 'text')) {
    for (const t of drawing.texts)
      offer(
        t.layer,
        { text: t.text, handle: t.handle, x: t.x, y: t.y },
        (row) => row.label.source === 'text',
      )
  }
  const tags = new Set(
    rows.flatMap((row) => (row.label.source === 'attribute' ? [row.label.tag.toUpperCase()] : [])),
  )
  if (tags.size > 0) {
    for (const ref of drawing.inserts) {
      if (!ref.attributes.some((a) => tags.has(a.tag.toUpperCase()))) continue
      const at = insertAt(ref.handle) ?? { x: ref.x, y: ref.y }
      const attributes = Object.fromEntries(ref.attributes.map((a) => [a.tag, a.value]))
      for (const tag of tags) {
        const value = ref.attributes.find((a) => a.tag.toUpperCase() === tag)?.value.trim()
        if (!value) continue
        offer(
          ref.layer,
          { text: value, handle: ref.handle, x: at.x, y: at.y, attributes },
          (row) => row.label.source === 'attribute' && row.label.tag.toUpperCase() === tag,
        )
      }
    }
  }
  for (const c of candidates) {
    const source = c.row.label
    if (source.source === 'layer') {
      c.name = c.entity.layer
      c.label = { source: 'layer' }
      continue
    }
    const labels = found.get(c) ?? []
    if (labels.length === 0) continue
    const distance = (l: Label) => Math.hypot(l.x - c.centre.x, l.y - c.centre.y)
    labels.sort((a, b) => distance(a) - distance(b))
    const [first, ...rest] = labels
    c.name = first.text
    c.label =
      source.source === 'attribute'
        ? { source: 'attribute', tag: source.tag, handle: first.handle }
        : { source: 'text', handle: first.handle }
    c.otherLabels = rest.map((l) => l.text)
    if (first.attributes) c.attributes = first.attributes
  }
}

function pathOf(c: Candidate): string[] {
  const names: string[] = []
  for (let z: Candidate | null = c; z && names.length <= c.depth; z = z.parent)
    names.unshift(z.name)
  return names
}

/** Names for the unnamed, suffixes for zones of the same path; the warnings that say so. */
function name(candidates: Candidate[]): Said[] {
  const said: Said[] = []
  const unnamed: Candidate[] = []
  // Outer zones first, so a child's path has its parent's final name.
  const byDepth = [...candidates].sort((a, b) => a.depth - b.depth || a.order - b.order)
  for (const c of byDepth) {
    if (c.name) continue
    unnamed.push(c)
    c.name = `Unnamed zone ${unnamed.length}`
  }
  if (unnamed.length > 0) {
    const count = unnamed.length
    said.push({
      warning: `${count === 1 ? '1 zone has' : `${count.toLocaleString('en')} zones have`} no label inside: named Unnamed zone 1${count > 1 ? `…${count}` : ''}.`,
      problems: [...byRow(unnamed)].map(([row, ones]) => ({
        row: row.row,
        kind: 'unnamed',
        message: `${ones.length === 1 ? '1 zone has' : `${ones.length.toLocaleString('en')} zones have`} no label inside: named ${listed(ones.map((c) => c.name))}.`,
      })),
    })
  }
  const seen = new Map<string, Candidate[]>()
  const doubled = new Map<string, Candidate[]>()
  for (const c of byDepth) {
    const path = pathOf(c).join(ZONE_PATH_SEPARATOR)
    const key = path.toLowerCase()
    const same = seen.get(key) ?? []
    same.push(c)
    seen.set(key, same)
    if (same.length > 1) {
      doubled.set(path, same)
      c.name = `${c.name} (${same.length})`
    }
  }
  if (doubled.size > 0) {
    const sameName = (paths: string[]) =>
      `Zones of the same name at the same place (${listed(paths)}) are kept apart by a number: ${paths[0]} (2)…`
    // Each row told of the paths its own zones share, the first of each included.
    const rows = new Map<CompiledLocation, string[]>()
    for (const [path, same] of doubled)
      for (const row of new Set(same.map((c) => c.row)))
        rows.set(row, [...(rows.get(row) ?? []), path])
    said.push({
      warning: sameName([...doubled.keys()]),
      problems: [...rows].map(([row, paths]) => ({
        row: row.row,
        kind: 'same-name',
        message: sameName(paths),
      })),
    })
  }
  return said
}

/** Zones of one level that overlap: named, the overlap going to the first in allocation order. */
function overlaps(candidates: Candidate[], index: Flatbush | null): Said[] {
  if (!index) return []
  const pairs: string[] = []
  const rows = new Map<CompiledLocation, string[]>()
  for (const [i, c] of candidates.entries()) {
    for (const j of index.search(...c.box)) {
      const other = candidates[j]
      if (j <= i || other.parent !== c.parent || !boxesOverlap(c.box, other.box)) continue
      const shared = areaOf(intersectionOf(c.outline, other.outline))
      if (shared > 1e-9 * Math.min(areaOf(c.outline), areaOf(other.outline))) {
        const [first, second] = c.order < other.order ? [c, other] : [other, c]
        const pair = `${pathOf(first).join(ZONE_PATH_SEPARATOR)} and ${pathOf(second).join(ZONE_PATH_SEPARATOR)}`
        pairs.push(pair)
        for (const row of new Set([first.row, second.row]))
          rows.set(row, [...(rows.get(row) ?? []), pair])
      }
    }
  }
  if (pairs.length === 0) return []
  const overlap = (listing: string[]) =>
    `Zones of the same level overlap (${listed(listing)}): what lies in both goes to the first in the drawing, never to both.`
  return [
    {
      warning: overlap(pairs),
      problems: [...rows]
        .sort(([a], [b]) => a.row - b.row)
        .map(([row, listing]) => ({ row: row.row, kind: 'overlap', message: overlap(listing) })),
    },
  ]
}

/**
 * The zones by path, level by level (a zone, then the zones within it, then the next), names in
 * natural order (Unnamed zone 2 before Unnamed zone 10, Room 9 before Room 10), ids in that
 * order; zones of one path in the drawing's order.
 */
function asZones(candidates: Candidate[], units: BillUnits): FoundZone[] {
  const paths = new Map(candidates.map((c) => [c, pathOf(c)]))
  const sorted = [...candidates].sort(
    (a, b) => comparePaths(paths.get(a) ?? [], paths.get(b) ?? []) || a.order - b.order,
  )
  const ids = new Map<Candidate, string>()
  sorted.forEach((c, i) => {
    ids.set(c, `Z${i + 1}`)
  })
  return sorted.map((c) => ({
    zone: {
      id: ids.get(c) as string,
      name: c.name,
      path: pathOf(c).join(ZONE_PATH_SEPARATOR),
      parent: c.parent ? (ids.get(c.parent) as string) : null,
      layer: c.entity.layer,
      handle: c.entity.handle,
      area: c.area * units.areaFactor,
      perimeter: c.perimeter * units.lengthFactor,
      label: c.label,
      ...(c.otherLabels.length > 0 ? { otherLabels: c.otherLabels } : {}),
      ...(c.attributes ? { attributes: c.attributes } : {}),
    },
    outline: c.outline,
    box: c.box,
    depth: c.depth,
    order: c.order,
  }))
}

/** Names in natural order: the numbers in them compared as numbers. */
const compare = new Intl.Collator(undefined, { numeric: true }).compare

function comparePaths(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const order = compare(a[i], b[i])
    if (order !== 0) return order
  }
  return a.length - b.length
}
