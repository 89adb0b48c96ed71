/**
 * The drawing model both readers (DWG through LibreDWG, DXF through dxf-json) produce: only what a
 * BOQ needs, model space only, in plain numbers. quantities.ts turns it into a Boq.
 */

export type Point = { x: number; y: number; z: number }

/** A polyline vertex; `bulge` is tan(θ/4) of the arc to the next vertex (0 = straight). */
export type Vertex = { x: number; y: number; z: number; bulge: number }

/** One edge of a hatch boundary loop; angles in radians, counter-clockwise unless `ccw` is false. */
export type LoopEdge =
  | { kind: 'line'; a: Point; b: Point }
  | { kind: 'arc'; center: Point; radius: number; start: number; end: number; ccw: boolean }
  | {
      kind: 'ellipse'
      center: Point
      /** Major axis end point, relative to the centre. */
      major: Point
      ratio: number
      start: number
      end: number
      ccw: boolean
    }
  | { kind: 'spline'; spline: SplineGeometry }

export type Loop = { kind: 'polyline'; vertices: Vertex[] } | { kind: 'edges'; edges: LoopEdge[] }

export type SplineGeometry = {
  degree: number
  knots: number[]
  control: Point[]
  /** One weight per control point, or empty when the spline is not rational. */
  weights: number[]
  fit: Point[]
  /** End tangents of a fit-point spline (unit or any length; absent when not set). */
  startTangent?: Point | null
  endTangent?: Point | null
}

export type DrawingEntity =
  | { type: 'line'; layer: string; a: Point; b: Point }
  | { type: 'arc'; layer: string; radius: number; start: number; end: number }
  | { type: 'circle'; layer: string; radius: number }
  | { type: 'polyline'; layer: string; vertices: Vertex[]; closed: boolean; is3d: boolean }
  | ({ type: 'spline'; layer: string } & SplineGeometry)
  | {
      type: 'ellipse'
      layer: string
      center: Point
      major: Point
      ratio: number
      start: number
      end: number
    }
  /** style: 0 normal (islands alternate), 1 outer, 2 ignore islands. */
  | { type: 'hatch'; layer: string; loops: Loop[]; style: number }

export type Attribute = { tag: string; value: string }

/** A block reference, top-level (in model space) or nested (inside a block definition). */
export type InsertRef = {
  /** The effective name: a dynamic block's real name, never `*U…` when it can be resolved. */
  block: string
  layer: string
  /** MINSERT rows × columns; 1 for a plain INSERT. */
  count: number
  x: number
  y: number
  attributes: Attribute[]
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
  /** Block references inside each block definition, by effective block name (for nesting). */
  nestedInserts: Map<string, InsertRef[]>
  /** Model-space entity counts by reader type name. */
  entityCounts: Record<string, number>
  /** Not measured: type → { count, reason }. */
  skipped: Map<string, { count: number; reason: string }>
  warnings: string[]
  titleBlock: { block: string; attributes: Record<string, string> } | null
}

export function emptyDrawing(format: 'dwg' | 'dxf', version: string): Drawing {
  return {
    format,
    version,
    insunits: 0,
    entities: [],
    inserts: [],
    nestedInserts: new Map(),
    entityCounts: {},
    skipped: new Map(),
    warnings: [],
    titleBlock: null,
  }
}

export function skip(drawing: Drawing, type: string, reason: string): void {
  const entry = drawing.skipped.get(type)
  if (entry) entry.count += 1
  else drawing.skipped.set(type, { count: 1, reason })
}

/** Anonymous blocks that are not block references a person placed: dimensions, hatches, tables. */
export function isAnonymousBlock(name: string): boolean {
  return name.startsWith('*')
}
