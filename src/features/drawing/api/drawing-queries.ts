import { queryOptions } from '@tanstack/react-query'
import { decodeGeometry } from '../../../../contract/drawing-geometry'
import { api } from '../../../lib/api-client'
import { httpStatus } from '../../../lib/http-errors'
import type { DrawingFile } from '../viewer/drawing-viewer'

/** The path of the drawing version a job read (GET, the signed-in user's own jobs). */
export const drawingPath = (jobId: string) => `api/boq/jobs/${encodeURIComponent(jobId)}/drawing`
/** The path of the geometry the engine built with a job's bill (GET, the user's own jobs). */
export const geometryPath = (jobId: string) => `api/boq/jobs/${encodeURIComponent(jobId)}/geometry`

/** The server says which kind of drawing it sends by its Content-Type; anything else is DWG. */
const DXF_TYPE = /^image\/vnd\.dxf\b/i

// A job's drawing never changes; it goes once the view is gone.
const KEPT = { staleTime: Number.POSITIVE_INFINITY, gcTime: 60_000 } as const

/** Query keys and fetchers of the drawing feature, general → specific. */
export const drawingQueries = {
  all: () => ['drawing'] as const,
  /**
   * The geometry kept with the job's bill; null when the job has none (recorded before it was
   * kept, or no such job: the file's answer then says so in its own words).
   */
  geometry: (jobId: string) =>
    queryOptions({
      queryKey: [...drawingQueries.all(), 'geometry', jobId] as const,
      queryFn: async ({ signal }) => {
        try {
          const response = await api.get(geometryPath(jobId), { signal })
          return decodeGeometry(await response.arrayBuffer())
        } catch (error) {
          if (httpStatus(error) === 404) return null
          throw error
        }
      },
      ...KEPT,
      // Typed arrays are not compared for sharing.
      structuralSharing: false,
    }),
  /** The drawing file itself, for a job kept without geometry. */
  file: (jobId: string) =>
    queryOptions({
      queryKey: [...drawingQueries.all(), 'file', jobId] as const,
      queryFn: async ({ signal }): Promise<DrawingFile> => {
        const response = await api.get(drawingPath(jobId), { signal })
        const format = DXF_TYPE.test(response.headers.get('content-type') ?? '') ? 'dxf' : 'dwg'
        return { bytes: await response.arrayBuffer(), format }
      },
      ...KEPT,
    }),
}
