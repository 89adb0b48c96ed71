import type { Job, JobStatus } from '#contract/jobs.ts'
import { filterRows } from './sort-rows'

/** What the list of extractions is narrowed to (the page's address holds it): all when empty. */
export type JobsFilter = {
  /** Text the drawing's name holds, in any case. */
  drawing?: string
  /** The project's id. */
  project?: string
  status?: JobStatus
}

/** A project the jobs were extracted in: its id, and its name when known (else the id). */
export type JobProject = { id: string; name: string }

/** The jobs the filter keeps, in their order. */
export function filterJobs(jobs: readonly Job[], filter: JobsFilter): Job[] {
  const { drawing = '', project, status } = filter
  return filterRows(jobs, drawing, (job) => job.fileName).filter(
    (job) =>
      (project === undefined || job.projectId === project) &&
      (status === undefined || job.status === status),
  )
}

/** The filter narrows the list (one of its parts is set). */
export function isFiltered(filter: JobsFilter): boolean {
  return (
    (filter.drawing ?? '').trim() !== '' ||
    filter.project !== undefined ||
    filter.status !== undefined
  )
}
