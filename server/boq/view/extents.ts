import { sweep } from '../measure/curves/curves.ts'
import { bulgeArc } from '../measure/curves/polyline.ts'
import type { Picture, Shape } from '../model/picture.ts'
import type { Loop, LoopEdge, Point, SplineGeometry, Vertex } from '../model/primitives.ts'
import { addArc, Extents } from './sink.ts'
import { gridSize, moved, placementOf } from './transform.ts'

type InsertShape = Extract<Shape, { kind: 'insert' }>

/**
 * The drawing's size (the larger side of its model-space extents), cheaply and generously: each
 * block's box is found once and its references place its corners; an ellipse counts as its
 * circumscribed circle and a spline as its control points. It only sets how finely curves are
 * flattened, so a box a little too large does little harm.
 */
export function drawingSize(picture: Picture): number {
  const boxes = new Map<string, Extents | 'open'>()
  // A block's box in its own coordinates; null for a missing block or one that contains itself.
  const blockBox = (name: string): Extents | null => {
    const known = boxes.get(name)
    if (known !== undefined) return known === 'open' ? null : known
    const block = picture.blocks.get(name)
    if (!block) return null
    boxes.set(name, 'open')
    const box = new Extents()
    for (const entity of block.entities) {
      // What sits on layer 0 takes its reference's layer, which may be shown.
      if (entity.layer !== '0' && picture.hiddenLayers.has(entity.layer)) continue
      if (entity.shape) addShape(box, entity.shape, addInsert)
    }
    boxes.set(name, box)
    return box
  }
  const addInsert = (box: Extents, insert: InsertShape) => {
    const block = picture.blocks.get(insert.definition)
    const inner = blockBox(insert.definition)
    if (!block || !inner || inner.minX > inner.maxX) return
    // The copies of a MINSERT lie on a grid: its corner copies hold the others between them.
    const columns = gridSize(insert.columns)
    const rows = gridSize(insert.rows)
    const { first, column, row } = placementOf(insert, block.base)
    for (let j = 0; j < rows; j += Math.max(1, rows - 1)) {
      for (let i = 0; i < columns; i += Math.max(1, columns - 1)) {
        const m = moved(first, i * column[0] + j * row[0], i * column[1] + j * row[1])
        const { minX, minY, maxX, maxY } = inner
        box.add(m.a * minX + m.c * minY + m.e, m.b * minX + m.d * minY + m.f)
        box.add(m.a * minX + m.c * maxY + m.e, m.b * minX + m.d * maxY + m.f)
        box.add(m.a * maxX + m.c * minY + m.e, m.b * maxX + m.d * minY + m.f)
        box.add(m.a * maxX + m.c * maxY + m.e, m.b * maxX + m.d * maxY + m.f)
      }
    }
  }
  const box = new Extents()
  for (const entity of picture.modelSpace) {
    if (entity.shape && !picture.hiddenLayers.has(entity.layer)) {
      addShape(box, entity.shape, addInsert)
    }
  }
  const size = Math.max(box.maxX - box.minX, box.maxY - box.minY)
  return Number.isFinite(size) ? size : 0
}

function addShape(
  box: Extents,
  shape: Shape,
  addInsert: (box: Extents, insert: InsertShape) => void,
): void {
  switch (shape.kind) {
    case 'line':
    case 'ellipse':
    case 'spline':
      addOutline(box, shape)
      return
    case 'circle':
      addCircle(box, shape.center, shape.radius)
      return
    case 'arc':
      if (shape.radius > 0) {
        const { x, y } = shape.center
        addArc(box, x, y, shape.radius, shape.start, sweep(shape.start, shape.end))
      }
      return
    case 'polyline':
      addVertices(box, shape.vertices)
      return
    case 'hatch':
      for (const loop of shape.loops) addLoop(box, loop)
      return
    case 'solid':
      for (const corner of shape.corners) addPoint(box, corner)
      return
    case 'insert':
      addInsert(box, shape)
      return
  }
}

/** What shapes and hatch edges draw alike: a line, an ellipse, a spline. */
type Outline = Extract<Shape | LoopEdge, { kind: 'line' | 'ellipse' | 'spline' }>

function addOutline(box: Extents, outline: Outline): void {
  switch (outline.kind) {
    case 'line':
      addPoint(box, outline.a)
      addPoint(box, outline.b)
      return
    case 'ellipse':
      addCircle(box, outline.center, Math.hypot(outline.major.x, outline.major.y))
      return
    case 'spline':
      addSpline(box, outline.spline)
      return
  }
}

function addPoint(box: Extents, p: { x: number; y: number }): void {
  if (Number.isFinite(p.x) && Number.isFinite(p.y)) box.add(p.x, p.y)
}

function addCircle(box: Extents, center: Point, radius: number): void {
  const r = Math.abs(radius)
  if (!Number.isFinite(r)) return
  addPoint(box, { x: center.x - r, y: center.y - r })
  addPoint(box, { x: center.x + r, y: center.y + r })
}

/** Vertices, and the arcs of bulged segments. */
function addVertices(box: Extents, vertices: Vertex[]): void {
  for (let i = 0; i < vertices.length; i++) {
    const a = vertices[i]
    addPoint(box, a)
    const arc = a.bulge === 0 ? null : bulgeArc(a, vertices[(i + 1) % vertices.length])
    if (!arc || !Number.isFinite(arc.radius)) continue
    // Counter-clockwise from wherever a clockwise arc ends.
    const start = arc.sweep < 0 ? arc.start + arc.sweep : arc.start
    addArc(box, arc.center.x, arc.center.y, arc.radius, start, Math.abs(arc.sweep))
  }
}

/** A spline lies within its control points' hull (and passes through its fit points). */
function addSpline(box: Extents, spline: SplineGeometry): void {
  for (const p of spline.control) addPoint(box, p)
  for (const p of spline.fit) addPoint(box, p)
}

function addLoop(box: Extents, loop: Loop): void {
  if (loop.kind === 'polyline') {
    addVertices(box, loop.vertices)
    return
  }
  for (const edge of loop.edges) {
    // An arc edge counts as its circle (its angles are stored by the edges' own convention).
    if (edge.kind === 'arc') addCircle(box, edge.center, edge.radius)
    else addOutline(box, edge)
  }
}
