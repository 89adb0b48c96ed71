import type { SavedVersion } from '../../../contract/takeoff-rules-api.ts'
import type { RowsOf, RulesKind, SavedRules, SaveOutcome } from '../types.ts'
import type { Query } from './transaction.ts'

/** PostgreSQL's unique_violation: another save took that version first. */
const UNIQUE_VIOLATION = '23505'

/**
 * A project's saved tables in `boq_rules`, one row per version. A save is one conditional insert
 * of the next version, made only while the held version is the newest; the primary key refuses a
 * second insert of the same version, so of two concurrent saves exactly one wins.
 */
export function rulesRows(query: Query) {
  async function current(projectId: string, kind: RulesKind) {
    const [row] = await query(
      `SELECT version, saved_by, saved_at FROM boq_rules
        WHERE project_id = $1 AND kind = $2 ORDER BY version DESC LIMIT 1`,
      [projectId, kind],
    )
    return row ? meta(row) : undefined
  }

  return {
    async rules<K extends RulesKind>(
      projectId: string,
      kind: K,
    ): Promise<SavedRules<K> | undefined> {
      const [row] = await query(
        `SELECT version, saved_by, saved_at, rows FROM boq_rules
          WHERE project_id = $1 AND kind = $2 ORDER BY version DESC LIMIT 1`,
        [projectId, kind],
      )
      return row ? { ...meta(row), rows: row.rows as RowsOf[K] } : undefined
    },

    async rulesHistory(projectId: string, kind: RulesKind): Promise<SavedVersion[]> {
      const rows = await query(
        `SELECT version, saved_by, saved_at, row_count FROM boq_rules
          WHERE project_id = $1 AND kind = $2 ORDER BY version DESC`,
        [projectId, kind],
      )
      return rows.map((row) => ({ ...meta(row), rows: Number(row.row_count) }))
    },

    async saveRules<K extends RulesKind>(
      projectId: string,
      kind: K,
      expectedVersion: number,
      rows: RowsOf[K],
      savedBy: string,
    ): Promise<SaveOutcome<K>> {
      let inserted: Awaited<ReturnType<Query>>
      try {
        inserted = await query(
          `INSERT INTO boq_rules (project_id, kind, version, saved_by, saved_at, row_count, rows)
           SELECT $1, $2, $3::int + 1, $4, now(), $5, $6::jsonb
            WHERE COALESCE((SELECT max(version) FROM boq_rules
                             WHERE project_id = $1 AND kind = $2), 0) = $3::int
           RETURNING version, saved_by, saved_at`,
          [projectId, kind, expectedVersion, savedBy, rows.length, JSON.stringify(rows)],
        )
      } catch (error) {
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error
        inserted = []
      }
      const [row] = inserted
      if (row) return { saved: { ...meta(row), rows } }
      return { conflict: await current(projectId, kind) }
    },
  }
}

function meta(row: Record<string, unknown>): Omit<SavedVersion, 'rows'> {
  return {
    version: Number(row.version),
    savedBy: String(row.saved_by),
    savedAt: new Date(row.saved_at as string | Date).toISOString(),
  }
}
