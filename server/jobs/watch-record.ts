import type { NewWatch, WatchPatch, WatchRecord } from './watch-types.ts'

/** A watch as it is first recorded. */
export function newWatchRecord(id: string, watch: NewWatch): WatchRecord {
  const now = new Date().toISOString()
  return withoutUndefined({
    ...watch,
    ...(watch.folder
      ? {
          folder: {
            ...watch.folder,
            ...(watch.folder.path ? { path: [...watch.folder.path] } : {}),
          },
        }
      : {}),
    ...(watch.units ? { units: { ...watch.units } } : {}),
    id,
    createdAt: now,
    updatedAt: now,
    ...(watch.state === 'paused' ? { pausedAt: now } : {}),
  })
}

/**
 * The watch after `patch`, as both stores apply it: a field given as undefined is removed, and a
 * watch made active again without a reason loses the reason it was paused for, and its cause. `pausedAt` is the
 * store's: set when the watch becomes paused (a paused one paused again keeps its first moment),
 * removed when it is active again.
 */
export function patchedWatch(watch: WatchRecord, patch: WatchPatch): WatchRecord {
  const now = new Date().toISOString()
  const cleared = patch.state === 'active' && !('pausedReason' in patch)
  const { pausedReason: _reason, pausedFor: _for, ...kept } = watch
  const state = patch.state ?? watch.state
  const pausedAt = state === 'paused' ? (watch.pausedAt ?? now) : undefined
  return withoutUndefined({
    ...(cleared ? kept : watch),
    ...patch,
    pausedAt,
    updatedAt: now,
  })
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T
}
