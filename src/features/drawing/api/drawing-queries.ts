import { queryOptions } from '@tanstack/react-query'
import { type DrawingGeometry, decodeGeometry } from '../../../../contract/drawing-geometry'
import { api } from '../../../lib/api-client'
import { httpStatus } from '../../../lib/http-errors'
import type { DrawingFile } from '../viewer/drawing-viewer'

/** The path of the drawing version a job read (GET, the signed-in user's own jobs). */
export const drawingPath = (jobId: string) => `api/boq/jobs/${encodeURIComponent(jobId)}/drawing`
/** The path of the geometry the engine built with a job's bill (GET, the user's own jobs). */
export const geometryPath = (jobId: string) => `api/boq/jobs/${encodeURIComponent(jobId)}/geometry`

/** The server says which kind of drawing it sends by its Content-Type; anything else is DWG. */
const DXF_TYPE = /^image\/vnd\.dxf\b/i

/**
 * What the view draws a job's drawing from: the geometry kept with its bill, or, for a job
 * recorded before geometry was kept, the drawing file itself.
 */
export type DrawingSource =
  | { kind: 'geometry'; geometry: DrawingGeometry }
  | { kind: 'file'; file: DrawingFile }

/** Query keys and fetchers of the drawing feature, general → specific. */
export const drawingQueries = {
  all: () => ['drawing'] as const,
  source: (jobId: string) =>
    queryOptions({
      queryKey: [...drawingQueries.all(), 'source', jobId] as const,
      queryFn: async ({ signal }): Promise<DrawingSource> => {
        try {
          const response = await api.get(geometryPath(jobId), { signal })
          return { kind: 'geometry', geometry: decodeGeometry(await response.arrayBuffer()) }
        } catch (error) {
          // No geometry kept (or no such job: the file's answer says so in its own words).
          if (httpStatus(error) !== 404) throw error
        }
        const response = await api.get(drawingPath(jobId), { signal })
        const format = DXF_TYPE.test(response.headers.get('content-type') ?? '') ? 'dxf' : 'dwg'
        return { kind: 'file', file: { bytes: await response.arrayBuffer(), format } }
      },
      // A job's drawing never changes; it goes once the view is gone. Typed arrays are not
      // compared for sharing.
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: 60_000,
      structuralSharing: false,
    }),
}
