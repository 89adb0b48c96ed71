import type { Query } from '../../../jobs/pg/transaction.ts'
import type { RulesKind } from '../types.ts'

/** The SQL of `boq_rules`, one function per statement; rows come back as stored. */

/** Who saved a version, and when. */
export interface VersionRow {
  version: number
  saved_by: string
  saved_at: Date
}

export async function newestVersion(
  q: Query,
  projectId: string,
  kind: RulesKind,
): Promise<VersionRow | undefined> {
  const [row] = await q(
    `SELECT version, saved_by, saved_at FROM boq_rules
      WHERE project_id = $1 AND kind = $2 ORDER BY version DESC LIMIT 1`,
    [projectId, kind],
  )
  return row as VersionRow | undefined
}

/** A version with its rows, not yet checked. */
export type RulesRow = VersionRow & { rows: unknown }

/** The newest version below `below` (any, when absent) with its rows, not yet checked. */
export async function newestRules(
  q: Query,
  projectId: string,
  kind: RulesKind,
  below?: number,
): Promise<RulesRow | undefined> {
  const [row] = await q(
    `SELECT version, saved_by, saved_at, rows FROM boq_rules
      WHERE project_id = $1 AND kind = $2 AND ($3::int IS NULL OR version < $3::int)
      ORDER BY version DESC LIMIT 1`,
    [projectId, kind, below ?? null],
  )
  return row as RulesRow | undefined
}

/** Those versions with their rows, not yet checked. */
export async function rulesOfVersions(
  q: Query,
  projectId: string,
  kind: RulesKind,
  numbers: number[],
): Promise<RulesRow[]> {
  return (await q(
    `SELECT version, saved_by, saved_at, rows FROM boq_rules
      WHERE project_id = $1 AND kind = $2 AND version = ANY($3::int[])`,
    [projectId, kind, numbers],
  )) as RulesRow[]
}

/** Every version, newest first, with its number of rows. */
export async function versions(
  q: Query,
  projectId: string,
  kind: RulesKind,
): Promise<(VersionRow & { row_count: number })[]> {
  return (await q(
    `SELECT version, saved_by, saved_at, row_count FROM boq_rules
      WHERE project_id = $1 AND kind = $2 ORDER BY version DESC`,
    [projectId, kind],
  )) as (VersionRow & { row_count: number })[]
}

/**
 * Inserts version `after + 1` only while `after` is the newest: the saved version, or none when
 * another save came first. The primary key refuses a second insert of one version
 * (unique_violation) when two saves race past the condition.
 */
export async function insertNextVersion(
  q: Query,
  save: { projectId: string; kind: RulesKind; after: number; savedBy: string },
  rows: unknown[],
): Promise<VersionRow | undefined> {
  const [row] = await q(
    `INSERT INTO boq_rules (project_id, kind, version, saved_by, saved_at, row_count, rows)
     SELECT $1, $2, $3::int + 1, $4, now(), $5, $6::jsonb
      WHERE COALESCE((SELECT max(version) FROM boq_rules
                       WHERE project_id = $1 AND kind = $2), 0) = $3::int
     RETURNING version, saved_by, saved_at`,
    [save.projectId, save.kind, save.after, save.savedBy, rows.length, JSON.stringify(rows)],
  )
  return row as VersionRow | undefined
}
