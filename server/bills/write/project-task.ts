import type {
  BillDrawing,
  BilledVersion,
  BillIssue,
  DrawingWarning,
  ProjectChangeBill,
  ProjectFigures,
  ProjectMeasuredLine,
} from '#contract/project-bills.ts'
import type { PricingTables } from '../../boq/price/price.ts'

/**
 * A drawing's bill priced with the project's tables now: JSON whose `priced` it is (its bill of
 * record's BOQ JSON, or its kept bill priced again: a PricedJob).
 */
export interface PricedDrawing {
  itemId: string
  fileName: string
  versionNumber: number
  json: Uint8Array
}

/** What a project bill's files are written from: the assembled bill and each drawing's pricing. */
export interface ProjectBillFiles {
  name: string
  /** The issue the files are of; null: the bill as it is now. */
  issue: BillIssue | null
  written: string
  drawings: BillDrawing[]
  /** The drawings billed, in the bill's order: a column each. */
  billed: BilledVersion[]
  figures: ProjectFigures
  measured: ProjectMeasuredLine[]
  /** Each priced drawing's priced bill, for a sheet of its own (the CSV has none). */
  priced: PricedDrawing[]
  warnings: DrawingWarning[]
}

/**
 * A project bill's work in the bill pool: its download (its workbook or CSV, or those of a
 * project change bill), or a drawing's kept bill made into its part of the bill (`part`: its
 * own priced bill taken, or priced with `price`), answered as the part's JSON (drawing-part.ts;
 * `null`: not a bill of this version of BOQ).
 */
export type ProjectBillTask =
  | { kind: 'project-bill'; format: 'xlsx' | 'csv'; bill: ProjectBillFiles }
  | { kind: 'project-bill'; format: 'xlsx' | 'csv'; changes: ProjectChangeBill; billName: string }
  | { kind: 'project-bill'; part: Uint8Array; price?: PricingTables }
