import type { CloudBackend } from '../../cloud/types.ts'
import type { WatchRecord, WatchStore } from '../../jobs/watch-types.ts'
import { log } from '../../log.ts'
import { walkDrawingVersions } from '../folder-walk.ts'
import type { StandingAccess } from '../standing-access.ts'
import { EVENT_WINDOW_MS } from './events-route.ts'

export interface CatchUpDeps {
  store: Pick<WatchStore, 'noteWatchedVersions'>
  cloud: Pick<CloudBackend, 'contents' | 'versions'>
  access: Pick<StandingAccess, 'contextFor'>
  /** Versions were noted: dispatch now. */
  onNoted: () => void
}

/**
 * Autodesk tells of a new version once, and an event that comes while its watch is paused is
 * dropped: only the owner's access can read the version it names, and that was what was missing.
 * So each watch resumed looks through its folder once, as its owner, and notes the drawing
 * versions created since it was paused (`missedSince`); one already noted is recorded once anyway.
 * A watch that cannot be looked through is logged and left: the others still catch up.
 */
export async function catchUpResumed(deps: CatchUpDeps, resumed: WatchRecord[]): Promise<void> {
  for (const watch of resumed) {
    try {
      const hubId = watch.folder?.hubId
      const context = await deps.access.contextFor(watch.userId)
      if (!hubId || !context) {
        log.warn('watches: a resumed watch cannot look for what it missed', { watchId: watch.id })
        continue
      }
      const versions = await walkDrawingVersions(
        deps.cloud,
        context,
        { hubId, projectId: watch.projectId, folderId: watch.fileFolderId },
        { createdSince: missedSince(watch) },
      )
      const noted = await deps.store.noteWatchedVersions(
        watch.id,
        versions.map((version) =>
          version.fileFolderId === watch.fileFolderId && watch.folder
            ? { ...version, folder: watch.folder }
            : version,
        ),
        'pending',
      )
      log.info('watches: a resumed watch caught up', { watchId: watch.id, noted })
      if (noted > 0) deps.onNoted()
    } catch (error) {
      log.warn('watches: a resumed watch could not catch up', { watchId: watch.id, err: error })
    }
  }
}

/**
 * From when a resumed watch looks for versions it missed. The event that found the access refused
 * (and paused the watch) names a version created just before, and an event may come as late as
 * the events route takes it: so it looks back that far before the pause. Never before the watch
 * itself: what was in the folder then is its starting point, never extracted.
 */
export function missedSince(watch: Pick<WatchRecord, 'createdAt' | 'pausedAt'>): number {
  const created = Date.parse(watch.createdAt)
  const paused = watch.pausedAt === undefined ? created : Date.parse(watch.pausedAt)
  return Math.max(created, paused - EVENT_WINDOW_MS)
}
