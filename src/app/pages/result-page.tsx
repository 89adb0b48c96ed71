import { useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { lazy, useEffect } from 'react'
import { prefetchDrawing } from '../../features/drawing/api/prefetch-drawing'
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
  const queryClient = useQueryClient()
  // The drawing's file and code load alongside the bill rather than after it.
  useEffect(() => {
    prefetchDrawing(queryClient, jobId)
    loadDrawingView().catch(() => {})
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
      </nav>
      <JobResult key={jobId} jobId={jobId} Drawing={DrawingView} />
    </div>
  )
}
