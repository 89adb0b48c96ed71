import type { Migration } from './migration.ts'

/**
 * The jobs, their results and the projects' saved rules. `IF NOT EXISTS` throughout: a database
 * whose tables were made before migrations were recorded is adopted as it is.
 */
export const jobsTables: Migration = {
  version: 1,
  name: 'jobs, results and rules',
  statements: [
    `CREATE TABLE IF NOT EXISTS boq_jobs (
      id uuid PRIMARY KEY,
      user_id text NOT NULL,
      status text NOT NULL,
      file_storage_id text NOT NULL,
      created_at timestamptz NOT NULL,
      record jsonb NOT NULL,
      progress real,
      credentials text,
      attempt text
    )`,
    'CREATE INDEX IF NOT EXISTS boq_jobs_by_user ON boq_jobs (user_id, created_at DESC)',
    // One queued or running job per user and drawing version, whichever process is asked.
    `CREATE UNIQUE INDEX IF NOT EXISTS boq_jobs_one_active
      ON boq_jobs (user_id, file_storage_id) WHERE status IN ('queued', 'running')`,
    `CREATE TABLE IF NOT EXISTS boq_results (
      job_id uuid NOT NULL REFERENCES boq_jobs (id) ON DELETE CASCADE,
      format text NOT NULL,
      bytes bytea NOT NULL,
      PRIMARY KEY (job_id, format)
    )`,
    // Every saved version of a project's rules or classification, kept with who and when.
    `CREATE TABLE IF NOT EXISTS boq_rules (
      project_id text NOT NULL,
      kind text NOT NULL,
      version integer NOT NULL,
      saved_by text NOT NULL,
      saved_at timestamptz NOT NULL,
      row_count integer NOT NULL,
      rows jsonb NOT NULL,
      PRIMARY KEY (project_id, kind, version)
    )`,
  ],
}
