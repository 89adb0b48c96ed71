// How a job reads for a person, wherever the app shows one (the jobs panel, the jobs list, a result).
import type { Job, JobStatus } from '#contract/jobs.ts'

/** Each status in a word: Queued, Running, Done, Failed. */
export const STATUS_WORD: Record<JobStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Done',
  failed: 'Failed',
}

/** The job's status as the jobs panel says it: Queued, Running, Done, Done with warnings, Failed. */
export function statusWord(job: Job): string {
  if (job.status === 'succeeded' && (job.result?.warningCount ?? 0) > 0) return 'Done with warnings'
  return STATUS_WORD[job.status]
}

/** The drawing and the version read: `plan.dwg, version 3` (the name alone when not known). */
export function drawingRead(job: Job): string {
  return job.fileVersionNumber === null
    ? job.fileName
    : `${job.fileName}, version ${job.fileVersionNumber}`
}

/** How far a running job is, 0–100. */
export function progressPercent(job: Job): number {
  return Math.round(Math.min(1, Math.max(0, job.progress ?? 0)) * 100)
}

/** Queued or running: still to be followed. */
export function isActive(job: Job): boolean {
  return job.status === 'queued' || job.status === 'running'
}

/** The badge of a job a watched folder started by itself, and what it means. */
export const WATCH_BADGE = 'Watched folder'
export const WATCH_BADGE_TITLE =
  'Started by itself, in your name, for a new version in a folder you watch'

/**
 * How much the bill changed since the earlier bill it compares with: `12 lines changed since
 * version 6`, `1 line changed since …`, `No lines changed since …`; null when it was compared with
 * none (or the count is not known).
 */
export function changedLinesWords(result: Job['result']): string | null {
  const changed = result?.changedLines
  if (changed === null || changed === undefined || !result?.comparedWith) return null
  const earlier =
    result.comparedWith.versionNumber === null
      ? 'the earlier bill'
      : `version ${result.comparedWith.versionNumber}`
  if (changed === 0) return `No lines changed since ${earlier}`
  return `${changed} ${changed === 1 ? 'line' : 'lines'} changed since ${earlier}`
}
