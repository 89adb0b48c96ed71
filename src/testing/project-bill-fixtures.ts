// Project bills as the fake server keeps them, and factories for tests to make their own.
import type {
  AssembledBill,
  BillDrawing,
  BillIssue,
  ProjectChangeBill,
  ProjectFigures,
  ProjectItem,
  ProjectMeasuredLine,
} from '#contract/project-bills.ts'

/** What the fake server keeps of project bills (GET, POST …/projects/{id}/bills and below). */
export type FakeProjectBills = {
  /** Every project's bills as GET …/bills/{id} answers them, oldest first. */
  bills: AssembledBill[]
  /** Each bill's issues, by bill id, with the figures each froze. */
  issues: Record<string, (BillIssue & { priced: ProjectFigures })[]>
  /**
   * What GET …/compare answers, by `<billId>:<from>:<to>`; a pair not here is compared from
   * the kept figures (items matched by code, their drawings not said).
   */
  changeBills: Record<string, ProjectChangeBill>
}

export function defaultProjectBills(): FakeProjectBills {
  return { bills: [], issues: {}, changeBills: {} }
}

let made = 0

export function billDrawing(overrides: Partial<BillDrawing> = {}): BillDrawing {
  made++
  return {
    itemId: `urn:adsk.wipprod:dm.lineage:drawing-${made}`,
    fileName: `L${made}.dwg`,
    folderId: 'urn:adsk.wipprod:fs.folder:co.plans',
    versionNumber: 1,
    jobId: `job-${made}`,
    state: 'billed',
    newestVersionNumber: 1,
    newestStorageId: `urn:adsk.objects:os.object:wip.dm.prod/drawing-${made}.dwg`,
    ...overrides,
  }
}

/** An item of the bill, its quantity and amount each drawing's shares summed. */
export function projectItem(
  item: Pick<ProjectItem, 'code' | 'description' | 'unit'> & Partial<ProjectItem>,
  shares: { drawing: BillDrawing; quantity: number; amount: number | null }[] = [],
): ProjectItem {
  const byDrawing = shares.map(({ drawing, quantity, amount }) => ({
    itemId: drawing.itemId,
    fileName: drawing.fileName,
    versionNumber: drawing.versionNumber ?? 1,
    quantity,
    amount,
  }))
  return {
    section: item.code.split('.')[0] ?? '',
    rate: null,
    quantity: byDrawing.reduce((sum, share) => sum + share.quantity, 0),
    amount: byDrawing.some((share) => share.amount !== null)
      ? byDrawing.reduce((sum, share) => sum + (share.amount ?? 0), 0)
      : null,
    byDrawing,
    ...item,
  }
}

/** A measured line of the bill, its quantity each drawing's shares summed. */
export function measuredLine(
  line: Pick<ProjectMeasuredLine, 'kind' | 'description' | 'unit'>,
  shares: { drawing: BillDrawing; quantity: number }[] = [],
): ProjectMeasuredLine {
  const byDrawing = shares.map(({ drawing, quantity }) => ({ itemId: drawing.itemId, quantity }))
  return {
    ...line,
    quantity: byDrawing.reduce((sum, share) => sum + share.quantity, 0),
    byDrawing,
  }
}

export function assembledBill(
  overrides: Partial<Omit<AssembledBill, 'bill'>> & { projectId?: string } = {},
): AssembledBill {
  made++
  const { projectId = 'b.tower', ...rest } = overrides
  const id = overrides.id ?? `00000000-0000-4000-8000-${String(made).padStart(12, '0')}`
  const name = overrides.name ?? 'Plans'
  const items = overrides.priced?.items ?? []
  return {
    id,
    name,
    bill: {
      id,
      projectId,
      name,
      folderIds: ['urn:adsk.wipprod:fs.folder:co.plans'],
      itemIds: [],
      createdBy: 'Ada Lovelace',
      createdAt: '2024-06-01T09:00:00.000Z',
    },
    drawings: [],
    priced: {
      units: { length: 'm', area: 'm²' },
      items,
      total: items.reduce((sum, item) => sum + (item.amount ?? 0), 0),
    },
    measured: [],
    warnings: [],
    ...rest,
  }
}
