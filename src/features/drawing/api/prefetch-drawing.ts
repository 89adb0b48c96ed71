import type { QueryClient } from '@tanstack/react-query'
import { loadDrawingViewer } from '../viewer/load-viewer'
import { drawingQueries } from './drawing-queries'

/**
 * Starts what the drawing view will need — the job's drawing file and the renderer's code — while
 * the page still fetches its bill, instead of after the bill is shown. Failures are left for the
 * view to meet and show.
 */
export function prefetchDrawing(queryClient: QueryClient, jobId: string): void {
  void queryClient.prefetchQuery(drawingQueries.file(jobId))
  loadDrawingViewer().catch(() => {})
}
