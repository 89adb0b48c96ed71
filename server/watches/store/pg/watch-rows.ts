import type { Warn } from '../../../jobs/pg/job-rows.ts'
import type { WatchedVersion, WatchRecord } from '../types.ts'
import { damagedWatch, parseWatchedVersion, parseWatchRecord } from '../watch-record.ts'
import type { WatchedVersionRow, WatchRow } from './watch-queries.ts'

/**
 * A row's watch, checked as the embedded store checks its own, or undefined (with a warning
 * naming the watch) when it is not a watch record of that row: left in the table, unchanged.
 */
export function readableWatchOf(row: WatchRow, warn: Warn): WatchRecord | undefined {
  try {
    return parseWatchRecord(row.record, String(row.id))
  } catch (error) {
    warn(
      `watches: the record of watch ${row.id} cannot be read (${(error as Error).message}); ` +
        'it is shown paused until its owner stops it',
    )
    return undefined
  }
}

/**
 * As `readableWatchOf`, and in place of a record that does not check, the watch as its columns
 * know it, paused and saying why (never active while nothing is done for it): its owner sees it
 * and can end it.
 */
export function watchOf(row: WatchRow, warn: Warn): WatchRecord | undefined {
  return (
    readableWatchOf(row, warn) ??
    damagedWatch(String(row.id), {
      userId: row.user_id,
      projectId: row.project_id,
      fileFolderId: row.file_folder_id,
      createdAt: row.created_at,
      hookId: row.hook_id,
      folder: (row.record as { folder?: unknown } | null)?.folder,
    })
  )
}

/** The rows' watches that check, in order. */
export function watchesOf(rows: WatchRow[], warn: Warn): WatchRecord[] {
  return rows.flatMap((row) => watchOf(row, warn) ?? [])
}

/** A taken row's version, or undefined (with a warning) when it does not check. */
export function versionOf(
  row: WatchedVersionRow,
  watchId: string,
  warn: Warn,
): WatchedVersion | undefined {
  try {
    return parseWatchedVersion(row.version, String(row.file_storage_id))
  } catch (error) {
    warn(
      `watches: skipped the unreadable version ${row.file_storage_id} of watch ${watchId}: ` +
        (error as Error).message,
    )
    return undefined
  }
}
