import type {
  BillDrawing,
  BillIssue,
  DrawingWarning,
  ProjectChangeBill,
  ProjectFigures,
} from '#contract/project-bills.ts'

/** A drawing's priced bill as the bill pool priced it: the PricedJob's JSON. */
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
  figures: ProjectFigures
  priced: PricedDrawing[]
  warnings: DrawingWarning[]
}

/**
 * A project bill's download, written in the bill pool: its workbook or CSV, or those of a
 * project change bill.
 */
export type ProjectBillTask =
  | { kind: 'project-bill'; format: 'xlsx' | 'csv'; bill: ProjectBillFiles }
  | { kind: 'project-bill'; format: 'xlsx' | 'csv'; changes: ProjectChangeBill; billName: string }
