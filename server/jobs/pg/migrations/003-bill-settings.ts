import type { Migration } from './migration.ts'

/** Every saved version of a project's bill settings, kept with who and when (as its rules). */
export const billSettingsTable: Migration = {
  version: 3,
  name: 'bill settings',
  statements: [
    `CREATE TABLE boq_bill_settings (
      project_id text NOT NULL,
      version integer NOT NULL CHECK (version > 0),
      saved_by text NOT NULL,
      saved_at timestamptz NOT NULL,
      settings jsonb NOT NULL,
      PRIMARY KEY (project_id, version)
    )`,
  ],
}
