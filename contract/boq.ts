import * as v from 'valibot'
import { BILL_KINDS } from './bill-kinds.ts'
import { ByZoneSchema, HandleZonesSchema, ZoneSchema } from './locations.ts'
import { PricedBillSchema } from './takeoff-rules.ts'
import { StatedUnitSchema, UnitSystemSchema } from './units.ts'

export { BILL_KINDS, type BillKind } from './bill-kinds.ts'

/**
 * The BOQ's JSON form: the engine's public format (the README's "The BOQ engine" documents it).
 * It leads with the bill (numbered lines in the bill's units, each the sum of its breakdown); the
 * per-layer tables after it stay in drawing units. CSV and XLSX are views of the same rows.
 */

export const BOQ_SCHEMA_VERSION = 2

const counts = v.record(v.string(), v.number())
const texts = v.record(v.string(), v.string())

/** A drawing's own units, from its INSUNITS header value. */
export const BoqUnitsSchema = v.object({
  /** The drawing's INSUNITS code (0 = not set). */
  code: v.number(),
  /** 'millimetres', 'metres', …, or 'unitless' when the drawing does not say. */
  name: v.string(),
  /** Symbol for lengths: 'mm', 'm', 'in', …, or 'units'. */
  length: v.string(),
  /** Symbol for areas: 'mm²', 'm²', …, or 'units²'. */
  area: v.string(),
})
export type BoqUnits = v.InferOutput<typeof BoqUnitsSchema>

/** The bill's units and how every figure is traced back to the drawing's. */
export const BillUnitsSchema = v.object({
  /** The units the drawing states (or `unitless`). */
  drawing: BoqUnitsSchema,
  /** The unit stated for a unitless drawing, when one was. */
  stated: v.nullable(StatedUnitSchema),
  system: UnitSystemSchema,
  length: v.string(),
  area: v.string(),
  /** Bill length = drawing length × lengthFactor; bill area = drawing area × areaFactor. */
  lengthFactor: v.number(),
  areaFactor: v.number(),
})
export type BillUnits = v.InferOutput<typeof BillUnitsSchema>

/** One row a bill line's quantity sums; `handles` name what it counts or measures. */
export const BillBreakdownRowSchema = v.object({
  /** What the row is, for a person: a layer, a kind of linework, a source of area. */
  label: v.string(),
  layer: v.string(),
  /** Lengths: the kind of linework; areas: `hatch` or `closed polyline`. */
  kind: v.optional(v.string()),
  /** Counts: references inside other blocks, included in `count`. */
  nested: v.optional(v.number()),
  /** Entities (or references) in the row. */
  count: v.number(),
  /** The row's quantity in the bill's unit (for counts, equal to `count`). */
  quantity: v.number(),
  /** Entity handles: the measured entities, or the model-space references counted (or holding the counted ones). */
  handles: v.array(v.string()),
  /**
   * Lengths and areas: each entity's own figure in the bill's unit, in the order of `handles`.
   * Absent in results kept before entities were measured one by one.
   */
  quantities: v.optional(v.array(v.number())),
  /** Areas: each entity's boundary length in the bill's length unit, in the order of `handles`. */
  perimeters: v.optional(v.array(v.number())),
  /** With locations: the row's quantity by zone (unallocated as zone null). */
  byZone: v.optional(ByZoneSchema),
  /**
   * With locations, lengths and areas: each handle's zone (or its parts by zone), in the order of
   * `handles`. Count rows need none: their references' zones are in `references`, and `byZone`.
   */
  zones: v.optional(v.array(HandleZonesSchema)),
})
export type BillBreakdownRow = v.InferOutput<typeof BillBreakdownRowSchema>

export const BillLineSchema = v.object({
  /** The line's number: A1, A2… for counts, B1… for linework, C1… for areas. */
  ref: v.string(),
  kind: v.picklist(BILL_KINDS),
  description: v.string(),
  /** Always more than 0: what measures nothing is listed in `notMeasured`, not billed. */
  quantity: v.number(),
  /** `nr`, `m`, `m²`, `ft`, `ft²`, or the drawing's own unit when it has none stated. */
  unit: v.string(),
  /** Count lines: the effective block name. */
  block: v.optional(v.string()),
  /** Count lines split by attributes or visibility: the values of this line. */
  values: v.optional(texts),
  /** Length and area lines: the layer. */
  layer: v.optional(v.string()),
  breakdown: v.array(BillBreakdownRowSchema),
  /** With locations: the quantity by zone, unallocated as zone null; the parts add up to it. */
  byZone: v.optional(ByZoneSchema),
})
export type BillLine = v.InferOutput<typeof BillLineSchema>

/**
 * Bill lines shown as one expandable line (`contract/bill-groups.ts` makes them): AutoCAD's
 * pasted blocks (`A$C…`). The lines stay in `bill`, each once; a group only names them, so a sum
 * of the bill's lines counts them once.
 */
export const BillGroupSchema = v.object({
  /** What the group is: `Pasted blocks`. */
  name: v.string(),
  /** `Pasted blocks (27 kinds, 40 placed)`. */
  description: v.string(),
  kind: v.picklist(BILL_KINDS),
  /** Its lines by ref, in the bill's order; a line is in one group at most. */
  lines: v.array(v.string()),
  /** The sum of its lines' quantities, in `unit`. */
  quantity: v.number(),
  unit: v.string(),
})
export type BillGroup = v.InferOutput<typeof BillGroupSchema>

export const BoqNotMeasuredSchema = v.object({
  type: v.string(),
  count: v.number(),
  reason: v.string(),
})
export type BoqNotMeasured = v.InferOutput<typeof BoqNotMeasuredSchema>

