import { parseJobRecord } from '../stored-job.ts'
import type { JobRecord } from '../types.ts'
import type { JobRow, JobRowWithProgress } from './job-queries.ts'

/** Says a row was skipped, and why. */
export type Warn = (message: string) => void

/**
 * Passes each warning on once per process: a skipped row is read again at every list of its
 * user's jobs, and one line says it.
 */
export function warnOnce(log: Warn): Warn {
  const said = new Set<string>()
  return (message) => {
    if (said.has(message)) return
    said.add(message)
    log(message)
  }
}

/**
 * A row's record, checked as the embedded store checks its `job.json`, or undefined (with a
 * warning naming the job) when it is not a job record of that row: the row is skipped, as if
 * absent, and left in the table.
 */
export function jobOf(row: JobRow, warn: Warn): JobRecord | undefined {
  try {
    return parseJobRecord(row.record, String(row.id))
  } catch (error) {
    warn(`jobs: skipped the unreadable job ${row.id}: ${(error as Error).message}`)
    return undefined
  }
}

/** As `jobOf`, with the progress of a running job from its own column. */
export function jobWithProgress(row: JobRowWithProgress, warn: Warn): JobRecord | undefined {
  const job = jobOf(row, warn)
  if (!job) return undefined
  return job.status === 'running' && row.progress !== null
    ? { ...job, progress: Number(row.progress) }
    : job
}

/** The rows' records that check, in order. */
export function jobsOf(rows: JobRow[], warn: Warn): JobRecord[] {
  return rows.flatMap((row) => jobOf(row, warn) ?? [])
}
