import type { CloudBackend } from '../../cloud/types.ts'
import { log } from '../../log.ts'
import { walkDrawingVersions } from '../folder-walk.ts'
import type { StandingAccess } from '../standing-access.ts'
import type { WatchRecord, WatchStore } from '../store/types.ts'
import type { Background } from './background.ts'
import { EVENT_WINDOW_MS } from './event-window.ts'

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
      const noted = await catchUp(deps, watch, missedSince(watch))
      if (noted === undefined) {
        log.warn('watches: a resumed watch cannot look for what it missed', { watchId: watch.id })
        continue
      }
      log.info('watches: a resumed watch caught up', { watchId: watch.id, noted })
    } catch (error) {
      log.warn('watches: a resumed watch could not catch up', { watchId: watch.id, err: error })
    }
  }
}

/**
 * Notes the drawing versions created in the watch's folder, or below it, at or after `since`;
 * how many were new, or undefined when the watch cannot be looked through (no hub known, or no
 * access). Fails as the cloud or the store does.
 */
async function catchUp(
  deps: CatchUpDeps,
  watch: WatchRecord,
  since: number,
): Promise<number | undefined> {
  const hubId = watch.folder?.hubId
  const context = hubId ? await deps.access.contextFor(watch.userId) : undefined
  if (!hubId || !context) return undefined
  const versions = await walkDrawingVersions(
    deps.cloud,
    context,
    { hubId, projectId: watch.projectId, folderId: watch.fileFolderId },
    { createdSince: since },
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
  if (noted > 0) deps.onNoted()
  return noted
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

/** How long a catch-up after a failed event waits before each of its tries. */
export const CATCH_UP_DELAYS_MS: readonly number[] = [5_000, 30_000, 120_000]

/** Catch-ups of watches whose event was let in but could not be handled. */
export interface EventCatchUps {
  /**
   * Autodesk will not deliver the event again (it was answered 200): the hook's watch looks
   * through its folder later for what was created since the event's time, tried again a few times.
   */
  after(hookId: string, occurredAt: number): void
  /** Drops the catch-ups still waiting and waits for the ones under way. */
  close(): Promise<void>
}

/**
 * The event's version is among those a walk from its time finds (from as far back as an event's
 * time is taken, since Autodesk stamps it with the later of its creation and modification times),
 * and noting it again records nothing: so a failed event is caught up by walking its watch's
 * folder. Several failures of one watch make one catch-up, from the earliest. A try finds the
 * watch anew: one ended is left; one paused, or whose owner's access is refused, is left to the
 * catch-up its resumption makes (from well before any event these tries were for).
 */
export function eventCatchUps(
  deps: CatchUpDeps & {
    store: Pick<WatchStore, 'noteWatchedVersions' | 'watchByHookId'>
    background: Background
    delaysMs?: readonly number[]
  },
): EventCatchUps {
  const delays = deps.delaysMs ?? CATCH_UP_DELAYS_MS
  /** hook id → from when, how many tries failed, its timer while it waits, and a later ask. */
  const waiting = new Map<
    string,
    { since: number; failed: number; timer?: NodeJS.Timeout; again?: boolean }
  >()
  let closed = false

  function schedule(hookId: string): void {
    const entry = waiting.get(hookId)
    if (!entry || closed) return
    entry.timer = setTimeout(() => {
      entry.timer = undefined
      deps.background.run('an event’s catch-up failed', () => attempt(hookId))
    }, delays[entry.failed])
    entry.timer.unref()
  }

  async function attempt(hookId: string): Promise<void> {
    const entry = waiting.get(hookId)
    if (!entry || closed) return
    try {
      const watch = await deps.store.watchByHookId(hookId)
      if (watch?.state === 'active') {
        const since = Math.max(Date.parse(watch.createdAt), entry.since - EVENT_WINDOW_MS)
        const noted = await catchUp(deps, watch, since)
        log.info('watches: caught up after an event that failed', { watchId: watch.id, noted })
      }
      if (entry.again) {
        entry.again = false
        entry.failed = 0
        schedule(hookId)
      } else waiting.delete(hookId)
    } catch (error) {
      entry.failed += 1
      if (entry.failed < delays.length) {
        log.warn('watches: a catch-up after an event failed; tried again later', {
          hookId,
          err: error,
        })
        schedule(hookId)
      } else {
        waiting.delete(hookId)
        log.error('watches: an event and its catch-ups failed; its version may be missed', {
          hookId,
          since: new Date(entry.since).toISOString(),
          err: error,
        })
      }
    }
  }

  return {
    after(hookId, occurredAt) {
      if (closed) return
      const entry = waiting.get(hookId)
      if (!entry) {
        waiting.set(hookId, { since: occurredAt, failed: 0 })
        schedule(hookId)
        return
      }
      entry.since = Math.min(entry.since, occurredAt)
      // Under way now: it may have walked past this event's version already.
      if (!entry.timer) entry.again = true
    },
    async close() {
      closed = true
      for (const entry of waiting.values()) clearTimeout(entry.timer)
      waiting.clear()
      await deps.background.settled()
    },
  }
}
