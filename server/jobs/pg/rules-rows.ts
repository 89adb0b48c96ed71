import * as v from 'valibot'
import { ClassificationEntrySchema, TakeoffRuleSchema } from '../../../contract/takeoff-rules.ts'
import type { SavedVersion } from '../../../contract/takeoff-rules-api.ts'
import type { RowsOf, RulesKind, SavedRules, SaveOutcome } from '../types.ts'
import {
  insertNextVersion,
  newestRules,
  newestVersion,
  type VersionRow,
  versions,
} from './rules-queries.ts'
import type { Query } from './transaction.ts'

/** PostgreSQL's unique_violation: another save took that version first. */
const UNIQUE_VIOLATION = '23505'

/** What a saved version's rows must be, as the API checks them before saving. */
const ROWS_SCHEMA = {
  rules: v.array(TakeoffRuleSchema),
  classification: v.array(ClassificationEntrySchema),
}

/**
 * A project's saved tables in `boq_rules`, one row per version. A save is one conditional insert
 * of the next version, made only while the held version is the newest; the primary key refuses a
 * second insert of the same version, so of two concurrent saves exactly one wins.
 */
export function rulesRows(query: Query) {
  return {
    async rules<K extends RulesKind>(
      projectId: string,
      kind: K,
    ): Promise<SavedRules<K> | undefined> {
      const row = await newestRules(query, projectId, kind)
      return row ? { ...meta(row), rows: checkedRows(kind, row, projectId) } : undefined
    },

    async rulesHistory(projectId: string, kind: RulesKind): Promise<SavedVersion[]> {
      const rows = await versions(query, projectId, kind)
      return rows.map((row) => ({ ...meta(row), rows: Number(row.row_count) }))
    },

    async saveRules<K extends RulesKind>(
      projectId: string,
      kind: K,
      expectedVersion: number,
      rows: RowsOf[K],
      savedBy: string,
    ): Promise<SaveOutcome<K>> {
      let inserted: VersionRow | undefined
      try {
        inserted = await insertNextVersion(
          query,
          { projectId, kind, expectedVersion, savedBy },
          rows,
        )
      } catch (error) {
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error
      }
      if (inserted) return { saved: { ...meta(inserted), rows } }
      const current = await newestVersion(query, projectId, kind)
      return { conflict: current && meta(current) }
    },
  }
}

/**
 * A version's rows, checked as the API checks a table before saving it. One that does not check
 * is refused rather than skipped: an older version in its place would be saved over, unseen.
 */
function checkedRows<K extends RulesKind>(
  kind: K,
  row: VersionRow & { rows: unknown },
  projectId: string,
): RowsOf[K] {
  const result = v.safeParse(ROWS_SCHEMA[kind], row.rows)
  if (result.success) return result.output as RowsOf[K]
  const issue = result.issues[0]
  const path = (issue.path ?? []).map((item) => String(item.key)).join('.')
  throw new Error(
    `the saved ${kind} version ${row.version} of project ${projectId} is not readable: ` +
      `${path ? `${path}: ` : ''}${issue.message}`,
  )
}

function meta(row: VersionRow): Omit<SavedVersion, 'rows'> {
  return {
    version: Number(row.version),
    savedBy: String(row.saved_by),
    savedAt: new Date(row.saved_at).toISOString(),
  }
}
