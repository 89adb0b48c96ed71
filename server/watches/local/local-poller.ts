import { stillArriving } from '../../cloud/local/resources.ts'
import type { CloudBackend, JsonApiResource } from '../../cloud/types.ts'
import { log } from '../../log.ts'
import { walkDrawingVersions } from '../folder-walk.ts'
import type { StandingAccess } from '../standing-access.ts'
import type { WatchStore } from '../store/types.ts'

/**
 * Looks through every active watch's folder tree every `everyMs`, as its owner, and notes the
 * drawing versions it has not seen; `onNoted` is told when there are new ones. Only items whose
 * modification time moved since the last look have their versions listed, and those with a file
 * still being written by hand (`stillArriving`): such a version is noted once its file is whole,
 * at a later look. One look at a time.
 */
export function startLocalPoller(options: {
  store: WatchStore
  cloud: CloudBackend
  access: StandingAccess
  everyMs: number
  onNoted: () => void
}): { poll(): Promise<void>; close(): Promise<void> } {
  const { store, cloud, access } = options
  /** Per watch: each item's modification time at the last look. */
  const looked = new Map<string, Map<string, unknown>>()
  let running: Promise<void> | undefined
  let closed = false

  async function look(): Promise<void> {
    const watches = await store.allWatches()
    for (const id of looked.keys()) {
      if (!watches.some((watch) => watch.id === id)) looked.delete(id)
    }
    for (const watch of watches) {
      if (closed) return
      const hubId = watch.folder?.hubId
      if (watch.state !== 'active' || !hubId) continue
      const context = await access.contextFor(watch.userId)
      if (!context) continue
      const times = looked.get(watch.id) ?? new Map<string, unknown>()
      const seenNow = new Map<string, unknown>()
      const changed = (item: JsonApiResource) => {
        const modified = item.attributes?.lastModifiedTime
        seenNow.set(item.id, modified)
        return times.get(item.id) !== modified || modified === undefined
      }
      /** Items with a version still being written: listed again at the next look. */
      const arriving = new Set<string>()
      const wholeOnly: Pick<CloudBackend, 'contents' | 'versions'> = {
        contents: (...args) => cloud.contents(...args),
        async versions(ctx, hub, projectId, itemId) {
          const versions = await cloud.versions(ctx, hub, projectId, itemId)
          const whole = versions.filter((version) => !stillArriving(version))
          if (whole.length < versions.length) arriving.add(itemId)
          return whole
        },
      }
      try {
        const versions = await walkDrawingVersions(
          wholeOnly,
          context,
          { hubId, projectId: watch.projectId, folderId: watch.fileFolderId },
          { changed },
        )
        const added = await store.noteWatchedVersions(watch.id, versions, 'pending')
        for (const itemId of arriving) seenNow.delete(itemId)
        looked.set(watch.id, seenNow)
        if (added > 0) options.onNoted()
      } catch (error) {
        // The folder may have gone, or be unreadable for now: the next look tries again.
        log.warn('watches: a watched folder could not be looked through', {
          watchId: watch.id,
          err: error,
        })
      }
    }
  }

  function poll(): Promise<void> {
    running ??= look()
      .catch((error) =>
        log.warn('watches: a look through the watched folders failed', { err: error }),
      )
      .finally(() => {
        running = undefined
      })
    return running
  }

  const timer = setInterval(() => void poll(), options.everyMs)
  timer.unref()
  void poll()
  return {
    poll,
    async close() {
      closed = true
      clearInterval(timer)
      await running
    },
  }
}
