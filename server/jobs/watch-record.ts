import type { NewWatch, WatchRecord } from './watch-types.ts'

/** What `updateWatch` may change. */
export type WatchPatch = Partial<Pick<WatchRecord, 'state' | 'pausedReason' | 'hookId'>>

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
  })
}

/**
 * The watch after `patch`, as both stores apply it: a field given as undefined is removed, and a
 * watch made active again without a reason loses the reason it was paused for.
 */
export function patchedWatch(watch: WatchRecord, patch: WatchPatch): WatchRecord {
  const cleared = patch.state === 'active' && !('pausedReason' in patch)
  const { pausedReason: _reason, ...kept } = watch
  return withoutUndefined({
    ...(cleared ? kept : watch),
    ...patch,
    updatedAt: new Date().toISOString(),
  })
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T
}
