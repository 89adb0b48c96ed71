import { queryOptions } from '@tanstack/react-query'
import { decodeDrawnGeometry } from '#contract/drawing-geometry.ts'
import { api } from '../../../lib/api-client'

// A job's drawing never changes; it goes once the view is gone.
const KEPT = { staleTime: Number.POSITIVE_INFINITY, gcTime: 60_000 } as const

/** Query keys and fetchers of the drawing feature, general → specific. */
export const drawingQueries = {
  all: () => ['drawing'] as const,
  /**
   * A job's drawing geometry, from the `geometryUrl` its Job names (the server builds one it did
   * not keep on this first request).
   */
  geometry: (geometryUrl: string) =>
    queryOptions({
      queryKey: [...drawingQueries.all(), 'geometry', geometryUrl] as const,
      queryFn: async ({ signal }) => {
        // The API's own paths start at its root; the client's paths are relative to it.
        const response = await api.get(geometryUrl.replace(/^\/+/, ''), { signal })
        return decodeDrawnGeometry(await response.arrayBuffer())
      },
      ...KEPT,
      // Typed arrays are not compared for sharing.
      structuralSharing: false,
    }),
}