/** An attached drawing (xref or overlay): its content is not in the file, so not in the bill. */
export const BoqXrefSchema = v.object({
  name: v.string(),
  path: v.string(),
  overlay: v.boolean(),
  placed: v.array(
    v.object({ handle: v.string(), layer: v.string(), x: v.number(), y: v.number() }),
  ),
})
export type BoqXref = v.InferOutput<typeof BoqXrefSchema>

export const BoqSourceSchema = v.object({
  fileName: v.string(),
  fileBytes: v.number(),
  format: v.picklist(['dwg', 'dxf']),
  /** The file's version code, e.g. 'AC1032'. */
  version: v.string(),
  /** The release it belongs to, e.g. 'AutoCAD 2018'. */
  release: v.string(),
  units: BoqUnitsSchema,
  /** Model-space entities by type (as the reader names them: LINE, LWPOLYLINE, INSERT, …). */
  entityCounts: counts,
  /** Attributes of the title block, when one is found (model or paper space). */
  titleBlock: v.nullable(v.object({ block: v.string(), attributes: texts })),
})
export type BoqSource = v.InferOutput<typeof BoqSourceSchema>

/** Block references by effective name and layer (nesting included, multiplied); `count` includes `nested`. */
export const BoqBlockCountSchema = v.object({
  block: v.string(),
  layer: v.string(),
  count: v.number(),
  nested: v.number(),
})
export type BoqBlockCount = v.InferOutput<typeof BoqBlockCountSchema>

/** One block reference placed in model space (a MINSERT counts rows × columns). */
export const BoqReferenceSchema = v.object({
  handle: v.string(),
  block: v.string(),
  /** The block record it places: a dynamic reference's `*U…` block. */
  definition: v.string(),
  layer: v.string(),
  count: v.number(),
  x: v.number(),
  y: v.number(),
  attributes: texts,
  /** Dynamic properties (`visibility`). */
  properties: texts,
  /** References nested inside it, by effective name, multiplied through every level. */
  nested: v.array(v.object({ block: v.string(), count: v.number() })),
  /** With locations: the zone holding its insertion point (null: none). */
  zone: v.optional(v.nullable(v.string())),
})
export type BoqReference = v.InferOutput<typeof BoqReferenceSchema>

export const LENGTH_KINDS = [
  'line',
  'arc',
  'circle',
  'polyline',
  'spline',
  'ellipse',
  'helix',
  'multiline',
] as const
export type LengthKind = (typeof LENGTH_KINDS)[number]

/** Linework of one layer and kind, in drawing units; multilines also by style. */
export const BoqLengthSchema = v.object({
  layer: v.string(),
  kind: v.picklist(LENGTH_KINDS),
  style: v.nullable(v.string()),
  count: v.number(),
  length: v.number(),
})
export type BoqLength = v.InferOutput<typeof BoqLengthSchema>

/**
 * Areas of one layer, in drawing units squared. `net` is the layer's figure: every hatch (holes
 * subtracted) plus every closed outline (closed polyline, circle, whole ellipse) that no hatch on
 * the same layer fills, so nothing is summed twice.
 */
export const BoqAreaSchema = v.object({
  layer: v.string(),
  closedPolylines: v.number(),
  closedPolylineArea: v.number(),
  /** Circles and whole ellipses, and their area; absent when the layer has none. */
  closedCurves: v.optional(v.number()),
  closedCurveArea: v.optional(v.number()),
  hatches: v.number(),
  hatchArea: v.number(),
  /** Closed outlines left out of `net` because a hatch on the layer fills them. */
  filledByHatch: v.number(),
  net: v.number(),
})
export type BoqArea = v.InferOutput<typeof BoqAreaSchema>

export const BoqSchema = v.object({
  schema: v.literal('boq'),
  version: v.literal(BOQ_SCHEMA_VERSION),
  source: BoqSourceSchema,
  units: BillUnitsSchema,
  /** May be empty: then the first warning says why, starting `No quantities measured:`. */
  bill: v.array(BillLineSchema),
  /** Lines shown as one (pasted blocks); absent in results kept before groups (`groupsOf`). */
  groups: v.optional(v.array(BillGroupSchema)),
  /** What a reader of the bill must know: unresolved blocks, xrefs, unitless drawings, caps. */
  warnings: v.array(v.string()),
  /**
   * Everything in the drawing that the bill does not measure, with the reason: types the engine
   * does not measure, entities whose figure is nothing (`LINE (zero length)`, `HATCH (zero area)`),
   * and `paper space`.
   */
  notMeasured: v.array(BoqNotMeasuredSchema),
  xrefs: v.array(BoqXrefSchema),
  blocks: v.array(BoqBlockCountSchema),
  references: v.array(BoqReferenceSchema),
  /** References placed beyond this many are summarised only (the bill still counts them). */
  referencesCapped: v.boolean(),
  /** Attribute tags seen on references, in first-seen order: the columns of the references view. */
  attributeTags: v.array(v.string()),
  /** Dynamic property names seen on references (`visibility`), in first-seen order. */
  propertyNames: v.array(v.string()),
  lengths: v.array(BoqLengthSchema),
  areas: v.array(BoqAreaSchema),
  /** The bill priced by takeoff rules, when rules were given; `bill` stays the measured bill. */
  priced: v.optional(PricedBillSchema),
  /** The zones found when locations were given (contract/locations.ts); absent without. */
  zones: v.optional(v.array(ZoneSchema)),
})
export type Boq = v.InferOutput<typeof BoqSchema>
