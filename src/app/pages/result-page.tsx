import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { lazy, useEffect } from 'react'
import { drawingQueries } from '../../features/drawing/api/drawing-queries'
import { loadGeometryViewer } from '../../features/drawing/viewer/load-viewer'
import { resultQueries } from '../../features/results/api/results-api'
import type { DrawingSlot } from '../../features/results/components/drawing-slot'
import { JobResult } from '../../features/results/components/job-result'

// The drawing beside the bill comes from the drawing feature, in a chunk of its own: the bill
// shows without waiting for it.
const loadDrawingView = () => import('../../features/drawing/components/drawing-view')
const DrawingView: DrawingSlot = lazy(async () => ({
  default: (await loadDrawingView()).DrawingView,
}))

/** One job's result: its bill beside its drawing. */
export function ResultPage({ jobId }: { jobId: string }) {
  // The drawing view's code, its renderer's and the drawing's geometry load alongside the bill
  // rather than after it. A job recorded before its geometry was kept has its drawing file read
  // by another renderer (3.4 MB): both wait for the view, as the file fetched alongside slowed the
  // bill and came no sooner (measured on loopback).
  const queryClient = useQueryClient()
  // The job the result shows (the same query): its project's rules are a link away.
  const projectId = useQuery(resultQueries.job(jobId)).data?.projectId
  useEffect(() => {
    loadDrawingView().catch(() => {})
    loadGeometryViewer().catch(() => {})
    queryClient.prefetchQuery(drawingQueries.geometry(jobId)).catch(() => {})
  }, [queryClient, jobId])
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
      <JobResult key={jobId} jobId={jobId} Drawing={DrawingView} />
    </div>
  )
}
