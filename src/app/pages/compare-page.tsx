import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { lazy } from 'react'
import type { ComparedJobs } from '../../features/compare/api/compare-api'
import { ChangeBill } from '../../features/compare/components/change-bill'
import { type ComparableJob, ComparePicker } from '../../features/compare/components/compare-picker'
import type { ChangeDrawingSlot } from '../../features/compare/components/drawing-slot'
import { type Job, jobsQueries } from '../../features/jobs/api/jobs-api'
import { resultQueries } from '../../features/results/api/results-api'
import { formatDateTime } from '../../lib/format-date'

// The drawings beside the change bill come from the drawing feature, in a chunk of their own:
// the change bill shows without waiting for them.
const DrawingView = lazy(async () => ({
  default: (await import('../../features/drawing/components/drawing-view')).DrawingView,
}))

/** A compared job's drawing, from the geometry its Job names. */
const JobDrawing: ChangeDrawingSlot = ({ jobId, marked }) => {
  const geometryUrl = useQuery(resultQueries.job(jobId)).data?.result?.geometryUrl
  return geometryUrl ? (
    <DrawingView jobId={jobId} geometryUrl={geometryUrl} marked={marked} />
  ) : null
}

/** A finished job as the picker lists it: the drawing, its version, when it was extracted. */
function comparable(job: Job): ComparableJob {
  const version = job.fileVersionNumber === null ? '' : `, version ${job.fileVersionNumber}`
  return { id: job.id, label: `${job.fileName}${version} (${formatDateTime(job.createdAt)})` }
}

/** The change bill between two finished jobs beside their drawings, and the choice of which two. */
export function ComparePage({ search }: { search: Partial<ComparedJobs> }) {
  const jobs = useQuery(jobsQueries.list())
  const finished = (jobs.data ?? []).filter((job) => job.status === 'succeeded').map(comparable)
  const { from, to } = search
  return (
    <div className="flex flex-col gap-4 p-4">
      <Link to="/" className="text-sm text-sky-700 underline">
        Back to the drawings
      </Link>
      {jobs.isPending ? null : (
        <ComparePicker key={`${from}:${to}`} jobs={finished} chosen={search} />
      )}
      {from && to ? <ChangeBill jobs={{ from, to }} Drawing={JobDrawing} /> : null}
    </div>
  )
}
