import type { CloudBackend } from '../../cloud/types.ts'
import { walkDrawingVersions } from '../folder-walk.ts'
import type { WatchSource } from '../source.ts'

/**
 * The local cloud tells nobody of a file dropped by hand, so its watches are polled
 * (`startLocalPoller`); setting one up only records what is already there, never to be extracted.
 */
export function localWatchSource(cloud: CloudBackend): WatchSource {
  return {
    async begin(ctx, watch) {
      const hubId = watch.folder?.hubId
      if (!hubId) return { existing: [] }
      const existing = await walkDrawingVersions(cloud, ctx, {
        hubId,
        projectId: watch.projectId,
        folderId: watch.fileFolderId,
      })
      return { existing }
    },
    async end() {},
  }
}
