import { parseWatchedVersion, parseWatchRecord } from '../watch-record.ts'
import type { WatchedVersion, WatchRecord } from '../watch-types.ts'
import type { Warn } from './job-rows.ts'
import type { WatchedVersionRow, WatchRow } from './watch-queries.ts'

/**
 * A row's watch, checked as the embedded store checks its own, or undefined (with a warning
 * naming the watch) when it is not a watch record of that row: the row is skipped, as if absent,
 * and left in the table.
 */
export function watchOf(row: WatchRow, warn: Warn): WatchRecord | undefined {
  try {
    return parseWatchRecord(row.record, String(row.id))
  } catch (error) {
    warn(`watches: skipped the unreadable watch ${row.id}: ${(error as Error).message}`)
    return undefined
  }
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
