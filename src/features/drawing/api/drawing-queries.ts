import { queryOptions } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'

/** The path of the drawing version a job read (GET, the signed-in user's own jobs). */
export const drawingPath = (jobId: string) =>
  `api/boq/jobs/${encodeURIComponent(jobId)}/drawing.dwg`

/** Query keys and fetchers of the drawing feature, general → specific. */
export const drawingQueries = {
  all: () => ['drawing'] as const,
  bytes: (jobId: string) =>
    queryOptions({
      queryKey: [...drawingQueries.all(), 'bytes', jobId] as const,
      queryFn: ({ signal }) => api.get(drawingPath(jobId), { signal }).arrayBuffer(),
      // A job's drawing version never changes; the bytes go once the view is gone.
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: 60_000,
    }),
}
