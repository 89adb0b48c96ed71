import type { Query } from '../../lib/pg/transaction.ts'
import type { JobRecord, ResultFiles, ResultFormat } from '../types.ts'

/**
 * The SQL of `boq_jobs` and `boq_results`, one function per statement. `q` is the pool's or a
 * transaction's. Records come back as stored, unchecked (`job-rows.ts` checks them).
 */

/** A job's row as read: its JSON record, not yet checked. */
export interface JobRow {
  id: string
  record: unknown
}

export interface JobRowWithProgress extends JobRow {
  progress: number | null
}

export interface JobRowForUpdate extends JobRow {
  credentials: string | null
  attempt: string | null
}

/** The newest jobs a user sees. */
const LIST_LIMIT = 200

/** One submission per user at a time, in any process, until the transaction ends. */
export async function lockUserSubmissions(q: Query, userId: string): Promise<void> {
  await q('SELECT pg_advisory_xact_lock(hashtext($1))', [`boq-user:${userId}`])
}

export async function activeJobsOf(q: Query, userId: string): Promise<JobRow[]> {
  return (await q(
    `SELECT id, record FROM boq_jobs WHERE user_id = $1 AND status IN ('queued', 'running')`,
    [userId],
  )) as JobRow[]
}

export async function insertQueuedJob(q: Query, job: JobRecord, credentials: string) {
  await q(
    `INSERT INTO boq_jobs (id, user_id, status, file_storage_id, created_at, record, credentials)
     VALUES ($1, $2, 'queued', $3, $4, $5::jsonb, $6)`,
    [
      job.id,
      job.userId,
      job.fileStorageId,
      job.createdAt,
      JSON.stringify(asStored(job)),
      credentials,
    ],
  )
}

/** Tells every listening process, at commit, that a job was queued. */
export async function notify(q: Query, channel: string, payload: string): Promise<void> {
  await q('SELECT pg_notify($1, $2)', [channel, payload])
}

/** A job's row, locked until the transaction ends. */
export async function jobForUpdate(q: Query, id: string): Promise<JobRowForUpdate | undefined> {
  const [row] = await q(
    'SELECT id, record, credentials, attempt FROM boq_jobs WHERE id = $1 FOR UPDATE',
    [id],
  )
  return row as JobRowForUpdate | undefined
}

/**
 * A job's record and status; its progress kept only while it runs. `dropCredentials`: the job is
 * over, its sealed sign-in and queue entry go.
 */
export async function updateJob(
  q: Query,
  job: JobRecord,
  options: { dropCredentials?: boolean } = {},
): Promise<void> {
  await q(
    `UPDATE boq_jobs SET status = $2, record = $3::jsonb,
      progress = CASE WHEN $2 = 'running' THEN progress END
      ${options.dropCredentials ? ', credentials = NULL, attempt = NULL' : ''}
     WHERE id = $1`,
    [job.id, job.status, JSON.stringify(asStored(job))],
  )
}

/** The job runs under the queue entry `attempt`, from no progress. */
export async function startJob(q: Query, job: JobRecord, attempt: string): Promise<void> {
  await q(
    `UPDATE boq_jobs SET status = 'running', record = $2::jsonb, progress = 0, attempt = $3
     WHERE id = $1`,
    [job.id, JSON.stringify(asStored(job)), attempt],
  )
}

/** The job is queued again, under no queue entry yet. */
export async function requeueJob(q: Query, job: JobRecord): Promise<void> {
  await q(
    `UPDATE boq_jobs SET status = 'queued', record = $2::jsonb, progress = NULL, attempt = NULL
     WHERE id = $1`,
    [job.id, JSON.stringify(asStored(job))],
  )
}

export async function jobById(q: Query, id: string): Promise<JobRowWithProgress | undefined> {
  const [row] = await q('SELECT id, record, progress FROM boq_jobs WHERE id = $1', [id])
  return row as JobRowWithProgress | undefined
}

export async function jobsOfUser(q: Query, userId: string): Promise<JobRowWithProgress[]> {
  return (await q(
    `SELECT id, record, progress FROM boq_jobs WHERE user_id = $1
     ORDER BY created_at DESC LIMIT ${LIST_LIMIT}`,
    [userId],
  )) as JobRowWithProgress[]
}

/** Written often and alone: a job's progress has a column of its own. */
export async function setJobProgress(q: Query, id: string, progress: number): Promise<void> {
  await q(`UPDATE boq_jobs SET progress = $2 WHERE id = $1 AND status = 'running'`, [id, progress])
}

/** Finished jobs created more than `days` ago, with their results. */
export async function deleteFinishedJobs(q: Query, days: number): Promise<void> {
  await q(
    `DELETE FROM boq_jobs WHERE status IN ('succeeded', 'failed')
      AND created_at < now() - make_interval(days => $1)`,
    [days],
  )
}

export async function writeResults(q: Query, id: string, files: ResultFiles): Promise<void> {
  for (const [format, bytes] of Object.entries(files)) {
    await q(
      `INSERT INTO boq_results (job_id, format, bytes) VALUES ($1, $2, $3)
       ON CONFLICT (job_id, format) DO UPDATE SET bytes = EXCLUDED.bytes`,
      [id, format, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)],
    )
  }
}

/** Drops one output of a job (a bill of record kept without its part has none). */
export async function dropResult(q: Query, id: string, format: ResultFormat): Promise<void> {
  await q('DELETE FROM boq_results WHERE job_id = $1 AND format = $2', [id, format])
}

/**
 * A geometry built after the job succeeded, beside its results; only for a succeeded job, and a
 * geometry kept already (another process built it too) stays.
 */
export async function keepLateGeometry(q: Query, id: string, geometry: Uint8Array): Promise<void> {
  await q(
    `INSERT INTO boq_results (job_id, format, bytes)
     SELECT id, 'geometry', $2 FROM boq_jobs WHERE id = $1 AND status = 'succeeded'
     ON CONFLICT (job_id, format) DO NOTHING`,
    [id, Buffer.from(geometry.buffer, geometry.byteOffset, geometry.byteLength)],
  )
}

/** One output of a succeeded job. */
export async function resultBytes(
  q: Query,
  id: string,
  format: ResultFormat,
): Promise<Uint8Array | undefined> {
  const [row] = await q(
    `SELECT r.bytes FROM boq_results r JOIN boq_jobs j ON j.id = r.job_id
     WHERE j.id = $1 AND j.status = 'succeeded' AND r.format = $2`,
    [id, format],
  )
  return row ? new Uint8Array(row.bytes as Buffer) : undefined
}

/** The record as stored: progress lives in its own column. */
function asStored(job: JobRecord): JobRecord {
  const { progress: _progress, ...rest } = job
  return rest
}
