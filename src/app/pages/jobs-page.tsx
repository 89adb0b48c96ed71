import { useQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { type Job, jobsQueries } from '../../features/jobs/api/jobs-api'
import { JobsFilterBar } from '../../features/results/components/jobs-filter-bar'
import { JobsTable } from '../../features/results/components/jobs-table'
import {
  filterJobs,
  isFiltered,
  type JobProject,
  type JobsFilter,
} from '../../features/results/utils/jobs-filter'
import { errorText } from '../../lib/http-errors'
import { useProjectNames } from './use-project-names'

const NO_JOBS: Job[] = []

/** The user's extractions, newest first, each opening its result; the address holds the filter. */
export function JobsPage({ search }: { search: JobsFilter }) {
  const jobs = useQuery(jobsQueries.list())
  const navigate = useNavigate()
  const names = useProjectNames(jobs.data ?? NO_JOBS)
  const projectName = (projectId: string) => names.get(projectId) ?? projectId
  return (
    <div className="flex flex-col gap-4 p-4">
      <Link to="/" className="text-sm text-sky-700 underline">
        Back to the drawings
      </Link>
      <h1 className="text-lg font-semibold text-slate-800">Extractions</h1>
      {jobs.isPending ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : jobs.isError ? (
        <p role="alert" className="text-sm text-red-700">
          The jobs could not be loaded: {errorText(jobs.error)}
        </p>
      ) : jobs.data.length === 0 ? (
        <p className="text-sm text-slate-500">No extractions yet.</p>
      ) : (
        <>
          <JobsFilterBar
            filter={search}
            projects={projectsOf(jobs.data, projectName)}
            // Each keystroke replaces the address: Back leaves the page, not the last letter.
            onFilter={(next) => void navigate({ to: '/jobs', search: next, replace: true })}
          />
          <FilteredJobs jobs={jobs.data} filter={search} projectName={projectName} />
        </>
      )}
    </div>
  )
}

function FilteredJobs({
  jobs,
  filter,
  projectName,
}: {
  jobs: readonly Job[]
  filter: JobsFilter
  projectName(projectId: string): string
}) {
  const kept = filterJobs(jobs, filter)
  if (!isFiltered(filter)) return <JobsTable jobs={jobs} projectName={projectName} />
  return (
    <>
      <p className="text-sm text-slate-600">
        {kept.length === 0
          ? 'No extraction matches the filter.'
          : `${kept.length} of ${jobs.length} extractions`}
      </p>
      {kept.length > 0 ? <JobsTable jobs={kept} projectName={projectName} /> : null}
    </>
  )
}

/** The projects the jobs were extracted in, by name. */
function projectsOf(jobs: readonly Job[], projectName: (id: string) => string): JobProject[] {
  return [...new Set(jobs.map((job) => job.projectId))]
    .map((id) => ({ id, name: projectName(id) }))
    .sort((a, b) => a.name.localeCompare(b.name))
}
