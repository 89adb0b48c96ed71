import * as v from 'valibot'

/**
 * Locations: which closed outlines of a drawing are rooms or zones, and where their names come
 * from. The engine finds the zones and allocates every measured piece to one (or leaves it
 * unallocated); these are the shapes that cross the wire. The server checks rows one by one (its
 * messages name the row: globs, label sources); what passes this schema is only bounded.
 */

/** The most rows a locations table may have. */
export const MAX_LOCATION_ROWS = 1000
/** The longest glob or label cell taken. */
export const MAX_LOCATION_CELL_LENGTH = 1000

/** The columns of a locations table, in the order files and screens show them. */
export const LOCATION_COLUMNS = ['layer', 'label', 'labelLayer'] as const
export type LocationColumn = (typeof LOCATION_COLUMNS)[number]

const text = v.pipe(v.string(), v.maxLength(MAX_LOCATION_CELL_LENGTH))

/**
 * One row: the closed outlines on layers matching `layer` are zones, named by `label`: `text`
 * (the TEXT or MTEXT inside), `attribute:TAG` (a block reference inside whose attribute TAG
 * holds the name) or `layer` (the outline's layer); `labelLayer` restricts where the label is
 * read from.
 */
export const LocationRowSchema = v.strictObject({
  layer: text,
  label: text,
  labelLayer: v.optional(text),
})
export type LocationRow = v.InferOutput<typeof LocationRowSchema>

export const LocationsTableSchema = v.object({
  locations: v.pipe(v.array(LocationRowSchema), v.maxLength(MAX_LOCATION_ROWS)),
})
export type LocationsTable = v.InferOutput<typeof LocationsTableSchema>

/** Where a zone's name came from; `none`: it had no label and was given one. */
export const ZONE_LABEL_SOURCES = ['text', 'attribute', 'layer', 'none'] as const

/** Joins a zone's path from the outermost zone in: `Level 2 › Flat 2.03 › Kitchen`. */
export const ZONE_PATH_SEPARATOR = ' › '

/** One zone found in a drawing. Figures in the bill's units. */
export const ZoneSchema = v.object({
  /** `Z1`, `Z2`…: what `byZone` entries name. */
  id: v.string(),
  /** Its own name, told apart from another of the same path by a suffix (`Kitchen (2)`). */
  name: v.string(),
  /** The names from the outermost zone holding it to its own, joined by ZONE_PATH_SEPARATOR. */
  path: v.string(),
  /** The id of the zone holding it, or null at the top level. */
  parent: v.nullable(v.string()),
  /** The outline's layer and handle. */
  layer: v.string(),
  handle: v.string(),
  area: v.number(),
  perimeter: v.number(),
  label: v.object({
    source: v.picklist(ZONE_LABEL_SOURCES),
    /** `attribute`: the tag read. */
    tag: v.optional(v.string()),
    /** The handle of the text or block reference the name was read from. */
    handle: v.optional(v.string()),
  }),
  /** Other labels found inside (the name is the one nearest the centre). */
  otherLabels: v.optional(v.array(v.string())),
  /** A room tag's attribute values (`attribute:` labels): variables of a room schedule. */
  attributes: v.optional(v.record(v.string(), v.string())),
})
export type Zone = v.InferOutput<typeof ZoneSchema>

/** One zone's part of a figure; `zone` null: what no zone holds (unallocated). */
export const ZoneQuantitySchema = v.object({
  zone: v.nullable(v.string()),
  quantity: v.number(),
})
export type ZoneQuantity = v.InferOutput<typeof ZoneQuantitySchema>

/** A figure by zone: the parts add up to the figure (unallocated included). */
export const ByZoneSchema = v.array(ZoneQuantitySchema)
export type ByZone = v.InferOutput<typeof ByZoneSchema>

/**
 * One measured entity's parts by zone, beside its handle in a breakdown row: `quantity` its
 * share of the entity's figure and, for areas, `perimeter` its share of the boundary's length.
 */
export const ZonePartSchema = v.object({
  zone: v.nullable(v.string()),
  quantity: v.number(),
  perimeter: v.optional(v.number()),
})
export type ZonePart = v.InferOutput<typeof ZonePartSchema>

/**
 * One measured entity's place, beside its handle in a breakdown row: the id of the zone holding
 * all of it, null when no zone holds any of it, or its parts when zone boundaries cut it. Most
 * entities lie in one zone, so most are one short string.
 */
export const HandleZonesSchema = v.union([v.string(), v.null(), v.array(ZonePartSchema)])
export type HandleZones = v.InferOutput<typeof HandleZonesSchema>
