import type { Query } from '../../../lib/pg/transaction.ts'
import type { WatchedVersion, WatchRecord } from '../types.ts'
import { TAKEN_LEASE_MS } from '../watch-record.ts'

/**
 * The SQL of `boq_watches`, `boq_watched_versions` and `boq_standing_grants`, one function per
 * statement. `q` is the pool's or a transaction's. Records come back as stored, unchecked
 * (`watch-rows.ts` checks them).
 */

/**
 * A watch's row as read: its JSON record, not yet checked, and the columns kept beside it (what
 * is known of a watch whose record does not check).
 */
export interface WatchRow {
  id: string
  user_id: string
  project_id: string
  file_folder_id: string
  hook_id: string | null
  created_at: Date
  record: unknown
}

/** The columns of a `WatchRow`. */
const WATCH_COLUMNS = 'id, user_id, project_id, file_folder_id, hook_id, created_at, record'

/** A version's row as read: its JSON, not yet checked. */
export interface WatchedVersionRow {
  file_storage_id: string
  version: unknown
}

/** Versions recorded per statement: one JSON array each, however many a folder holds. */
const NOTE_BATCH = 5_000

/** Lock class of the standing grants (the two-key advisory locks are apart from the one-key ones). */
const GRANT_LOCK_CLASS = 7_120_424

/**
 * Records the watch unless its owner already watches that project and folder (the unique index
 * decides, whichever process inserts first): answers whether it was recorded.
 */
export async function insertWatch(q: Query, watch: WatchRecord): Promise<boolean> {
  const rows = await q(
    `INSERT INTO boq_watches
       (id, user_id, project_id, file_folder_id, hook_id, created_at, record)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)
     ON CONFLICT (user_id, project_id, file_folder_id) DO NOTHING
     RETURNING id`,
    [
      watch.id,
      watch.userId,
      watch.projectId,
      watch.fileFolderId,
      watch.hookId ?? null,
      watch.createdAt,
      JSON.stringify(watch),
    ],
  )
  return rows.length > 0
}

/** The person's watch of that project and folder. */
export async function watchOfFolder(
  q: Query,
  userId: string,
  projectId: string,
  fileFolderId: string,
): Promise<WatchRow | undefined> {
  const [row] = await q(
    `SELECT ${WATCH_COLUMNS} FROM boq_watches
     WHERE user_id = $1 AND project_id = $2 AND file_folder_id = $3`,
    [userId, projectId, fileFolderId],
  )
  return row as WatchRow | undefined
}

/** The newest watch whose webhook is `hookId`. */
export async function watchOfHook(q: Query, hookId: string): Promise<WatchRow | undefined> {
  const [row] = await q(
    `SELECT ${WATCH_COLUMNS} FROM boq_watches WHERE hook_id = $1
     ORDER BY created_at DESC, id DESC LIMIT 1`,
    [hookId],
  )
  return row as WatchRow | undefined
}

export async function watchById(q: Query, id: string): Promise<WatchRow | undefined> {
  const [row] = await q(`SELECT ${WATCH_COLUMNS} FROM boq_watches WHERE id = $1`, [id])
  return row as WatchRow | undefined
}

/** A watch's row, locked until the transaction ends. */
export async function watchForUpdate(q: Query, id: string): Promise<WatchRow | undefined> {
  const [row] = await q(`SELECT ${WATCH_COLUMNS} FROM boq_watches WHERE id = $1 FOR UPDATE`, [id])
  return row as WatchRow | undefined
}

export async function watchesOfUser(q: Query, userId: string): Promise<WatchRow[]> {
  return (await q(
    `SELECT ${WATCH_COLUMNS} FROM boq_watches WHERE user_id = $1 ORDER BY created_at DESC, id DESC`,
    [userId],
  )) as WatchRow[]
}

export async function everyWatch(q: Query): Promise<WatchRow[]> {
  return (await q(
    `SELECT ${WATCH_COLUMNS} FROM boq_watches ORDER BY created_at DESC, id DESC`,
  )) as WatchRow[]
}

/** The watch's record, and its webhook's column with it. */
export async function updateWatchRecord(q: Query, watch: WatchRecord): Promise<void> {
  await q('UPDATE boq_watches SET record = $2::jsonb, hook_id = $3 WHERE id = $1', [
    watch.id,
    JSON.stringify(watch),
    watch.hookId ?? null,
  ])
}

/** The watch, and with it (cascade) every version it saw. */
export async function deleteWatchRow(q: Query, id: string): Promise<void> {
  await q('DELETE FROM boq_watches WHERE id = $1', [id])
}

/**
 * Records the versions not yet recorded for the watch, a batch per statement; answers how many
 * were new. Versions recorded together are seen at once: they are taken in the order given (their
 * `ordinal`).
 */
