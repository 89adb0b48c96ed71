import * as v from 'valibot'

/**
 * Which bill a side of a comparison is: a job's, or a file's (the command line). In its own module:
 * a job names the bill it was compared with, and the screens that load jobs should not carry the
 * whole change bill's schema with them (schemas are made by calls a bundler keeps).
 */
export const ComparedBillSchema = v.object({
  jobId: v.nullable(v.string()),
  fileName: v.string(),
  versionNumber: v.nullable(v.number()),
})
export type ComparedBill = v.InferOutput<typeof ComparedBillSchema>
