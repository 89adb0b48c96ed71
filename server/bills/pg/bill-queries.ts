import type { ProjectBill } from '#contract/project-bills.ts'
import type { Query } from '../../lib/pg/transaction.ts'
import type { IssueFiles, IssueFormat, IssueRecord, PartKey } from '../types.ts'

/**
 * The SQL of `boq_project_bills`, `boq_bill_issues` and `boq_bill_issue_files`, one function per
 * statement. `q` is the pool's or a transaction's. Records come back as stored, unchecked
 * (`bill-rows.ts` checks them).
 */

export async function insertBill(q: Query, bill: ProjectBill): Promise<void> {
  await q(
    `INSERT INTO boq_project_bills (id, project_id, created_at, record)
     VALUES ($1, $2, $3, $4::jsonb)`,
    [bill.id, bill.projectId, bill.createdAt, JSON.stringify(bill)],
  )
}

/** The project's bills' records, oldest first. */
export async function billsOfProject(q: Query, projectId: string): Promise<unknown[]> {
  const rows = await q(
    `SELECT record FROM boq_project_bills WHERE project_id = $1 ORDER BY created_at, id`,
    [projectId],
  )
  return rows.map((row) => row.record)
}

/** The bill's record, when it is of that project; with `lock`, its row locked until commit. */
export async function billRecord(
  q: Query,
  projectId: string,
  billId: string,
  lock = false,
): Promise<unknown | undefined> {
  const [row] = await q(
    `SELECT record FROM boq_project_bills WHERE id = $1 AND project_id = $2
     ${lock ? 'FOR UPDATE' : ''}`,
    [billId, projectId],
  )
  return row?.record
}

export async function updateBill(q: Query, bill: ProjectBill): Promise<void> {
  await q('UPDATE boq_project_bills SET record = $2::jsonb WHERE id = $1', [
    bill.id,
    JSON.stringify(bill),
  ])
}

/** Removes the bill (its issues and their files go with it); whether there was one. */
export async function deleteBill(q: Query, projectId: string, billId: string): Promise<boolean> {
  const rows = await q(
    'DELETE FROM boq_project_bills WHERE id = $1 AND project_id = $2 RETURNING id',
    [billId, projectId],
  )
  return rows.length > 0
}

/** The number the bill's next issue takes (under the bill's row lock). */
export async function nextIssueNumber(q: Query, billId: string): Promise<number> {
  const [row] = await q(
    'SELECT coalesce(max(number), 0) + 1 AS next FROM boq_bill_issues WHERE bill_id = $1',
    [billId],
  )
  return Number(row.next)
}

export async function insertIssue(
  q: Query,
  billId: string,
  issue: IssueRecord,
  files: IssueFiles,
): Promise<void> {
  await q(
    `INSERT INTO boq_bill_issues (bill_id, number, issued_at, record)
     VALUES ($1, $2, $3, $4::jsonb)`,
    [billId, issue.number, issue.issuedAt, JSON.stringify(issue)],
  )
  for (const [format, bytes] of Object.entries(files)) {
    await q(
      `INSERT INTO boq_bill_issue_files (bill_id, number, format, bytes) VALUES ($1, $2, $3, $4)`,
      [billId, issue.number, format, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)],
    )
  }
}

/** The bill's issues' records, by number. */
export async function issuesOfBill(
  q: Query,
  projectId: string,
  billId: string,
): Promise<{ number: number; record: unknown }[]> {
  const rows = await q(
    `SELECT i.number, i.record FROM boq_bill_issues i
     JOIN boq_project_bills b ON b.id = i.bill_id
     WHERE i.bill_id = $1 AND b.project_id = $2 ORDER BY i.number`,
    [billId, projectId],
  )
  return rows.map((row) => ({ number: Number(row.number), record: row.record }))
}

export async function issueFileBytes(
  q: Query,
  projectId: string,
  billId: string,
  number: number,
  format: IssueFormat,
): Promise<Uint8Array | undefined> {
  const [row] = await q(
    `SELECT f.bytes FROM boq_bill_issue_files f
     JOIN boq_project_bills b ON b.id = f.bill_id
     WHERE f.bill_id = $1 AND b.project_id = $2 AND f.number = $3 AND f.format = $4`,
    [billId, projectId, number, format],
  )
  return row ? new Uint8Array(row.bytes as Buffer) : undefined
}

/**
 * The parts kept under these keys, in their order (the jobs' ids are UUIDs: the caller leaves
 * others out).
 */
export async function partsOf(
  q: Query,
  keys: readonly PartKey[],
): Promise<{ jobId: string; versions: string; part: Uint8Array }[]> {
  if (keys.length === 0) return []
  const rows = await q(
    `SELECT p.job_id, p.versions, p.part FROM boq_project_bill_parts p
     JOIN unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS k (job_id, versions, n)
       ON p.job_id = k.job_id AND p.versions = k.versions
     ORDER BY k.n`,
    [keys.map((key) => key.jobId), keys.map((key) => key.versions)],
  )
  return rows.map((row) => ({
    jobId: row.job_id as string,
    versions: row.versions as string,
    part: new Uint8Array(row.part as Buffer),
  }))
}

/** Keeps a part of a job that is still there; one kept already (by another process) stays. */
export async function insertPart(q: Query, key: PartKey, part: Uint8Array): Promise<void> {
  await q(
    `INSERT INTO boq_project_bill_parts (job_id, versions, part)
     SELECT id, $2, $3 FROM boq_jobs WHERE id = $1
     ON CONFLICT (job_id, versions) DO NOTHING`,
    [key.jobId, key.versions, Buffer.from(part.buffer, part.byteOffset, part.byteLength)],
  )
}
