import type { Migration } from './migration.ts'

/** Every saved version of a project's locations table, kept with who and when (as its rules). */
export const locationsTable: Migration = {
  version: 5,
  name: 'locations',
  statements: [
    `CREATE TABLE boq_locations (
      project_id text NOT NULL,
      version integer NOT NULL CHECK (version > 0),
      saved_by text NOT NULL,
      saved_at timestamptz NOT NULL,
      row_count integer NOT NULL,
      rows jsonb NOT NULL,
      PRIMARY KEY (project_id, version)
    )`,
  ],
}
