import * as v from 'valibot'
import {
  BillIssueSchema,
  type ProjectBill,
  ProjectBillSchema,
  ProjectFiguresSchema,
} from '#contract/project-bills.ts'
import type { Warn } from '../../jobs/pg/job-rows.ts'
import type { IssueRecord } from '../types.ts'

const IssueRecordSchema = v.object({ ...BillIssueSchema.entries, figures: ProjectFiguresSchema })

/**
 * A bill's record, checked, or undefined (with a warning naming it) when the row holds something
 * else: the bill is answered as absent and the row left in the table.
 */
export function billOf(record: unknown, warn: Warn): ProjectBill | undefined {
  const checked = v.safeParse(ProjectBillSchema, record)
  if (checked.success) return checked.output
  const id = (record as { id?: unknown } | null)?.id
  warn(
    `project bills: the record of bill ${String(id)} in boq_project_bills is not a bill; skipped`,
  )
  return undefined
}

/** An issue's record, checked; undefined (said, naming it) when it is not an issue. */
export function issueOf(
  billId: string,
  number: number,
  record: unknown,
  warn: Warn,
): IssueRecord | undefined {
  const checked = v.safeParse(IssueRecordSchema, record)
  if (checked.success) return checked.output
  warn(
    `project bills: issue ${number} of bill ${billId} in boq_bill_issues is not an issue; skipped`,
  )
  return undefined
}
