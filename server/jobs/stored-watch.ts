import * as v from 'valibot'
import { WatchStateSchema } from '../../contract/watches.ts'
import { checked } from './stored-job.ts'
import type { WatchedVersion, WatchRecord } from './watch-types.ts'

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
