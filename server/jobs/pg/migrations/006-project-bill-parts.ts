import type { Migration } from './migration.ts'

/**
 * What project bills take of each drawing's kept bill, by job and the versions of the tables it
 * was priced with (server/bills/drawing-part.ts): made once, deleted with its job.
 */
export const projectBillPartsTable: Migration = {
  version: 6,
  name: 'project bill parts',
  statements: [
    `CREATE TABLE boq_project_bill_parts (
      job_id uuid NOT NULL REFERENCES boq_jobs (id) ON DELETE CASCADE,
      versions text NOT NULL,
      part bytea NOT NULL,
      PRIMARY KEY (job_id, versions)
    )`,
  ],
}
