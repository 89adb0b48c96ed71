import type {
  BilledVersion,
  BillIssue,
  ProjectBill,
  ProjectBillPatch,
  ProjectFigures,
} from '#contract/project-bills.ts'

/** A bill as made: what the person asked for, and who they are. */
export interface NewBillRecord {
  projectId: string
  name: string
  folderIds: string[]
  itemIds: string[]
  createdBy: string
}

/** An issue as kept: what the list shows, and the figures it froze (for comparing later). */
export interface IssueRecord extends BillIssue {
  figures: ProjectFigures
}

/** The files an issue was sent as, kept as they were issued. */
export type IssueFormat = 'xlsx' | 'csv'
export type IssueFiles = Partial<Record<IssueFormat, Uint8Array>>

export interface NewIssue {
  name: string
  issuedBy: string
  versions: BilledVersion[]
  figures: ProjectFigures
  /**
   * Writes the issue's files once its number is given (they name it); kept with the issue, in
   * the same step: an issue is never kept without them.
   */
  files(issue: BillIssue): Promise<IssueFiles>
}

/**
 * A drawing's part of project bills, as kept: its job, and the versions of the project's tables
 * it was priced with (`rules.classification.settings`, e.g. `3.1.0`). A job's measured bill never
 * changes, nor does a saved version, so a part is made once, the same whichever process made it.
 */
export interface PartKey {
  jobId: string
  versions: string
}

/**
 * The project bills and their issues behind one seam (embedded in the data folder, or shared by
 * every process). A bill is found only in its own project: another project's id is unknown.
 */
export interface BillStore {
  create(bill: NewBillRecord): Promise<ProjectBill>
  /** The project's bills, oldest first. */
  list(projectId: string): Promise<ProjectBill[]>
  get(projectId: string, billId: string): Promise<ProjectBill | undefined>
  /** The bill changed as `patch` says; undefined when there is no such bill. */
  patch(
    projectId: string,
    billId: string,
    patch: ProjectBillPatch,
  ): Promise<ProjectBill | undefined>
  /** Removes the bill and its issues; false when there was no such bill. */
  delete(projectId: string, billId: string): Promise<boolean>
  /**
   * Keeps an issue as the bill's next number: of two issues at once, each gets its own number,
   * never one number twice. Undefined when there is no such bill.
   */
  issue(projectId: string, billId: string, issue: NewIssue): Promise<IssueRecord | undefined>
  /** The bill's issues, by number (empty for an unknown bill). */
  issues(projectId: string, billId: string): Promise<IssueRecord[]>
  /** A file of an issue as it was issued; undefined when there is no such issue or file. */
  issueFile(
    projectId: string,
    billId: string,
    number: number,
    format: IssueFormat,
  ): Promise<Uint8Array | undefined>
  /**
   * The parts kept under these keys (drawing-part.ts's JSON), by `partKeyText`: those found. A
   * part is kept while its job is (PostgreSQL: deleted with it; embedded: for the jobs' retention).
   */
  parts(keys: readonly PartKey[]): Promise<Map<string, Uint8Array>>
  /** Keeps a part; kept twice (two processes made it), either stays: both are the same. */
  keepPart(key: PartKey, part: Uint8Array): Promise<void>
  close(): Promise<void>
}

/** A key a part can be kept under: a job's id and a versions text of ours (never a path). */
export function isPartKey(key: PartKey): boolean {
  return SAFE_NAME.test(key.jobId) && SAFE_NAME.test(key.versions)
}
const SAFE_NAME = /^[0-9A-Za-z._-]{1,100}$/

export function partKeyText(key: PartKey): string {
  return `${key.jobId}\n${key.versions}`
}
