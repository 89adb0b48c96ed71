import type { Drawing, DrawingEntity, InsertRef, Vertex } from './drawing.ts'
import { arcLength, ellipseLength, splineLength } from './geometry/curves.ts'
import { hatchArea } from './geometry/loops.ts'
import { endsMeet, polylineLength, polylineSignedArea } from './geometry/polyline.ts'
import {
  BOQ_SCHEMA_VERSION,
  type Boq,
  type BoqArea,
  type BoqBlockCount,
  type BoqLength,
  type BoqReference,
  type LengthKind,
} from './schema.ts'
import { releaseOf, unitsOf } from './units.ts'

const MAX_NESTING = 16

/** The order localeCompare gives, with one collator made once instead of one lookup per call. */
const compare = new Intl.Collator().compare

export function computeBoq(drawing: Drawing, file: { fileName: string; fileBytes: number }): Boq {
  const { blocks, references, attributeTags } = countBlocks(drawing)
  return {
    schema: 'boq',
    version: BOQ_SCHEMA_VERSION,
    source: {
      fileName: file.fileName,
      fileBytes: file.fileBytes,
      format: drawing.format,
      version: drawing.version,
      release: releaseOf(drawing.version),
      units: unitsOf(drawing.insunits),
      entityCounts: sortedRecord(drawing.entityCounts),
      skipped: [...drawing.skipped]
        .map(([type, { count, reason }]) => ({ type, count, reason }))
        .sort((a, b) => compare(a.type, b.type)),
      warnings: drawing.warnings,
      titleBlock: drawing.titleBlock,
    },
    blocks,
    references,
    attributeTags,
    lengths: measureLengths(drawing.entities),
    areas: measureAreas(drawing.entities),
  }
}

function sortedRecord(record: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => compare(a, b)))
}

function countBlocks(drawing: Drawing): {
  blocks: BoqBlockCount[]
  references: BoqReference[]
  attributeTags: string[]
} {
  const counts = new Map<string, BoqBlockCount>()
  const references: BoqReference[] = []
  const tags = new Set<string>()
  const add = (ref: InsertRef, layer: string, count: number, parent: InsertRef | null) => {
    const key = `${ref.block}\u0000${layer}`
    const row = counts.get(key) ?? { block: ref.block, layer, count: 0, nested: 0 }
    row.count += count
    if (parent) row.nested += count
    counts.set(key, row)
    const attributes: Record<string, string> = {}
    for (const { tag, value } of ref.attributes) {
      attributes[tag] = value
      tags.add(tag)
    }
    references.push({
      block: ref.block,
      layer,
      parent: parent?.block ?? null,
      count,
      x: parent?.x ?? ref.x,
      y: parent?.y ?? ref.y,
      attributes,
    })
  }
  // Nested references are counted where their top-level parent is: on its layer, at its place.
  const visit = (block: string, top: InsertRef, count: number, path: string[]) => {
    if (path.length > MAX_NESTING || path.includes(block)) return
    for (const child of drawing.nestedInserts.get(block) ?? []) {
      const childCount = count * child.count
      add(child, top.layer, childCount, top)
      visit(child.block, top, childCount, [...path, block])
    }
  }
  for (const ref of drawing.inserts) {
    add(ref, ref.layer, ref.count, null)
    visit(ref.block, ref, ref.count, [])
  }
  const blocks = [...counts.values()].sort(
    (a, b) => compare(a.block, b.block) || compare(a.layer, b.layer),
  )
  return { blocks, references, attributeTags: [...tags] }
}

function lengthOf(entity: DrawingEntity): [LengthKind, number] | null {
  switch (entity.type) {
    case 'line': {
      const { a, b } = entity
      return ['line', Math.hypot(b.x - a.x, b.y - a.y, b.z - a.z)]
    }
    case 'arc':
      return ['arc', arcLength(entity.radius, entity.start, entity.end)]
    case 'circle':
      return ['circle', 2 * Math.PI * Math.abs(entity.radius)]
    case 'polyline':
      return ['polyline', polylineLength(entity.vertices, entity.closed)]
    case 'spline':
      return ['spline', splineLength(entity)]
    case 'ellipse':
      return ['ellipse', ellipseLength(entity.major, entity.ratio, entity.start, entity.end)]
    case 'hatch':
      return null
  }
}

