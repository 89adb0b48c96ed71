import * as v from 'valibot'
import { BILL_KINDS } from './bill-kinds.ts'
import { WrittenBackSchema } from './takeoff-rules-api.ts'

/**
 * A project bill: one priced bill across a project's drawings, made from folders (every drawing
 * below them, today's and later ones) and single items, assembled from the drawings' kept bills.
 * Routes under /api/boq/projects/{projectId}/bills.
 */

export const MAX_BILL_NAME_LENGTH = 200
/** Folders and single items one bill may name. */
export const MAX_BILL_SOURCES = 500

const NameSchema = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'a name is needed'),
  v.maxLength(MAX_BILL_NAME_LENGTH, `a name is at most ${MAX_BILL_NAME_LENGTH} characters`),
)
const IdsSchema = v.pipe(
  v.array(v.pipe(v.string(), v.minLength(1, 'an id is never empty'), v.maxLength(2048))),
  v.maxLength(MAX_BILL_SOURCES, `at most ${MAX_BILL_SOURCES} ids`),
)

/** POST …/bills: a name and at least one folder or item. */
export const NewProjectBillSchema = v.pipe(
  v.strictObject({
    name: NameSchema,
    folderIds: v.optional(IdsSchema),
    itemIds: v.optional(IdsSchema),
  }),
  v.check(
    (bill) => (bill.folderIds?.length ?? 0) + (bill.itemIds?.length ?? 0) > 0,
    'a bill needs at least one folder or item',
  ),
)
export type NewProjectBill = v.InferOutput<typeof NewProjectBillSchema>

/** PATCH …/bills/{billId}: what changes; the rest stays. */
export const ProjectBillPatchSchema = v.strictObject({
  name: v.optional(NameSchema),
  folderIds: v.optional(IdsSchema),
  itemIds: v.optional(IdsSchema),
})
export type ProjectBillPatch = v.InferOutput<typeof ProjectBillPatchSchema>

/** POST …/bills/{billId}/issues. */
export const NewBillIssueSchema = v.strictObject({ name: NameSchema })
export type NewBillIssue = v.InferOutput<typeof NewBillIssueSchema>

export const ProjectBillSchema = v.object({
  id: v.string(),
  projectId: v.string(),
  name: v.string(),
  folderIds: v.array(v.string()),
  itemIds: v.array(v.string()),
  createdBy: v.string(),
  createdAt: v.string(),
})
export type ProjectBill = v.InferOutput<typeof ProjectBillSchema>

/** A drawing version a bill used: the job whose kept bill gave its figures. */
export const BilledVersionSchema = v.object({
  itemId: v.string(),
  fileName: v.string(),
  versionNumber: v.number(),
  jobId: v.string(),
})
export type BilledVersion = v.InferOutput<typeof BilledVersionSchema>

/** An issue: the bill frozen under a name, numbered 1, 2, … per bill. */
export const BillIssueSchema = v.object({
  number: v.number(),
  name: v.string(),
  issuedAt: v.string(),
  issuedBy: v.string(),
  versions: v.array(BilledVersionSchema),
})
export type BillIssue = v.InferOutput<typeof BillIssueSchema>

/**
 * POST …/issues answers the issue, and where its workbook was written back into the cloud (in the
 * bill's first folder as `<bill name> BOQ.xlsx`), or why it could not be (the issue stands).
 */
export const IssuedBillSchema = v.object({
  ...BillIssueSchema.entries,
  written: v.nullable(WrittenBackSchema),
  writeBackError: v.optional(v.string()),
})
export type IssuedBill = v.InferOutput<typeof IssuedBillSchema>

/** The formats a project bill, an issue and a comparison download as (`?format=`). */
export const PROJECT_BILL_FORMATS = ['json', 'xlsx', 'csv'] as const
export type ProjectBillFormat = (typeof PROJECT_BILL_FORMATS)[number]

/**
 * What a drawing of the bill is: `billed` (its newest version), `newer-version` (billed, but a
 * newer version has no bill yet), `extracting`, `failed` (with the reason), `no-bill`, or
 * `other-units` (billed in units the bill's are not: left out).
 */
export const DRAWING_STATES = [
  'billed',
  'newer-version',
  'extracting',
  'failed',
  'no-bill',
  'other-units',
] as const
export const DrawingStateSchema = v.picklist(DRAWING_STATES)
export type DrawingState = v.InferOutput<typeof DrawingStateSchema>

export const BillDrawingSchema = v.object({
  itemId: v.string(),
  fileName: v.string(),
  /** The drawing's folder, when the cloud tells it. */
  folderId: v.nullable(v.string()),
  /** The version billed (null: none). */
  versionNumber: v.nullable(v.number()),
  jobId: v.nullable(v.string()),
  state: DrawingStateSchema,
  /** The newest version the cloud has. */
  newestVersionNumber: v.nullable(v.number()),
  /** Its storage id: what an extraction of the newest version is asked with. */
  newestStorageId: v.optional(v.nullable(v.string())),
  /** Why: a failure's reason, the units it was billed in. */
  reason: v.optional(v.string()),
})
export type BillDrawing = v.InferOutput<typeof BillDrawingSchema>

/** One drawing's share of an item. */
export const DrawingShareSchema = v.object({
  itemId: v.string(),
  fileName: v.string(),
  versionNumber: v.number(),
  quantity: v.number(),
  amount: v.nullable(v.number()),
})
export type DrawingShare = v.InferOutput<typeof DrawingShareSchema>

