import * as v from 'valibot'
import { JobStatusSchema } from '../../contract/jobs.ts'
import type { JobRecord } from './types.ts'

/** What one `<jobs>/<id>/job.json` holds. */
export interface StoredJob {
  version: 1
  job: JobRecord
  /** Sealed CloudContext; present only while the job is queued or running. */
  credentials?: string
}

const text = v.pipe(v.string(), v.minLength(1))

/**
 * What a record read from disk must hold for the store to use it: the fields every job has, of
 * their types. Fields a job gains as it runs are kept as they are (written by this store).
 */
const StoredJobSchema = v.looseObject({
  version: v.literal(1),
  job: v.looseObject({
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
  }),
  credentials: v.optional(v.string()),
})

/**
 * A job record read from disk, checked; throws saying what is wrong (the store skips the record
 * and names its file). `id` is the record's folder: a record of another folder is refused.
 */
export function parseStoredJob(text: string, id: string): StoredJob {
  const result = v.safeParse(StoredJobSchema, JSON.parse(text))
  if (!result.success) {
    const issue = result.issues[0]
    const path = (issue.path ?? []).map((item) => String(item.key)).join('.')
    throw new Error(`${path ? `${path}: ` : ''}${issue.message}`)
  }
  if (result.output.job.id !== id) {
    throw new Error(`it names job ${result.output.job.id}, not ${id}`)
  }
  return result.output as unknown as StoredJob
}
