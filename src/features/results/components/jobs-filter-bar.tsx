import { useId, useState } from 'react'
import { JOB_STATUSES, type JobStatus } from '#contract/jobs.ts'
import { STATUS_WORD } from '../../../lib/job-words'
import { isFiltered, type JobProject, type JobsFilter } from '../utils/jobs-filter'

const FIELD = 'rounded border border-slate-300 bg-white px-2 py-1'

/**
 * The filter over the list of extractions: the drawing's name, the project, the status. Each
 * change is a new filter (`onFilter`); the name box keeps what is typed itself, so that the
 * address following it never moves the caret.
 */
export function JobsFilterBar({
  filter,
  projects,
  onFilter,
}: {
  filter: JobsFilter
  /** The projects to choose from, in the order shown. */
  projects: readonly JobProject[]
  onFilter(next: JobsFilter): void
}) {
  const id = useId()
  const [drawing, setDrawing] = useState(filter.drawing ?? '')
  // A project the address names that no job has is still shown as chosen.
  const choices =
    filter.project === undefined || projects.some((one) => one.id === filter.project)
      ? projects
      : [...projects, { id: filter.project, name: filter.project }]
  const change = (next: JobsFilter) => onFilter(withoutEmpty(next))
  return (
    <form
      aria-label="Filter the extractions"
      // Each change filters already: Enter in the name box has nothing to send.
      onSubmit={(event) => event.preventDefault()}
      className="flex flex-wrap items-end gap-3 text-sm"
    >
      <label className="flex flex-col gap-1 text-slate-700">
        Drawing
        <input
          type="search"
          value={drawing}
          onChange={(event) => {
            setDrawing(event.target.value)
            change({ ...filter, drawing: event.target.value })
          }}
          className={`${FIELD} w-56`}
        />
      </label>
      <div className="flex flex-col gap-1 text-slate-700">
        <label htmlFor={`${id}-project`}>Project</label>
        <select
          id={`${id}-project`}
          value={filter.project ?? ''}
          onChange={(event) => change({ ...filter, project: event.target.value })}
          className={FIELD}
        >
          <option value="">All projects</option>
          {choices.map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1 text-slate-700">
        <label htmlFor={`${id}-status`}>Status</label>
        <select
          id={`${id}-status`}
          value={filter.status ?? ''}
          onChange={(event) =>
            change({ ...filter, status: (event.target.value || undefined) as JobStatus })
          }
          className={FIELD}
        >
          <option value="">Any status</option>
          {JOB_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_WORD[status]}
            </option>
          ))}
        </select>
      </div>
      {isFiltered(filter) ? (
        <button
          type="button"
          onClick={() => {
            setDrawing('')
            onFilter({})
          }}
          className="py-1 text-sky-700 underline"
        >
          Clear the filter
        </button>
      ) : null}
    </form>
  )
}

/** The filter without its empty parts, so that the address names only what narrows the list. */
function withoutEmpty(filter: JobsFilter): JobsFilter {
  const next: JobsFilter = {}
  if (filter.drawing) next.drawing = filter.drawing
  if (filter.project) next.project = filter.project
  if (filter.status) next.status = filter.status
  return next
}
