import type { Picture, Shape } from './picture.ts'
import type { EllipseGeometry, Loop, Point, SplineGeometry, Vertex } from './primitives.ts'

/**
 * The drawing model both readers (DWG through LibreDWG, DXF through dxf-json) produce, both through
 * read/drawing-builder.ts: only what a BOQ needs, model space only, in plain numbers.
 * measure/quantities.ts turns it into a Boq.
 */

/**
 * A helix's own parameters, as AutoCAD keeps them (DXF's AcDbHelix part, LibreDWG's HELIX
 * fields). The base radius is the start point's distance from the axis; `radius` is the top
 * radius; the height is turns × turn height, along the axis.
 */
export type HelixParameters = {
  /** The axis base point (DXF 10/20/30). */
  axisBase: Point
  /** Where the helix starts (DXF 11/21/31). */
  start: Point
  /** The axis direction (DXF 12/22/32). */
  axis: Point
  /** DXF 40. */
  radius: number
  /** DXF 41. */
  turns: number
  /** DXF 42. */
  turnHeight: number
  /** DXF 290: 0 left-handed, 1 right-handed. */
  handedness: number
  /** DXF 280: 0 the turn height, 1 the turns, 2 the height is kept when the helix is edited. */
  constraint: number
}

/**
 * Where an entity sits and which it is: its layer, and its handle (hex, as DXF writes it). A
 * measured entity read with the picture also has the shape the drawing view draws of it (null:
 * nothing to draw), which locations place.
 */
type Placed = { layer: string; handle: string; shape?: Shape | null }

export type DrawingEntity = Placed &
  (
    | { type: 'line'; a: Point; b: Point }
    | { type: 'arc'; radius: number; start: number; end: number }
    | { type: 'circle'; center: Point; radius: number }
    | { type: 'polyline'; vertices: Vertex[]; closed: boolean; is3d: boolean }
    | ({ type: 'spline' } & SplineGeometry)
    /**
     * A helix: its path is also kept as a spline (DWG and DXF both keep one); `parameters` when
     * the file gives its own (the length is worked out from them).
     */
    | ({ type: 'helix'; parameters?: HelixParameters } & SplineGeometry)
    | ({ type: 'ellipse' } & EllipseGeometry)
    /** style: 0 normal (islands alternate), 1 outer, 2 ignore islands. */
    | { type: 'hatch'; loops: Loop[]; style: number }
    /** A multiline, measured along its vertices; `style` is its multiline style's name. */
    | { type: 'mline'; vertices: Point[]; closed: boolean; style: string }
  )

export type Attribute = { tag: string; value: string }

/** A TEXT or MTEXT in model space: what names a room, at its insertion point. */
export type PlacedText = Placed & { text: string; x: number; y: number }

/** A block reference, top-level (in model space) or nested (inside a block definition). */
export type InsertRef = {
  /** The effective name: a dynamic block's real name, never `*U…` when it can be resolved. */
  block: string
  /** The name of the block record it places (a dynamic reference's own `*U…` block). */
  definition: string
  handle: string
  layer: string
  /** MINSERT rows × columns; 1 for a plain INSERT. */
  count: number
  x: number
  y: number
  attributes: Attribute[]
  /** A dynamic reference's properties by name (at least `visibility`, its visibility state). */
  properties: Record<string, string>
}

/** A reference to an attached drawing (xref or overlay) placed in model space: not an item. */
export type XrefRef = {
  /** The xref's block name, as the drawing shows it. */
  name: string
  /** The attached file's path as the drawing records it ('' when the reader gives none). */
  path: string
  overlay: boolean
  handle: string
  layer: string
  x: number
  y: number
}

export type Drawing = {
  format: 'dwg' | 'dxf'
  version: string
  /** INSUNITS (0 when not set). */
  insunits: number
  /** Measurable model-space entities. */
  entities: DrawingEntity[]
  /** Top-level (model-space) block references. */
  inserts: InsertRef[]
  /** Block references inside each block definition, by the definition's own name (`definition`). */
  nestedInserts: Map<string, InsertRef[]>
  /** Attached drawings placed in model space. */
  xrefs: XrefRef[]
  /** Model-space texts (TEXT, MTEXT): not measured, but what locations read names from. */
  texts: PlacedText[]
  /** Model-space entity counts by reader type name. */
  entityCounts: Record<string, number>
  /** Entities in paper space (layouts): never counted. */
  paperSpaceEntities: number
  /** Not measured: type → { count, reason }. */
  skipped: Map<string, { count: number; reason: string }>
  warnings: string[]
  titleBlock: { block: string; attributes: Record<string, string> } | null
  /**
   * What the drawing view draws: model space and block contents as shapes, with colours. Empty
   * unless the reader was asked for it (ReadOptions.picture).
   */
  picture: Picture
}

/**
 * Anonymous blocks that hold the graphics of hatches (`*X`), dimensions (`*D`) and tables (`*T`):
 * not block references a person placed. `*U` blocks are placed (dynamic blocks, groups) and count.
 */
export function isGraphicsBlock(name: string): boolean {
  return name === '' || /^\*[XDT]/i.test(name)
}

/** An anonymous `*U…` block: a dynamic block reference whose real name is still unknown. */
export function isUnresolvedAnonymous(name: string): boolean {
  return /^\*U/i.test(name)
}
