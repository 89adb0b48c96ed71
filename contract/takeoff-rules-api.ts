import * as v from 'valibot'
import { savedFields } from './saved-document.ts'
import {
  ClassificationEntrySchema,
  MAX_RULE_ROWS,
  PricedBillSchema,
  TakeoffRuleSchema,
} from './takeoff-rules.ts'

/**
 * The HTTP shapes of a project's takeoff rules and classification, and of pricing a job's kept
 * measurements. Both documents are versioned: version 0 is "never saved" (empty); every save
 * gives the next version, sent back as `If-Match` by the next save so that a colleague's save in
 * between is refused (412) instead of overwritten.
 */

/** GET/PUT /api/boq/projects/{projectId}/rules (JSON). */
export const RulesDocumentSchema = v.object({
  ...savedFields,
  rules: v.pipe(v.array(TakeoffRuleSchema), v.maxLength(MAX_RULE_ROWS)),
})
export type RulesDocument = v.InferOutput<typeof RulesDocumentSchema>

/** GET/PUT /api/boq/projects/{projectId}/classification (JSON). */
export const ClassificationDocumentSchema = v.object({
  ...savedFields,
  entries: v.pipe(v.array(ClassificationEntrySchema), v.maxLength(MAX_RULE_ROWS)),
})
export type ClassificationDocument = v.InferOutput<typeof ClassificationDocumentSchema>

/** One kept version in a document's history, newest first (GET …/rules/history). */
export const SavedVersionSchema = v.object({
  version: v.pipe(v.number(), v.integer(), v.minValue(1)),
  savedBy: v.string(),
  savedAt: v.string(),
  rows: v.number(),
})
export type SavedVersion = v.InferOutput<typeof SavedVersionSchema>

/**
 * POST /api/boq/jobs/{jobId}/price: a preview, nothing kept. Rules or classification given here
 * are used instead of the project's saved ones (an editor's unsaved table).
 */
export const PriceRequestSchema = v.object({
  rules: v.optional(v.pipe(v.array(TakeoffRuleSchema), v.maxLength(MAX_RULE_ROWS))),
  classification: v.optional(
    v.pipe(v.array(ClassificationEntrySchema), v.maxLength(MAX_RULE_ROWS)),
  ),
})
export type PriceRequest = v.InferOutput<typeof PriceRequestSchema>

/**
 * POST /api/boq/jobs/{jobId}/reprice: `writeBack: true` also writes the re-priced workbook as
 * the result's next version beside the drawing. An empty body is `{}`.
 */
export const RepriceRequestSchema = v.object({
  writeBack: v.optional(v.boolean()),
})
export type RepriceRequest = v.InferOutput<typeof RepriceRequestSchema>

/**
 * The answer of POST …/price (a preview) and the priced part of POST …/reprice's. Versions are
 * null where the request gave its own table.
 */
export const PricedJobSchema = v.object({
  jobId: v.string(),
  rulesVersion: v.nullable(v.number()),
  classificationVersion: v.nullable(v.number()),
  /** The project's bill settings version it was priced with (0: none saved). */
  settingsVersion: v.optional(v.number()),
  priced: PricedBillSchema,
})
export type PricedJob = v.InferOutput<typeof PricedJobSchema>

/** The workbook a re-pricing wrote beside the drawing: the result item's new version. */
export const WrittenBackSchema = v.object({
  fileName: v.string(),
  itemId: v.string(),
  versionNumber: v.number(),
})
export type WrittenBack = v.InferOutput<typeof WrittenBackSchema>

/**
 * The answer of POST /api/boq/jobs/{jobId}/reprice: the job's new bill of record, and with
 * `writeBack: true` the workbook written back.
 */
export const RepricedJobSchema = v.object({
  ...PricedJobSchema.entries,
  written: v.optional(WrittenBackSchema),
})
export type RepricedJob = v.InferOutput<typeof RepricedJobSchema>
