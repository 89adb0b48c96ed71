import { queryOptions } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'

/** Where a drawing goes: a folder, and the item it becomes the next version of when `itemId` is set. */
export type UploadTarget = {
  hubId: string
  projectId: string
  folderId: string
  /** The folder's title, for the lines that say where a drawing went. */
  folderName: string
  itemId?: string
  /** The item's title (its own name, which the next version keeps). */
  itemName?: string
}

/** What the server answers an upload: the item written and its new version number. */
export type Uploaded = { itemId: string; versionNumber: number; fileName: string }

/** Query keys and fetchers of uploads into the local cloud, general → specific. */
export const uploadQueries = {
  all: () => ['upload'] as const,
  /**
   * Whether this server takes uploads (local mode): GET /api/local/upload answers
   * `{ available }`. The mode does not change while the app runs.
   */
  availability: () =>
    queryOptions({
      queryKey: [...uploadQueries.all(), 'availability'] as const,
      queryFn: async ({ signal }) => {
        const body = await api.get('api/local/upload', { signal }).json<{ available?: unknown }>()
        return body?.available === true
      },
      staleTime: Number.POSITIVE_INFINITY,
    }),
}

/** POST /api/local/upload: one drawing into `target` (multipart form; the server checks it all). */
export function uploadDrawing(target: UploadTarget, file: File): Promise<Uploaded> {
  const body = new FormData()
  body.set('projectId', target.projectId)
  body.set('folderId', target.folderId)
  if (target.itemId) body.set('itemId', target.itemId)
  body.set('file', file, file.name)
  return api.post('api/local/upload', { body }).json<Uploaded>()
}
