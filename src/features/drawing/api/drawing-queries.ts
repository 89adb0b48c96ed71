import { queryOptions } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import type { DrawingFile } from '../viewer/drawing-viewer'

/** The path of the drawing version a job read (GET, the signed-in user's own jobs). */
export const drawingPath = (jobId: string) => `api/boq/jobs/${encodeURIComponent(jobId)}/drawing`

/** The server says which kind of drawing it sends by its Content-Type; anything else is DWG. */
const DXF_TYPE = /^image\/vnd\.dxf\b/i

/** Query keys and fetchers of the drawing feature, general → specific. */
export const drawingQueries = {
  all: () => ['drawing'] as const,
  file: (jobId: string) =>
    queryOptions({
      queryKey: [...drawingQueries.all(), 'file', jobId] as const,
      queryFn: async ({ signal }): Promise<DrawingFile> => {
        const response = await api.get(drawingPath(jobId), { signal })
        const format = DXF_TYPE.test(response.headers.get('content-type') ?? '') ? 'dxf' : 'dwg'
        return { bytes: await response.arrayBuffer(), format }
      },
      // A job's drawing version never changes; the bytes go once the view is gone.
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: 60_000,
    }),
}
