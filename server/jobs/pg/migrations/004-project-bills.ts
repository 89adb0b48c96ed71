import type { Migration } from './migration.ts'

/** Project bills, their issues (numbered per bill) and the files each issue was sent as. */
export const projectBillsTables: Migration = {
  version: 4,
  name: 'project bills and their issues',
  statements: [
    `CREATE TABLE boq_project_bills (
      id uuid PRIMARY KEY,
      project_id text NOT NULL,
      created_at timestamptz NOT NULL,
      record jsonb NOT NULL
    )`,
    'CREATE INDEX boq_project_bills_by_project ON boq_project_bills (project_id, created_at)',
    // The key gives a number once per bill, whichever process issues first.
    `CREATE TABLE boq_bill_issues (
      bill_id uuid NOT NULL REFERENCES boq_project_bills (id) ON DELETE CASCADE,
      number integer NOT NULL CHECK (number > 0),
      issued_at timestamptz NOT NULL,
      record jsonb NOT NULL,
      PRIMARY KEY (bill_id, number)
    )`,
    `CREATE TABLE boq_bill_issue_files (
      bill_id uuid NOT NULL,
      number integer NOT NULL,
      format text NOT NULL,
      bytes bytea NOT NULL,
      PRIMARY KEY (bill_id, number, format),
      FOREIGN KEY (bill_id, number) REFERENCES boq_bill_issues (bill_id, number) ON DELETE CASCADE
    )`,
  ],
}
