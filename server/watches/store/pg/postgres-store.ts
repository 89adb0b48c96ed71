import { randomUUID } from 'node:crypto'
import { seal, unseal } from '../../../auth/sealed.ts'
import { warnOnce } from '../../../jobs/pg/job-rows.ts'
import type { QueueDb } from '../../../lib/pg/transaction.ts'
import { inTransaction, type Query } from '../../../lib/pg/transaction.ts'
import { isUuid } from '../../../lib/pg/uuid.ts'
import { log as serverLog } from '../../../log.ts'
import type { KeptGrant, StandingGrant, WatchStore } from '../types.ts'
import { newWatchRecord, patchedWatch } from '../watch-record.ts'
import {
  countWaiting,
  deleteWatchRow,
  dropSealedGrant,
  everyWatch,
  insertWatch,
  insertWatchedVersions,
  keepSealedGrant,
  lockStandingGrant,
  markQueued,
  markSkipped,
  markWaiting,
  sealedGrant,
  takeWaitingVersions,
  updateWatchRecord,
  watchById,
  watchesOfUser,
  watchForUpdate,
  watchOfFolder,
  watchOfHook,
} from './watch-queries.ts'
import { readableWatchOf, versionOf, watchesOf, watchOf } from './watch-rows.ts'

/**
 * The watches on PostgreSQL, for any number of processes: a person's folder is watched once and a
 * version recorded once, by the tables' unique keys; taken by one process by a row lock skipped
 * by the others, and a person's grant used by one process at a time under a lock on the person.
 * Grants are sealed with `tokenKey`, without expiry: the provider says when a refresh token no
 * longer works. The tables (migration 002) are made by the job store's migrations, on whose pool
 * this store runs; the SQL is in `watch-queries.ts`, and a row whose record does not check is
 * answered as `watch-rows.ts` says, with a warning.
 */
export function openPostgresWatchStore(options: {
  /** The PostgreSQL job store's pool (pg-boss's), its migrations applied. */
  db: QueueDb
  tokenKey: Uint8Array
  log?: (message: string) => void
}): WatchStore {
  const { db, tokenKey } = options
  const warn = warnOnce(options.log ?? ((message) => serverLog.warn(message)))
  const query: Query = async (text, values) => (await db.executeSql(text, values)).rows

  /** The person's grant unsealed; `'damaged'` (said, naming its row) when it does not unseal. */
  async function unsealed(userId: string, sealed: string | undefined): Promise<KeptGrant> {
    if (sealed === undefined) return undefined
    const grant = await unseal<StandingGrant>(sealed, tokenKey)
    if (grant) return grant
    warn(
      `watches: the standing grant of ${userId} in boq_standing_grants cannot be read (cut ` +
        'short, altered, or sealed with another key); their watches pause until BOQ is allowed again',
    )
    return 'damaged'
  }

  return {
    async createWatch(input, baseline = []) {
      // The person's watch of the folder, deleted between our insert and our read, is gone: try
      // again, a few times at most.
      for (let attempt = 0; attempt < 3; attempt++) {
        const watch = newWatchRecord(randomUUID(), input)
        const created = await inTransaction(db, async (q) => {
          if (!(await insertWatch(q, watch))) return false
          if (baseline.length > 0) await insertWatchedVersions(q, watch.id, baseline, 'baseline')
          return true
        })
        if (created) return { watch, created }
        const row = await watchOfFolder(query, input.userId, input.projectId, input.fileFolderId)
        if (!row) continue
        const same = watchOf(row, warn)
        if (!same) throw new Error(`The watch ${row.id} of this folder cannot be read.`)
        return { watch: same, created: false }
      }
      throw new Error('The folder’s watch changed while it was being set; try again.')
    },

    async getWatch(id) {
      if (!isUuid(id)) return undefined
      const row = await watchById(query, id)
      return row && watchOf(row, warn)
    },

    async watchByHookId(hookId) {
      const row = await watchOfHook(query, hookId)
      return row && watchOf(row, warn)
    },

    async watchesOf(userId) {
      return watchesOf(await watchesOfUser(query, userId), warn)
    },

    async allWatches() {
      return watchesOf(await everyWatch(query), warn)
    },

    async updateWatch(id, patch) {
      if (!isUuid(id)) return
      await inTransaction(db, async (q) => {
        const row = await watchForUpdate(q, id)
        const watch = row && readableWatchOf(row, warn)
        // A watch whose record cannot be read stays as it is said to be, until it ends.
        if (watch && watch.pausedFor !== 'record') {
          await updateWatchRecord(q, patchedWatch(watch, patch))
        }
      })
    },

    async deleteWatch(id) {
      if (isUuid(id)) await deleteWatchRow(query, id)
    },

    async noteWatchedVersions(watchId, versions, as) {
      if (!isUuid(watchId) || versions.length === 0) return 0
      return insertWatchedVersions(query, watchId, versions, as)
    },

    async takeWatchedVersions(watchId, limit) {
      if (!isUuid(watchId) || limit <= 0) return []
      const rows = await takeWaitingVersions(query, watchId, limit)
      const taken = []
      for (const row of rows) {
        const version = versionOf(row, watchId, warn)
        if (version) taken.push(version)
        // Never readable, so never extracted: taking it again would only warn again.
        else {
          await markSkipped(
            query,
            watchId,
            String(row.file_storage_id),
            'the recorded version does not read as one',
          )
        }
      }
      return taken
    },

    async settleWatchedVersion(watchId, fileStorageId, outcome) {
      if (!isUuid(watchId)) return
      if (outcome === 'wait') await markWaiting(query, watchId, fileStorageId)
      else if ('jobId' in outcome) await markQueued(query, watchId, fileStorageId, outcome.jobId)
      else await markSkipped(query, watchId, fileStorageId, outcome.skipped)
    },

    async waitingCount(watchId) {
      return isUuid(watchId) ? countWaiting(query, watchId) : 0
    },

    async standingGrant(userId) {
      return unsealed(userId, await sealedGrant(query, userId))
    },

    async withStandingGrant(userId, use) {
      // The lock is held while `use` runs (a refresh with the provider): a second process waits,
      // then reads the refresh token the first one kept.
      return inTransaction(db, async (q) => {
        await lockStandingGrant(q, userId)
        const { grant, value } = await use(await unsealed(userId, await sealedGrant(q, userId)))
        if (grant) await keepSealedGrant(q, userId, await seal(grant, tokenKey))
        else await dropSealedGrant(q, userId)
        return value
      })
    },

    async close() {
      // Every statement is awaited by its caller; the pool is the job store's.
    },
  }
}
