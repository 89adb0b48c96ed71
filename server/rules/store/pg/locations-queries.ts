import type { ContentRow, DocumentQueries, VersionRow } from './rules-queries.ts'

/** The locations tables' versions in `boq_locations` (migration 005), one row per version. */
export const locationsQueries: DocumentQueries = {
  name: 'locations',
  async newestVersion(q, projectId) {
    const [row] = await q(
      `SELECT version, saved_by, saved_at FROM boq_locations
        WHERE project_id = $1 ORDER BY version DESC LIMIT 1`,
      [projectId],
    )
    return row as VersionRow | undefined
  },
  async newest(q, projectId, below) {
    const [row] = await q(
      `SELECT version, saved_by, saved_at, rows AS content FROM boq_locations
        WHERE project_id = $1 AND ($2::int IS NULL OR version < $2::int)
        ORDER BY version DESC LIMIT 1`,
      [projectId, below ?? null],
    )
    return row as ContentRow | undefined
  },
  async ofVersions(q, projectId, numbers) {
    return (await q(
      `SELECT version, saved_by, saved_at, rows AS content FROM boq_locations
        WHERE project_id = $1 AND version = ANY($2::int[])`,
      [projectId, numbers],
    )) as ContentRow[]
  },
  async versions(q, projectId) {
    return (await q(
      `SELECT version, saved_by, saved_at, row_count AS size FROM boq_locations
        WHERE project_id = $1 ORDER BY version DESC`,
      [projectId],
    )) as (VersionRow & { size: number })[]
  },
  async insertNext(q, save, content, size) {
    const [row] = await q(
      `INSERT INTO boq_locations (project_id, version, saved_by, saved_at, row_count, rows)
       SELECT $1, $2::int + 1, $3, now(), $4, $5::jsonb
        WHERE COALESCE((SELECT max(version) FROM boq_locations
                         WHERE project_id = $1), 0) = $2::int
       RETURNING version, saved_by, saved_at`,
      [save.projectId, save.after, save.savedBy, size ?? 0, JSON.stringify(content)],
    )
    return row as VersionRow | undefined
  },
}
