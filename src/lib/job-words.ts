// How a job reads for a person, wherever the app shows one (the jobs panel, the jobs list, a result).
import type { Job, JobStatus } from '../../contract/jobs'

const STATUS_WORD: Record<JobStatus, string> = {
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
