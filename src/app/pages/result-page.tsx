import { Link } from '@tanstack/react-router'
import type { DrawingSlotProps } from '../../features/results/components/drawing-slot'
import { JobResult } from '../../features/results/components/job-result'

/** Stands where the drawing will show, until the drawing feature provides its view. */
function DrawingPlaceholder({ highlighted }: DrawingSlotProps) {
  return (
    <div className="flex min-h-48 flex-col items-center justify-center gap-1 rounded border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-500">
      <p>The drawing is not shown here yet.</p>
      <p>{highlighted.length} highlighted</p>
    </div>
  )
}

/** One job's result: its bill beside its drawing. */
export function ResultPage({ jobId }: { jobId: string }) {
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
      <JobResult key={jobId} jobId={jobId} Drawing={DrawingPlaceholder} />
    </div>
  )
}
