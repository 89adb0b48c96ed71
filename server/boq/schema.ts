/**
 * The BOQ's JSON form: the engine's public format (documented in README, "The BOQ engine").
 * CSV and XLSX are views of the same rows (see rows.ts).
 */

export const BOQ_SCHEMA_VERSION = 1

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

export type BoqSkipped = { type: string; count: number; reason: string }

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
  /** What was in model space but not measured, and why. */
  skipped: BoqSkipped[]
  /** Things a reader of the BOQ should know (partly read drawings, reader work-arounds). */
  warnings: string[]
  /** Attributes of the title block, when one is found (model or paper space). */
  titleBlock: { block: string; attributes: Record<string, string> } | null
}

/** Block references by effective name and layer; `count` includes `nested`. */
export type BoqBlockCount = { block: string; layer: string; count: number; nested: number }

/** One block reference (a MINSERT counts rows × columns), attributes by tag. */
export type BoqReference = {
  block: string
  layer: string
  /** The top-level reference this one is nested in, or null for a top-level one. */
  parent: string | null
  count: number
  x: number
  y: number
  attributes: Record<string, string>
}

export type LengthKind = 'line' | 'arc' | 'circle' | 'polyline' | 'spline' | 'ellipse'

export type BoqLength = { layer: string; kind: LengthKind; count: number; length: number }

/**
 * Areas of one layer. `net` is the layer's figure: every hatch (holes subtracted) plus every
 * closed polyline that no hatch on the same layer fills, so nothing is summed twice.
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
  blocks: BoqBlockCount[]
  references: BoqReference[]
  /** Attribute tags seen on references, in first-seen order: the columns of the references view. */
  attributeTags: string[]
  lengths: BoqLength[]
  areas: BoqArea[]
}
