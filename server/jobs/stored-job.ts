import * as v from 'valibot'
import { JobStatusSchema } from '#contract/jobs.ts'
import type { JobRecord } from './types.ts'

/** What one `<jobs>/<id>/job.json` holds. */
export interface StoredJob {
  version: 1
  job: JobRecord
  /** Sealed CloudContext; present only while the job is queued or running. */
  credentials?: string
  /** Which files hold the bill of record: 0 or absent `result.*`, n `result-n.*` (re-priced). */
  billRevision?: number
}

const text = v.pipe(v.string(), v.minLength(1))

/**
 * What a stored job record must hold for a store to use it: the fields every job has, of their
 * types. Fields a job gains as it runs are kept as they are (written by the store).
 */
const JobRecordSchema = v.looseObject({
  id: text,
  status: JobStatusSchema,
  userId: text,
  fileName: text,
  projectId: text,
  fileFolderId: text,
  fileStorageId: text,
  createdAt: text,
  updatedAt: text,
  attempts: v.pipe(v.number(), v.integer(), v.minValue(0)),
})

const StoredJobSchema = v.looseObject({
  version: v.literal(1),
  job: JobRecordSchema,
  credentials: v.optional(v.string()),
  billRevision: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
})

/**
 * A job record read from disk, checked; throws saying what is wrong (the store skips the record
 * and names its file). `id` is the record's folder: a record of another folder is refused.
 */
export function parseStoredJob(text: string, id: string): StoredJob {
  const stored = checked(StoredJobSchema, JSON.parse(text))
  if (stored.job.id !== id) throw new Error(`it names job ${stored.job.id}, not ${id}`)
  return stored as unknown as StoredJob
}

/**
 * A job record kept elsewhere (a database row's JSON), checked as `parseStoredJob` checks its
 * `job`; throws saying what is wrong. `id` is the job the record was read for.
 */
export function parseJobRecord(record: unknown, id: string): JobRecord {
  const job = checked(JobRecordSchema, record)
  if (job.id !== id) throw new Error(`it names job ${job.id}, not ${id}`)
  return job as unknown as JobRecord
}

/** `value` as `schema` reads it; throws saying where and what is wrong. */
export function checked<T extends v.GenericSchema>(schema: T, value: unknown): v.InferOutput<T> {
  const result = v.safeParse(schema, value)
  if (result.success) return result.output
  const issue = result.issues[0]
  const path = (issue.path ?? []).map((item) => String(item.key)).join('.')
  throw new Error(`${path ? `${path}: ` : ''}${issue.message}`)
}
