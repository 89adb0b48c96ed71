import * as v from 'valibot'
import { ZONE_LABEL_SOURCES } from './locations.ts'

/**
 * POST /api/boq/jobs/{id}/locations-preview: a locations table not yet saved, tried on the
 * drawing version a finished job read. The drawing is read again with the table; the answer is
 * what it finds, nothing kept.
 */

/** One zone found, as the preview lists it. Figures in the bill's units. */
export const PreviewZoneSchema = v.object({
  id: v.string(),
  name: v.string(),
  path: v.string(),
  layer: v.string(),
  area: v.number(),
  perimeter: v.number(),
  label: v.object({
    source: v.picklist(ZONE_LABEL_SOURCES),
    /** `attribute`: the tag read. */
    tag: v.optional(v.string()),
  }),
  /** The 1-based row of the table that took its outline (the first whose layer glob matches). */
  row: v.number(),
})
export type PreviewZone = v.InferOutput<typeof PreviewZoneSchema>

/** What one row of the table found. */
export const PreviewRowSchema = v.object({
  /** 1-based, as the table shows it. */
  row: v.number(),
  /** Its layer glob, as sent: the answer names its rows while the table is edited further. */
  layer: v.string(),
  zones: v.number(),
  /** Of those, the zones it found no label for (named `Unnamed zone 1`…). */
  unnamed: v.number(),
  /**
   * What went wrong with its zones: outlines on its layers not closed, zones unnamed, crossing
   * themselves, of the same name or overlapping, a label layer holding no label, nothing found.
   */
  warnings: v.array(v.string()),
})
export type PreviewRow = v.InferOutput<typeof PreviewRowSchema>

export const LocationsPreviewSchema = v.object({
  jobId: v.string(),
  units: v.object({ length: v.string(), area: v.string() }),
  zones: v.array(PreviewZoneSchema),
  rows: v.array(PreviewRowSchema),
  /** What reading the drawing with the table said that concerns no one row (each row has its own). */
  warnings: v.array(v.string()),
})
export type LocationsPreview = v.InferOutput<typeof LocationsPreviewSchema>