function measureLengths(entities: DrawingEntity[]): BoqLength[] {
  const rows = new Map<string, BoqLength>()
  for (const entity of entities) {
    const measured = lengthOf(entity)
    if (!measured) continue
    const [kind, length] = measured
    if (!Number.isFinite(length)) continue
    const key = `${entity.layer}\u0000${kind}`
    const row = rows.get(key) ?? { layer: entity.layer, kind, count: 0, length: 0 }
    row.count += 1
    row.length += length
    rows.set(key, row)
  }
  return [...rows.values()].sort((a, b) => compare(a.layer, b.layer) || compare(a.kind, b.kind))
}

type Outline = { area: number; box: [number, number, number, number] }

function boxOf(points: { x: number; y: number }[]): [number, number, number, number] {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity]
  for (const p of points) {
    x0 = Math.min(x0, p.x)
    y0 = Math.min(y0, p.y)
    x1 = Math.max(x1, p.x)
    y1 = Math.max(y1, p.y)
  }
  return [x0, y0, x1, y1]
}

/** Same outline: equal area, and the box of the corners equal, to a millionth of its size. */
function sameOutline(a: Outline, b: Outline): boolean {
  const size = Math.max(a.box[2] - a.box[0], a.box[3] - a.box[1], 1e-12)
  if (Math.abs(a.area - b.area) > 1e-6 * Math.max(a.area, b.area)) return false
  return a.box.every((v, i) => Math.abs(v - b.box[i]) <= 1e-6 * size)
}

function isClosedPolyline(entity: DrawingEntity): entity is DrawingEntity & { vertices: Vertex[] } {
  return (
    entity.type === 'polyline' &&
    !entity.is3d &&
    ((entity.closed &&
      (entity.vertices.length >= 3 || entity.vertices.some((v) => v.bulge !== 0))) ||
      endsMeet(entity.vertices))
  )
}

function measureAreas(entities: DrawingEntity[]): BoqArea[] {
  const layers = new Map<
    string,
    { polylines: Outline[]; hatches: { area: number; loops: Outline[] }[] }
  >()
  const layerOf = (name: string) => {
    let entry = layers.get(name)
    if (!entry) {
      entry = { polylines: [], hatches: [] }
      layers.set(name, entry)
    }
    return entry
  }
  for (const entity of entities) {
    if (isClosedPolyline(entity)) {
      layerOf(entity.layer).polylines.push({
        area: Math.abs(polylineSignedArea(entity.vertices)),
        box: boxOf(entity.vertices),
      })
    } else if (entity.type === 'hatch' && entity.loops.length > 0) {
      const { area, loopAreas, corners } = hatchArea(entity.loops, entity.style)
      layerOf(entity.layer).hatches.push({
        area,
        loops: loopAreas.map((a, i) => ({ area: a, box: boxOf(corners[i]) })),
      })
    }
  }
  const rows: BoqArea[] = []
  for (const [layer, { polylines, hatches }] of layers) {
    const loops = hatches.flatMap((h) => h.loops)
    let filled = 0
    let unfilledArea = 0
    for (const outline of polylines) {
      if (loops.some((loop) => sameOutline(outline, loop))) filled++
      else unfilledArea += outline.area
    }
    const hatchTotal = hatches.reduce((sum, h) => sum + h.area, 0)
    rows.push({
      layer,
      closedPolylines: polylines.length,
      closedPolylineArea: polylines.reduce((sum, p) => sum + p.area, 0),
      hatches: hatches.length,
      hatchArea: hatchTotal,
      filledByHatch: filled,
      net: hatchTotal + unfilledArea,
    })
  }
  return rows.sort((a, b) => compare(a.layer, b.layer))
}
