import type { Warn } from '../../../jobs/pg/job-rows.ts'
import type { Query } from '../../../lib/pg/transaction.ts'
import type { Saved, SavedMeta, SavedOutcome } from '../types.ts'
import type { ContentRow, DocumentQueries, VersionRow } from './rules-queries.ts'

/** PostgreSQL's unique_violation: another save took that version first. */
const UNIQUE_VIOLATION = '23505'

/** The largest version PostgreSQL's integer column holds. */
const MAX_VERSION = 2 ** 31 - 1

/** Versions whose documents are read at once, for history to know which are readable. */
const HISTORY_BATCH = 20

/**
 * A project's saved versions of one document, one row per version. A save is one conditional
 * insert of the next version, made only while the held version is the newest; the primary key
 * refuses a second insert of the same version, so of two concurrent saves exactly one wins. A
 * version whose document does not check is skipped, with a warning naming it: the newest readable
 * version answers, history lists the readable ones, and a save of the newest readable one goes
 * after the unreadable ones above it.
 */
export function versionedRows<T>(options: {
  query: Query
  warn: Warn
  sql: DocumentQueries
  /** The document read back, checked as the API checks it before saving; throws saying where. */
  check: (content: unknown) => T
  /** How large a version is, kept for its history (a table's rows); none: not said. */
  sizeOf?: (content: T) => number
}) {
  const { query, warn, sql, check } = options
  /** Whether each version checks; saved versions never change, so each is checked once. */
  const readable = new Map<string, boolean>()
  const keyOf = (projectId: string, version: unknown) =>
    JSON.stringify([projectId, Number(version)])

  /** The row's document, checked; undefined (with a warning) when it does not check. */
  function readableContent(row: ContentRow, projectId: string): Saved<T> | undefined {
    const key = keyOf(projectId, row.version)
    try {
      const content = check(row.content)
      readable.set(key, true)
      return { ...meta(row), content }
    } catch (error) {
      readable.set(key, false)
      warn(
        `rules: skipped the unreadable saved ${sql.name} version ${row.version} of project ${projectId}: ${(error as Error).message}`,
      )
      return undefined
    }
  }

  async function latest(projectId: string): Promise<Saved<T> | undefined> {
    let below: number | undefined
    for (;;) {
      const row = await sql.newest(query, projectId, below)
      if (!row) return undefined
      const saved = readableContent(row, projectId)
      if (saved) return saved
      below = Number(row.version)
    }
  }

  async function insertAfter(
    save: { projectId: string; after: number; savedBy: string },
    content: T,
  ): Promise<VersionRow | undefined> {
    try {
      return await sql.insertNext(query, save, content, options.sizeOf?.(content) ?? null)
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error
      return undefined
    }
  }

  return {
    latest,

    async version(projectId: string, version: number): Promise<Saved<T> | undefined> {
      // An integer column: a number past it was never saved.
      if (!Number.isInteger(version) || version < 1 || version > MAX_VERSION) return undefined
      const [row] = await sql.ofVersions(query, projectId, [version])
      return row && readableContent(row, projectId)
    },

    async history(projectId: string): Promise<(SavedMeta & { size?: number })[]> {
      const rows = await sql.versions(query, projectId)
      const unchecked = rows
        .map((row) => Number(row.version))
        .filter((version) => !readable.has(keyOf(projectId, version)))
      for (let start = 0; start < unchecked.length; start += HISTORY_BATCH) {
        const batch = unchecked.slice(start, start + HISTORY_BATCH)
        for (const row of await sql.ofVersions(query, projectId, batch)) {
          readableContent(row, projectId)
        }
      }
      return rows
        .filter((row) => readable.get(keyOf(projectId, row.version)) !== false)
        .map((row) => ({ ...meta(row), ...(row.size === null ? {} : { size: Number(row.size) }) }))
    },

    async save(
      projectId: string,
      expectedVersion: number,
      content: T,
      savedBy: string,
    ): Promise<SavedOutcome<T>> {
      let inserted = await insertAfter({ projectId, savedBy, after: expectedVersion }, content)
      if (!inserted) {
        // Not the newest: stale, unless the versions above it cannot be read (the person holds
        // the newest they could see).
        const newest = Number((await sql.newestVersion(query, projectId))?.version ?? 0)
        const held = (await latest(projectId))?.version ?? 0
        if (newest !== expectedVersion && held === expectedVersion) {
          inserted = await insertAfter({ projectId, savedBy, after: newest }, content)
        }
      }
      if (inserted) return { saved: { ...meta(inserted), content } }
      const current = await latest(projectId)
      if (!current) return { conflict: undefined }
      const { content: _content, ...held } = current
      return { conflict: held }
    },
  }
}

function meta(row: VersionRow): SavedMeta {
  return {
    version: Number(row.version),
    savedBy: String(row.saved_by),
    savedAt: new Date(row.saved_at).toISOString(),
  }
}
