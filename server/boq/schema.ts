/**
 * The BOQ's JSON form: the engine's public format (documented in README, "The BOQ engine").
 * It leads with the bill (numbered lines in the bill's units, each the sum of its breakdown);
 * the per-layer tables after it stay in drawing units. CSV and XLSX are views of the same rows.
 */

export const BOQ_SCHEMA_VERSION = 2

/** A drawing's own units, from its INSUNITS header value. */
export type BoqUnits = {
  /** The drawing's INSUNITS code (0 = not set). */
  code: number
  /** 'millimetres', 'metres', …, or 'unitless' when the drawing does not say. */
  name: string
  /** Symbol for lengths: 'mm', 'm', 'in', …, or 'units'. */
  length: string
  /** Symbol for areas: 'mm²', 'm²', …, or 'units²'. */
  area: string
}

import type { StatedUnit, UnitSystem } from '../../contract/units.ts'

export { STATED_UNITS, type StatedUnit, type UnitSystem } from '../../contract/units.ts'

/** What the person asked for; both optional. */
export type BillOptions = {
  /** Unset: metric for a metric drawing, imperial for an imperial one, drawing units when unitless. */
  units?: UnitSystem
  /** The unit of a drawing that does not state one (ignored when the drawing states its own). */
  drawingUnits?: StatedUnit
  /** Split count lines by these attribute tags (`visibility`: the dynamic visibility state). */
  splitBy?: string[]
}

/** The bill's units and how every figure is traced back to the drawing's. */
export type BillUnits = {
  /** The units the drawing states (or `unitless`). */
  drawing: BoqUnits
  /** The unit stated for a unitless drawing, when one was. */
  stated: StatedUnit | null
  system: UnitSystem
  length: string
  area: string
  /** Bill length = drawing length × lengthFactor; bill area = drawing area × areaFactor. */
  lengthFactor: number
  areaFactor: number
}

export type BillKind = 'count' | 'length' | 'area'

/** One row a bill line's quantity sums; `handles` name what it counts or measures. */
export type BillBreakdownRow = {
  /** What the row is, for a person: a layer, a kind of linework, a source of area. */
  label: string
  layer: string
  /** Lengths: the kind of linework; areas: `hatch` or `closed polyline`. */
  kind?: string
  /** Counts: references inside other blocks, included in `count`. */
  nested?: number
  /** Entities (or references) in the row. */
  count: number
  /** The row's quantity in the bill's unit (for counts, equal to `count`). */
  quantity: number
  /** Entity handles: the measured entities, or the model-space references counted (or holding the counted ones). */
  handles: string[]
}

export type BillLine = {
  /** The line's number: A1, A2… for counts, B1… for linework, C1… for areas. */
  ref: string
  kind: BillKind
  description: string
  quantity: number
  /** `nr`, `m`, `m²`, `ft`, `ft²`, or the drawing's own unit when it has none stated. */
  unit: string
  /** Count lines: the effective block name. */
  block?: string
  /** Count lines split by attributes or visibility: the values of this line. */
  values?: Record<string, string>
  /** Length and area lines: the layer. */
  layer?: string
  breakdown: BillBreakdownRow[]
}

export type BoqNotMeasured = { type: string; count: number; reason: string }

/** An attached drawing (xref or overlay): its content is not in the file, so not in the bill. */
export type BoqXref = {
  name: string
  path: string
  overlay: boolean
  placed: { handle: string; layer: string; x: number; y: number }[]
}

export type BoqSource = {
  fileName: string
  fileBytes: number
  format: 'dwg' | 'dxf'
  /** The file's version code, e.g. 'AC1032'. */
  version: string
  /** The release it belongs to, e.g. 'AutoCAD 2018'. */
  release: string
  units: BoqUnits
  /** Model-space entities by type (as the reader names them: LINE, LWPOLYLINE, INSERT, …). */
  entityCounts: Record<string, number>
  /** Attributes of the title block, when one is found (model or paper space). */
  titleBlock: { block: string; attributes: Record<string, string> } | null
}

/** Block references by effective name and layer (nesting included, multiplied); `count` includes `nested`. */
export type BoqBlockCount = { block: string; layer: string; count: number; nested: number }

/** One block reference placed in model space (a MINSERT counts rows × columns). */
export type BoqReference = {
  handle: string
  block: string
  /** The block record it places: a dynamic reference's `*U…` block. */
  definition: string
  layer: string
  count: number
  x: number
  y: number
  attributes: Record<string, string>
  /** Dynamic properties (`visibility`). */
  properties: Record<string, string>
  /** References nested inside it, by effective name, multiplied through every level. */
  nested: { block: string; count: number }[]
}

export type LengthKind =
  | 'line'
  | 'arc'
  | 'circle'
  | 'polyline'
  | 'spline'
  | 'ellipse'
  | 'helix'
  | 'multiline'

/** Linework of one layer and kind, in drawing units; multilines also by style. */
export type BoqLength = {
  layer: string
  kind: LengthKind
  style: string | null
  count: number
  length: number
}

/**
 * Areas of one layer, in drawing units squared. `net` is the layer's figure: every hatch (holes
 * subtracted) plus every closed polyline that no hatch on the same layer fills, so nothing is
 * summed twice.
 */
export type BoqArea = {
  layer: string
  closedPolylines: number
  closedPolylineArea: number
  hatches: number
  hatchArea: number
  /** Closed polylines left out of `net` because a hatch on the layer fills them. */
  filledByHatch: number
  net: number
}

export type Boq = {
  schema: 'boq'
  version: typeof BOQ_SCHEMA_VERSION
  source: BoqSource
  units: BillUnits
  bill: BillLine[]
  /** What a reader of the bill must know: unresolved blocks, xrefs, unitless drawings, caps. */
  warnings: string[]
  /** Everything in the drawing that the bill does not measure, with the reason. */
  notMeasured: BoqNotMeasured[]
  xrefs: BoqXref[]
  blocks: BoqBlockCount[]
  references: BoqReference[]
  /** References placed beyond this many are summarised only (the bill still counts them). */
  referencesCapped: boolean
  /** Attribute tags seen on references, in first-seen order: the columns of the references view. */
  attributeTags: string[]
  /** Dynamic property names seen on references (`visibility`), in first-seen order. */
  propertyNames: string[]
  lengths: BoqLength[]
  areas: BoqArea[]
}
