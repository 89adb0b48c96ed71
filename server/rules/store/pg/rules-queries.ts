import type { Query } from '../../../lib/pg/transaction.ts'
import type { RulesKind } from '../types.ts'

/**
 * The SQL of a project's versioned documents, one function per statement; rows come back as
 * stored. Tables in `boq_rules` (one `kind` each); the bill settings and the locations one version
 * per row in tables of their own (`boq_bill_settings`, `boq_locations`).
 */

/** Who saved a version, and when. */
export interface VersionRow {
  version: number
  saved_by: string
  saved_at: Date
}

/** A version with its document, not yet checked. */
export type ContentRow = VersionRow & { content: unknown }

/** The statements of one document's versions (a table of one kind, or the bill settings). */
export interface DocumentQueries {
  /** Names the document in warnings: `rules`, `classification`, `bill settings`. */
  name: string
  newestVersion(q: Query, projectId: string): Promise<VersionRow | undefined>
  /** The newest version below `below` (any, when absent) with its document. */
  newest(q: Query, projectId: string, below?: number): Promise<ContentRow | undefined>
  /** Those versions with their documents. */
  ofVersions(q: Query, projectId: string, numbers: number[]): Promise<ContentRow[]>
  /** Every version, newest first, with its size (a table's number of rows). */
  versions(q: Query, projectId: string): Promise<(VersionRow & { size: number | null })[]>
  /**
   * Inserts version `after + 1` only while `after` is the newest: the saved version, or none when
   * another save came first. The primary key refuses a second insert of one version
   * (unique_violation) when two saves race past the condition.
   */
  insertNext(
    q: Query,
    save: { projectId: string; after: number; savedBy: string },
    content: unknown,
    size: number | null,
  ): Promise<VersionRow | undefined>
}

/** A table's versions in `boq_rules`. */
export function tableQueries(kind: RulesKind): DocumentQueries {
  return {
    name: kind,
    async newestVersion(q, projectId) {
      const [row] = await q(
        `SELECT version, saved_by, saved_at FROM boq_rules
          WHERE project_id = $1 AND kind = $2 ORDER BY version DESC LIMIT 1`,
        [projectId, kind],
      )
      return row as VersionRow | undefined
    },
    async newest(q, projectId, below) {
      const [row] = await q(
        `SELECT version, saved_by, saved_at, rows AS content FROM boq_rules
          WHERE project_id = $1 AND kind = $2 AND ($3::int IS NULL OR version < $3::int)
          ORDER BY version DESC LIMIT 1`,
        [projectId, kind, below ?? null],
      )
      return row as ContentRow | undefined
    },
    async ofVersions(q, projectId, numbers) {
      return (await q(
        `SELECT version, saved_by, saved_at, rows AS content FROM boq_rules
          WHERE project_id = $1 AND kind = $2 AND version = ANY($3::int[])`,
        [projectId, kind, numbers],
      )) as ContentRow[]
    },
    async versions(q, projectId) {
      return (await q(
        `SELECT version, saved_by, saved_at, row_count AS size FROM boq_rules
          WHERE project_id = $1 AND kind = $2 ORDER BY version DESC`,
        [projectId, kind],
      )) as (VersionRow & { size: number })[]
    },
    async insertNext(q, save, content, size) {
      const [row] = await q(
        `INSERT INTO boq_rules (project_id, kind, version, saved_by, saved_at, row_count, rows)
         SELECT $1, $2, $3::int + 1, $4, now(), $5, $6::jsonb
          WHERE COALESCE((SELECT max(version) FROM boq_rules
                           WHERE project_id = $1 AND kind = $2), 0) = $3::int
         RETURNING version, saved_by, saved_at`,
        [save.projectId, kind, save.after, save.savedBy, size ?? 0, JSON.stringify(content)],
      )
      return row as VersionRow | undefined
    },
  }
}

/**
 * The statements of a document kept one version per row in a table of its own: `table` holds
 * `project_id, version, saved_by, saved_at`, the document in `column`, and, when `rowCount` is
 * named, the number of rows it holds (its size in the history). The names are the code's own,
 * never a person's.
 */
export function oneRowPerVersion(options: {
  name: string
  table: string
  column: string
  rowCount?: string
}): DocumentQueries {
  const { name, table, column, rowCount } = options
  const size = rowCount ?? 'NULL::int'
  return {
    name,
    async newestVersion(q, projectId) {
      const [row] = await q(
        `SELECT version, saved_by, saved_at FROM ${table}
          WHERE project_id = $1 ORDER BY version DESC LIMIT 1`,
        [projectId],
      )
      return row as VersionRow | undefined
    },
    async newest(q, projectId, below) {
      const [row] = await q(
        `SELECT version, saved_by, saved_at, ${column} AS content FROM ${table}
          WHERE project_id = $1 AND ($2::int IS NULL OR version < $2::int)
          ORDER BY version DESC LIMIT 1`,
        [projectId, below ?? null],
      )
      return row as ContentRow | undefined
    },
    async ofVersions(q, projectId, numbers) {
      return (await q(
        `SELECT version, saved_by, saved_at, ${column} AS content FROM ${table}
          WHERE project_id = $1 AND version = ANY($2::int[])`,
        [projectId, numbers],
      )) as ContentRow[]
    },
    async versions(q, projectId) {
      return (await q(
        `SELECT version, saved_by, saved_at, ${size} AS size FROM ${table}
          WHERE project_id = $1 ORDER BY version DESC`,
        [projectId],
      )) as (VersionRow & { size: number | null })[]
    },
    async insertNext(q, save, content, rows) {
      const [row] = await q(
        `INSERT INTO ${table} (project_id, version, saved_by, saved_at, ${rowCount ? `${rowCount}, ` : ''}${column})
         SELECT $1, $2::int + 1, $3, now(), ${rowCount ? '$5, ' : ''}$4::jsonb
          WHERE COALESCE((SELECT max(version) FROM ${table}
                           WHERE project_id = $1), 0) = $2::int
         RETURNING version, saved_by, saved_at`,
        [
          save.projectId,
          save.after,
          save.savedBy,
          JSON.stringify(content),
          ...(rowCount ? [rows ?? 0] : []),
        ],
      )
      return row as VersionRow | undefined
    },
  }
}

/** The bill settings' versions in `boq_bill_settings` (migration 003). */
export const settingsQueries = oneRowPerVersion({
  name: 'bill settings',
  table: 'boq_bill_settings',
  column: 'settings',
})

/** The locations tables' versions in `boq_locations` (migration 005). */
export const locationsQueries = oneRowPerVersion({
  name: 'locations',
  table: 'boq_locations',
  column: 'rows',
  rowCount: 'row_count',
})
