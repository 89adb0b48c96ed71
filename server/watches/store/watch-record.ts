import * as v from 'valibot'
import { WatchStateSchema } from '#contract/watches.ts'
import { checked } from '../../jobs/stored-job.ts'
import type { NewWatch, WatchedVersion, WatchPatch, WatchRecord } from './types.ts'

/** A taken version not settled within this long (its process gone) is pending again. */
export const TAKEN_LEASE_MS = 5 * 60 * 1000

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

const text = v.pipe(v.string(), v.minLength(1))

/**
 * What a stored watch must hold for a store to use it: the fields every watch has, of their
 * types. The others (its folder, units, reason, webhook) are kept as they are.
 */
const WatchRecordSchema = v.looseObject({
  id: text,
  userId: text,
  projectId: text,
  fileFolderId: text,
  createdAt: text,
  updatedAt: text,
  state: WatchStateSchema,
})

/** What a recorded version must hold to be extracted. */
const WatchedVersionSchema = v.looseObject({
  fileStorageId: text,
  fileName: text,
  projectId: text,
  fileFolderId: text,
})

/**
 * A watch record read back from where a store keeps it, checked; throws saying what is wrong (the
 * store skips it, naming it). `id` is the watch it was read for: a record of another is refused.
 */
export function parseWatchRecord(record: unknown, id: string): WatchRecord {
  const watch = checked(WatchRecordSchema, record)
  if (watch.id !== id) throw new Error(`it names watch ${watch.id}, not ${id}`)
  return watch as unknown as WatchRecord
}

/** A recorded version read back, checked as `parseWatchRecord` checks a watch. */
export function parseWatchedVersion(record: unknown, fileStorageId: string): WatchedVersion {
  const version = checked(WatchedVersionSchema, record)
  if (version.fileStorageId !== fileStorageId) {
    throw new Error(`it names version ${version.fileStorageId}, not ${fileStorageId}`)
  }
  return version as unknown as WatchedVersion
}

/** What a watch whose stored state cannot be read tells its owner, and what to do. */
export const RECORD_DAMAGED =
  'BOQ’s record of this watch is damaged, so it cannot tell new drawings from those that were already there. Stop watching, then watch the folder again.'

/** The watch, paused because its stored state cannot be read. */
export function pausedAsDamaged(watch: WatchRecord): WatchRecord {
  return patchedWatch(watch, { state: 'paused', pausedReason: RECORD_DAMAGED, pausedFor: 'record' })
}

const StoredFolderSchema = v.object({
  name: v.optional(v.string()),
  hubId: v.optional(v.string()),
  path: v.optional(v.array(v.string())),
})

/**
 * What a store answers in place of a watch whose record cannot be read, from what is still known
 * of it (its owner, project and folder, kept apart or still readable in the record): paused,
 * saying why, so its owner sees it and can end it. Undefined when not even its owner is known.
 */
export function damagedWatch(
  id: string,
  known: {
    userId?: unknown
    projectId?: unknown
    fileFolderId?: unknown
    createdAt?: unknown
    hookId?: unknown
    folder?: unknown
  },
): WatchRecord | undefined {
  const { userId, projectId, fileFolderId, hookId, folder } = known
  if (!isText(userId) || !isText(projectId) || !isText(fileFolderId)) return undefined
  const createdAt =
    known.createdAt instanceof Date
      ? known.createdAt.toISOString()
      : isText(known.createdAt)
        ? known.createdAt
        : new Date().toISOString()
  return withoutUndefined({
    id,
    userId,
    projectId,
    fileFolderId,
    ...(v.is(StoredFolderSchema, folder) ? { folder } : {}),
    createdAt,
    updatedAt: createdAt,
    state: 'paused',
    pausedReason: RECORD_DAMAGED,
    pausedFor: 'record',
    pausedAt: createdAt,
    ...(isText(hookId) ? { hookId } : {}),
  } satisfies WatchRecord)
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== ''
