import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { jobsQueries } from '../../features/jobs/api/jobs-api'
import { JobsTable } from '../../features/results/components/jobs-table'
import { errorText } from '../../lib/http-errors'

/** The user's extractions, newest first, each opening its result. */
export function JobsPage() {
  const jobs = useQuery(jobsQueries.list())
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
        <JobsTable jobs={jobs.data} />
      )}
    </div>
  )
}
