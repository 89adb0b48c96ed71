import type { SavedVersion } from '../../../../contract/takeoff-rules-api.ts'
import { warnOnce } from '../../../jobs/pg/job-rows.ts'
import type { QueueDb } from '../../../jobs/pg/queue.ts'
import type { Query } from '../../../jobs/pg/transaction.ts'
import { log as serverLog } from '../../../log.ts'
import { checkedSavedRows } from '../saved-rows.ts'
import type { RowsOf, RulesKind, RulesStore, SavedRules, SaveOutcome } from '../types.ts'
import {
  insertNextVersion,
  newestRules,
  newestVersion,
  type RulesRow,
  rulesOfVersions,
  type VersionRow,
  versions,
} from './rules-queries.ts'

/** PostgreSQL's unique_violation: another save took that version first. */
const UNIQUE_VIOLATION = '23505'

/** The largest version PostgreSQL's integer column holds. */
const MAX_VERSION = 2 ** 31 - 1

/** Versions whose rows are read at once, for history to know which are readable. */
const HISTORY_BATCH = 20

/**
 * A project's saved tables on PostgreSQL, in `boq_rules` (migration 001, made by the job store's
 * migrations, on whose pool this store runs), one row per version. A save is one conditional insert
 * of the next version, made only while the held version is the newest; the primary key refuses a
 * second insert of the same version, so of two concurrent saves exactly one wins. A version whose
 * rows do not check is skipped, with a warning naming it: the newest readable version answers,
 * history lists the readable ones, and a save of the newest readable one goes after the
 * unreadable ones above it.
 */
export function openPostgresRulesStore(options: {
  /** The PostgreSQL job store's pool (pg-boss's), its migrations applied. */
  db: QueueDb
  log?: (message: string) => void
}): RulesStore {
  const warn = warnOnce(options.log ?? ((message) => serverLog.warn(message)))
  const query: Query = async (text, values) => (await options.db.executeSql(text, values)).rows
  /** Whether each version's rows check; saved versions never change, so each is checked once. */
  const readable = new Map<string, boolean>()
  const keyOf = (projectId: string, kind: RulesKind, version: unknown) =>
    JSON.stringify([projectId, kind, Number(version)])

  /** The row's rows, checked; undefined (with a warning) when they do not check. */
  function readableRows<K extends RulesKind>(
    kind: K,
    row: RulesRow,
    projectId: string,
  ): RowsOf[K] | undefined {
    const key = keyOf(projectId, kind, row.version)
    try {
      const rows = checkedRows(kind, row, projectId)
      readable.set(key, true)
      return rows
    } catch (error) {
      readable.set(key, false)
      warn(`rules: skipped ${(error as Error).message}`)
      return undefined
    }
  }

  async function newestReadable<K extends RulesKind>(
    projectId: string,
    kind: K,
  ): Promise<SavedRules<K> | undefined> {
    let below: number | undefined
    for (;;) {
      const row = await newestRules(query, projectId, kind, below)
      if (!row) return undefined
      const rows = readableRows(kind, row, projectId)
      if (rows) return { ...meta(row), rows }
      below = Number(row.version)
    }
  }

  async function insertAfter(
    save: { projectId: string; kind: RulesKind; after: number; savedBy: string },
    rows: unknown[],
  ): Promise<VersionRow | undefined> {
    try {
      return await insertNextVersion(query, save, rows)
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error
      return undefined
    }
  }

  return {
    rules: newestReadable,

    async savedRules<K extends RulesKind>(projectId: string, kind: K, version: number) {
      // An integer column: a number past it was never saved.
      if (!Number.isInteger(version) || version < 1 || version > MAX_VERSION) return undefined
      const [row] = await rulesOfVersions(query, projectId, kind, [version])
      const rows = row && readableRows(kind, row, projectId)
      return row && rows ? { ...meta(row), rows } : undefined
    },

    async rulesHistory(projectId: string, kind: RulesKind): Promise<SavedVersion[]> {
      const rows = await versions(query, projectId, kind)
      const unchecked = rows
        .map((row) => Number(row.version))
        .filter((version) => !readable.has(keyOf(projectId, kind, version)))
      for (let start = 0; start < unchecked.length; start += HISTORY_BATCH) {
        const batch = unchecked.slice(start, start + HISTORY_BATCH)
        for (const row of await rulesOfVersions(query, projectId, kind, batch)) {
          readableRows(kind, row, projectId)
        }
      }
      return rows
        .filter((row) => readable.get(keyOf(projectId, kind, row.version)) !== false)
        .map((row) => ({ ...meta(row), rows: Number(row.row_count) }))
    },

    async saveRules<K extends RulesKind>(
      projectId: string,
      kind: K,
      expectedVersion: number,
      rows: RowsOf[K],
      savedBy: string,
    ): Promise<SaveOutcome<K>> {
      const save = { projectId, kind, savedBy }
      let inserted = await insertAfter({ ...save, after: expectedVersion }, rows)
      if (!inserted) {
        // Not the newest: stale, unless the versions above it cannot be read (the person holds
        // the newest they could see).
        const newest = Number((await newestVersion(query, projectId, kind))?.version ?? 0)
        const held = (await newestReadable(projectId, kind))?.version ?? 0
        if (newest !== expectedVersion && held === expectedVersion) {
          inserted = await insertAfter({ ...save, after: newest }, rows)
        }
      }
      if (inserted) return { saved: { ...meta(inserted), rows } }
      const current = await newestReadable(projectId, kind)
      if (!current) return { conflict: undefined }
      const { rows: _rows, ...held } = current
      return { conflict: held }
    },

    async close() {},
  }
}

/** A version's rows, checked as the API checks a table before saving it; throws saying which. */
function checkedRows<K extends RulesKind>(kind: K, row: RulesRow, projectId: string): RowsOf[K] {
  try {
    return checkedSavedRows(kind, row.rows)
  } catch (error) {
    throw new Error(
      `the unreadable saved ${kind} version ${row.version} of project ${projectId}: ${(error as Error).message}`,
    )
  }
}

function meta(row: VersionRow): Omit<SavedVersion, 'rows'> {
  return {
    version: Number(row.version),
    savedBy: String(row.saved_by),
    savedAt: new Date(row.saved_at).toISOString(),
  }
}
