import * as v from 'valibot'
import { ComparedBillSchema } from './compared-bill.ts'
import { ExtractUnitsSchema } from './units.ts'

/** The longest id or name an extraction request may carry. */
export const MAX_FIELD_LENGTH = 2048

/** A text field that must say something: not empty, not only spaces, not too long. */
export const RequiredTextSchema = v.pipe(
  v.string(),
  v.check((text) => text.trim() !== ''),
  v.maxLength(MAX_FIELD_LENGTH),
)

/**
 * The body of POST /api/boq/extract: the version's storage id and its own name, its folder and
 * project, and the bill's units when the person chose them (absent, null or `{}`: by the drawing).
 * Other fields are ignored.
 */
export const ExtractRequestSchema = v.object({
  fileName: RequiredTextSchema,
  fileStorageId: RequiredTextSchema,
  fileFolderId: RequiredTextSchema,
  projectId: RequiredTextSchema,
  units: v.nullish(ExtractUnitsSchema),
})
export type ExtractRequest = v.InferInput<typeof ExtractRequestSchema>

/** The four fields every extraction request names, in the order their problems are told. */
export const EXTRACT_REQUEST_FIELDS = [
  'fileName',
  'fileStorageId',
  'fileFolderId',
  'projectId',
] as const

/** Where a folder sits: its name, its hub, the folder ids from the project's top (null: not known). */
export const FolderPlaceSchema = v.object({
  name: v.nullable(v.string()),
  hubId: v.nullable(v.string()),
  path: v.nullable(v.array(v.string())),
})

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const
export const JobStatusSchema = v.picklist(JOB_STATUSES)
export type JobStatus = v.InferOutput<typeof JobStatusSchema>

/** What a succeeded job wrote back beside the drawing, its downloads and the bill's warnings. */
export const JobResultSchema = v.object({
  fileName: v.string(),
  itemId: v.string(),
  versionNumber: v.number(),
  /** The bill's first warnings (all of them are in the XLSX and CSV). */
  warnings: v.array(v.string()),
  /** How many warnings the bill has in all. */
  warningCount: v.number(),
  xlsxUrl: v.string(),
  csvUrl: v.string(),
  /** The BOQ JSON; null for jobs recorded before it was kept. */
  jsonUrl: v.nullable(v.string()),
  /**
   * The drawing's geometry for the drawing view: the one kept with the bill, or (a job recorded
   * before it was kept) built from the drawing on its first request and kept from then on.
   */
  geometryUrl: v.string(),
  /** The earlier version's bill the written workbook's Changes sheet compares with, if any. */
  comparedWith: v.nullable(ComparedBillSchema),
  /** How many of the bill's lines differ from that earlier bill (null: compared with none). */
  changedLines: v.optional(v.nullable(v.number())),
})

/**
 * The saved rules and classification versions a job's bill of record was priced with (0: none
 * saved, or a bill priced with no rules).
 */
export const PricedWithSchema = v.object({
  rulesVersion: v.pipe(v.number(), v.integer(), v.minValue(0)),
  classificationVersion: v.pipe(v.number(), v.integer(), v.minValue(0)),
  /** The project's bill settings version (0: none saved; absent: priced before settings were). */
  settingsVersion: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  /** The project's locations version the bill was measured with (absent: none saved). */
  locationsVersion: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
})
export type PricedWith = v.InferOutput<typeof PricedWithSchema>

/**
 * An extraction job as the API answers it. The version number and the folder's parts are null
 * when not known; `units` null when none were chosen; `progress` only while running, `error` only
 * when failed, `result` only when succeeded.
 */
export const JobSchema = v.object({
  id: v.string(),
  status: JobStatusSchema,
  fileName: v.string(),
  projectId: v.string(),
  fileFolderId: v.string(),
  fileStorageId: v.string(),
  fileVersionNumber: v.nullable(v.number()),
  /** Where the drawing's folder sits. */
  folder: FolderPlaceSchema,
  units: v.nullable(ExtractUnitsSchema),
  createdAt: v.string(),
  updatedAt: v.string(),
  progress: v.optional(v.number()),
  error: v.optional(v.string()),
  result: v.optional(JobResultSchema),
  /**
   * What the job's bill of record (the bill its downloads hold and change bills compare) was
   * priced with: at extraction, or by the last re-pricing. Absent until the job has run, and for
   * jobs recorded before it was said.
   */
  pricedWith: v.optional(v.nullable(PricedWithSchema)),
  /** The watched folder's watch that started the job by itself; null or absent: a person did. */
  watchId: v.optional(v.nullable(v.string())),
})
export type Job = v.InferOutput<typeof JobSchema>

/** GET /api/boq/jobs: the signed-in user's jobs, newest first. */
export const JobListSchema = v.object({ data: v.array(JobSchema) })
export type JobList = v.InferOutput<typeof JobListSchema>