/** An item summed over the drawings (items are the same when code, description and unit are). */
export const ProjectItemSchema = v.object({
  section: v.string(),
  code: v.string(),
  description: v.string(),
  unit: v.string(),
  /** The rate, when every drawing priced the item at the same one; else null. */
  rate: v.nullable(v.number()),
  quantity: v.number(),
  /** Null when no drawing priced it. */
  amount: v.nullable(v.number()),
  byDrawing: v.array(DrawingShareSchema),
})
export type ProjectItem = v.InferOutput<typeof ProjectItemSchema>

/** The bill's units: those of its first billed drawing (null: nothing billed). */
export const BillUnitsSchema = v.nullable(v.object({ length: v.string(), area: v.string() }))

/** A section of the bill's items: its code, and its title in the project's classification. */
export const ProjectSectionSchema = v.object({ code: v.string(), title: v.string() })
export type ProjectSection = v.InferOutput<typeof ProjectSectionSchema>

export const ProjectFiguresSchema = v.object({
  units: BillUnitsSchema,
  items: v.array(ProjectItemSchema),
  /** The items' sections in their order, titled (absent from an issue made before titles). */
  sections: v.optional(v.array(ProjectSectionSchema)),
  total: v.number(),
})
export type ProjectFigures = v.InferOutput<typeof ProjectFiguresSchema>

/** The bill's items by section, in the figures' order (sorted by section, then code). */
export function itemsBySection(items: readonly ProjectItem[]): [string, ProjectItem[]][] {
  const sections = new Map<string, ProjectItem[]>()
  for (const item of items) {
    const list = sections.get(item.section) ?? []
    list.push(item)
    sections.set(item.section, list)
  }
  return [...sections]
}

/** A section as the bill's heading of it reads: its code and title, or "Not in a section". */
export function sectionHeading(figures: Pick<ProjectFigures, 'sections'>, code: string): string {
  if (!code) return 'Not in a section'
  const title = figures.sections?.find((section) => section.code === code)?.title
  return title ? `${code} ${title}` : code
}

/**
 * One drawing's share of a measured line: the drawing by its item (its name and version are in
 * the bill's `drawings`; a bill of many drawings has thousands of lines, each with its shares).
 */
export const MeasuredShareSchema = v.object({
  itemId: v.string(),
  quantity: v.number(),
})
export type MeasuredShare = v.InferOutput<typeof MeasuredShareSchema>

/**
 * A measured line summed over the drawings (lines are the same when kind, description and unit
 * are), in the bill's units: what the items were priced from, and what stays when nothing is.
 */
export const ProjectMeasuredLineSchema = v.object({
  kind: v.picklist(BILL_KINDS),
  description: v.string(),
  unit: v.string(),
  quantity: v.number(),
  byDrawing: v.array(MeasuredShareSchema),
})
export type ProjectMeasuredLine = v.InferOutput<typeof ProjectMeasuredLineSchema>

export const DrawingWarningSchema = v.object({
  itemId: v.string(),
  fileName: v.string(),
  warning: v.string(),
})
export type DrawingWarning = v.InferOutput<typeof DrawingWarningSchema>

/**
 * GET …/bills/{billId}: the bill, its drawings and their states, the summed figures (priced
 * items, and the measured lines by kind, description and unit, each with its drawings' shares).
 */
export const AssembledBillSchema = v.object({
  id: v.string(),
  name: v.string(),
  bill: ProjectBillSchema,
  drawings: v.array(BillDrawingSchema),
  priced: ProjectFiguresSchema,
  measured: v.array(ProjectMeasuredLineSchema),
  warnings: v.array(DrawingWarningSchema),
})
export type AssembledBill = v.InferOutput<typeof AssembledBillSchema>

/** GET …/issues/{number}: the issue and the figures it froze. */
export const IssueDetailSchema = v.object({
  ...BillIssueSchema.entries,
  priced: ProjectFiguresSchema,
})
export type IssueDetail = v.InferOutput<typeof IssueDetailSchema>

const FigureSchema = v.object({ quantity: v.number(), amount: v.nullable(v.number()) })

/** One drawing's part in an item's change: its versions before and after, and what it moved. */
export const ChangeDriverSchema = v.object({
  itemId: v.string(),
  fileName: v.string(),
  fromVersion: v.nullable(v.number()),
  toVersion: v.nullable(v.number()),
  quantity: v.number(),
  amount: v.nullable(v.number()),
})
export type ChangeDriver = v.InferOutput<typeof ChangeDriverSchema>

export const ProjectChangeItemSchema = v.object({
  section: v.string(),
  code: v.string(),
  description: v.string(),
  unit: v.string(),
  before: FigureSchema,
  after: FigureSchema,
  change: FigureSchema,
  drivenBy: v.array(ChangeDriverSchema),
})
export type ProjectChangeItem = v.InferOutput<typeof ProjectChangeItemSchema>

/** Which side of a comparison: an issue, or the bill as it is now (`number: null`). */
export const ComparedSideSchema = v.object({
  number: v.nullable(v.number()),
  name: v.string(),
  issuedAt: v.nullable(v.string()),
})

/** GET …/bills/{billId}/compare?from=N&to=M|current: the project change bill. */
export const ProjectChangeBillSchema = v.object({
  from: ComparedSideSchema,
  to: ComparedSideSchema,
  items: v.array(ProjectChangeItemSchema),
  total: v.object({ before: v.number(), after: v.number(), change: v.number() }),
})
export type ProjectChangeBill = v.InferOutput<typeof ProjectChangeBillSchema>
