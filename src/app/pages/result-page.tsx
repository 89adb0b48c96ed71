import { type QueryClient, useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { drawingQueries } from '../../features/drawing/api/drawing-queries'
import { DrawingView } from '../../features/drawing/components/drawing-view'
import { loadGeometryViewer } from '../../features/drawing/viewer/load-viewer'
import { resultQueries } from '../../features/results/api/results-api'
import type { DrawingSlot } from '../../features/results/components/drawing-slot'
import { JobResult } from '../../features/results/components/job-result'
import { ResultLocations } from './result-locations'

// The drawing beside the bill comes from the drawing feature: its view is small and comes with
// the page (a chunk of its own would be shown only after Suspense's reveal, a few hundred ms
// late); its renderer (three.js) is a chunk of its own, loaded as the page opens.
const Drawing: DrawingSlot = DrawingView

/**
 * Starts what the result page shows: the job, then the bill a succeeded job kept, through the
 * queries the page itself reads. Nothing waits for them: the page shows its own loading and
 * failure states as the answers come (it joins the same requests), and a hover over a link only
 * fills the cache. A page being opened, not merely hovered, also starts its drawing: its
 * renderer's code and the geometry load alongside the bill rather than after it.
 */
export function loadResultPage(
  queryClient: QueryClient,
  jobId: string,
  { opening }: { opening: boolean },
): void {
  if (opening) loadGeometryViewer().catch(() => {})
  queryClient
    .ensureQueryData(resultQueries.job(jobId))
    .then((job) => {
      if (job.status !== 'succeeded' || !job.result) return
      const { jsonUrl, geometryUrl } = job.result
      if (opening) void queryClient.prefetchQuery(drawingQueries.geometry(geometryUrl))
      if (jsonUrl !== null) return queryClient.ensureQueryData(resultQueries.bill(jobId, jsonUrl))
    })
    // A failure shows on the page, from the query that failed.
    .catch(() => {})
}

/** One job's result: its bill beside its drawing. */
export function ResultPage({ jobId }: { jobId: string }) {
  // The job the result shows (the same query): its project's rules are a link away.
  const projectId = useQuery(resultQueries.job(jobId)).data?.projectId
  return (
    <div className="flex flex-col gap-4 p-4">
      <nav className="flex gap-4 text-sm">
        <Link to="/" className="text-sky-700 underline">
          Back to the drawings
        </Link>
        <Link to="/jobs" className="text-sky-700 underline">
          All extractions
        </Link>
        {projectId ? (
          <Link
            to="/projects/$projectId/rules"
            params={{ projectId }}
            search={{ job: jobId }}
            className="text-sky-700 underline"
          >
            Takeoff rules of this project
          </Link>
        ) : null}
      </nav>
      <JobResult key={jobId} jobId={jobId} Drawing={Drawing} Locations={ResultLocations} />
    </div>
  )
}