export async function insertWatchedVersions(
  q: Query,
  watchId: string,
  versions: WatchedVersion[],
  state: 'pending' | 'baseline',
): Promise<number> {
  let inserted = 0
  for (let start = 0; start < versions.length; start += NOTE_BATCH) {
    const batch = versions.slice(start, start + NOTE_BATCH)
    const [row] = await q(
      `WITH new AS (
        INSERT INTO boq_watched_versions
          (watch_id, file_storage_id, state, seen_at, ordinal, version)
        SELECT $1, v ->> 'fileStorageId', $2, now(), $4::int + i, v
        FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS given (v, i)
        ON CONFLICT (watch_id, file_storage_id) DO NOTHING
        RETURNING 1
      ) SELECT count(*)::int AS n FROM new`,
      [watchId, state, JSON.stringify(batch), start],
    )
    inserted += Number(row?.n ?? 0)
  }
  return inserted
}

/**
 * Marks up to `limit` of the watch's waiting versions taken, oldest first, in one statement: a
 * row another process is taking is skipped, so no version is taken twice. A version taken long
 * ago and never settled is waiting again.
 */
export async function takeWaitingVersions(
  q: Query,
  watchId: string,
  limit: number,
): Promise<WatchedVersionRow[]> {
  return (await q(
    `WITH taken AS (
      UPDATE boq_watched_versions SET state = 'taken', taken_at = now()
      WHERE (watch_id, file_storage_id) IN (
        SELECT watch_id, file_storage_id FROM boq_watched_versions
        WHERE watch_id = $1 AND (state = 'pending'
          OR (state = 'taken' AND taken_at < now() - $3::float8 * interval '1 millisecond'))
        ORDER BY seen_at, ordinal
        LIMIT $2
        FOR UPDATE SKIP LOCKED
      )
      RETURNING file_storage_id, seen_at, ordinal, version
    ) SELECT file_storage_id, version FROM taken ORDER BY seen_at, ordinal`,
    [watchId, limit, TAKEN_LEASE_MS],
  )) as WatchedVersionRow[]
}

/** A taken version queued as a job. */
export async function markQueued(q: Query, watchId: string, fileStorageId: string, jobId: string) {
  await q(
    `UPDATE boq_watched_versions SET state = 'queued', job_id = $3
     WHERE watch_id = $1 AND file_storage_id = $2 AND state = 'taken'`,
    [watchId, fileStorageId, jobId],
  )
}

/** A taken version never to be extracted, and why. */
export async function markSkipped(
  q: Query,
  watchId: string,
  fileStorageId: string,
  reason: string,
) {
  await q(
    `UPDATE boq_watched_versions SET state = 'skipped', skipped_reason = $3
     WHERE watch_id = $1 AND file_storage_id = $2 AND state = 'taken'`,
    [watchId, fileStorageId, reason],
  )
}

/** A taken version waiting again, in the place it had (its `seen_at` unchanged). */
export async function markWaiting(q: Query, watchId: string, fileStorageId: string) {
  await q(
    `UPDATE boq_watched_versions SET state = 'pending', taken_at = NULL
     WHERE watch_id = $1 AND file_storage_id = $2 AND state = 'taken'`,
    [watchId, fileStorageId],
  )
}

export async function countWaiting(q: Query, watchId: string): Promise<number> {
  const [row] = await q(
    `SELECT count(*)::int AS n FROM boq_watched_versions
     WHERE watch_id = $1 AND state IN ('pending', 'taken')`,
    [watchId],
  )
  return Number(row?.n ?? 0)
}

/**
 * One use of the person's grant at a time, in any process, until the transaction ends. A lock
 * on the person rather than on their row: there may be no row yet to lock, and none is left
 * behind for a person who never had a grant.
 */
export async function lockStandingGrant(q: Query, userId: string): Promise<void> {
  await q('SELECT pg_advisory_xact_lock($1, hashtext($2))', [GRANT_LOCK_CLASS, userId])
}

export async function sealedGrant(q: Query, userId: string): Promise<string | undefined> {
  const [row] = await q('SELECT sealed FROM boq_standing_grants WHERE user_id = $1', [userId])
  return row ? String(row.sealed) : undefined
}

export async function keepSealedGrant(q: Query, userId: string, sealed: string): Promise<void> {
  await q(
    `INSERT INTO boq_standing_grants (user_id, sealed) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET sealed = EXCLUDED.sealed`,
    [userId, sealed],
  )
}

export async function dropSealedGrant(q: Query, userId: string): Promise<void> {
  await q('DELETE FROM boq_standing_grants WHERE user_id = $1', [userId])
}
