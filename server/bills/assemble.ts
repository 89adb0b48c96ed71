import type {
  AssembledBill,
  BillDrawing,
  BilledVersion,
  DrawingWarning,
  ProjectBill,
} from '../../contract/project-bills.ts'
import type { ClassificationEntry, TakeoffRule } from '../../contract/takeoff-rules.ts'
import type { PricedJob } from '../../contract/takeoff-rules-api.ts'
import type { CloudBackend, CloudContext } from '../cloud/types.ts'
import { AppError } from '../errors.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import type { JobRecord, JobStore } from '../jobs/types.ts'
import { type PriceWith, priceJob } from '../rules/priced-job.ts'
import type { RulesStore } from '../rules/store/types.ts'
import { billDrawings } from './bill-drawings.ts'
import { drawingState, type StatedDrawing } from './drawing-state.ts'
import { type KeptUnits, keptUnits } from './kept-units.ts'
import { type DrawingBill, sumDrawings } from './project-figures.ts'
import type { PricedDrawing } from './write/project-task.ts'

export interface AssembleParts {
  store: JobStore
  /** The projects' saved rules and classification. */
  rules: RulesStore
  cloud: Pick<CloudBackend, 'contents' | 'versions'>
  /** Where each drawing's kept bill is priced, off the thread answering requests. */
  pool: BillPool
}

/** A bill assembled: its answer, the versions it used, and each drawing's priced bill (for files). */
export interface AssembledParts {
  answer: AssembledBill
  versions: BilledVersion[]
  priced: PricedDrawing[]
}

/** Drawings priced at once: the pool's threads are shared with everyone's pricing. */
const PRICED_AT_ONCE = 2

/**
 * A project bill assembled from kept results, never reading a drawing: its drawings as the cloud
 * lists them now, each one's newest billed version (the person's extractions), priced with the
 * project's saved rules and classification in the bill pool, in one unit system (those of the
 * first billed drawing: a drawing billed in others is named and left out), summed item by item.
 * A drawing whose kept bill cannot be read or priced is said failed; the rest is assembled.
 */
export async function assembleBill(
  parts: AssembleParts,
  ctx: CloudContext,
  place: { hubId: string },
  bill: ProjectBill,
): Promise<AssembledParts> {
  const { store } = parts
  const [cloudDrawings, jobs, rules, classification] = await Promise.all([
    billDrawings(parts.cloud, ctx, { hubId: place.hubId, projectId: bill.projectId }, bill),
    store.listByUser(ctx.user.userId),
    saved(parts.rules, bill.projectId, 'rules'),
    saved(parts.rules, bill.projectId, 'classification'),
  ])
  const stated = cloudDrawings.map((drawing) => drawingState(drawing, jobs))

  // The bill's units first (read from each kept bill's head), so pricing skips what cannot join.
  let units: KeptUnits | undefined
  const joining: { stated: StatedDrawing & { job: JobRecord }; versionNumber: number }[] = []
  for (const one of stated) {
    const { job, drawing } = one
    if (!job || drawing.versionNumber === null) continue
    const json = await store.readResult(job.id, 'json')
    const own = json && keptUnits(json)
    if (!own) {
      failed(drawing, 'Its kept bill cannot be read; extract it again.')
      continue
    }
    units ??= own
    if (own.length !== units.length || own.area !== units.area) {
      drawing.state = 'other-units'
      drawing.reason = `Billed in ${own.length} and ${own.area}, not in this bill’s ${units.length} and ${units.area}: left out.`
      continue
    }
    joining.push({ stated: { ...one, job }, versionNumber: drawing.versionNumber })
  }

  const warnings: DrawingWarning[] = []
  const priced: ((DrawingBill & { json: Uint8Array }) | undefined)[] = new Array(joining.length)
  let next = 0
  const priceNext = async (): Promise<void> => {
    for (let index = next++; index < joining.length; index = next++) {
      const { stated: one, versionNumber } = joining[index]
      try {
        const { json } = await priceJob(parts.pool, store, one.job, rules, classification)
        const { priced: bill } = JSON.parse(new TextDecoder().decode(json)) as PricedJob
        priced[index] = {
          itemId: one.drawing.itemId,
          fileName: one.drawing.fileName,
          versionNumber,
          jobId: one.job.id,
          items: bill.items,
          total: bill.total,
          json,
        }
        const said = new Set([...(one.job.result?.warnings ?? []), ...bill.warnings])
        for (const warning of said) {
          warnings.push({ itemId: one.drawing.itemId, fileName: one.drawing.fileName, warning })
        }
      } catch (error) {
        // The person's own fault or a kept bill BOQ cannot price: said, the rest assembled.
        if (!(error instanceof AppError) || error.status >= 500) throw error
        failed(one.drawing, error.message)
      }
    }
  }
  await Promise.all(Array.from({ length: PRICED_AT_ONCE }, priceNext))
  const bills = priced.filter((one) => one !== undefined)

  return {
    answer: {
      id: bill.id,
      name: bill.name,
      bill,
      drawings: stated.map((one) => one.drawing),
      priced: sumDrawings(units ?? null, bills),
      warnings,
    },
    versions: bills.map(({ itemId, fileName, versionNumber, jobId }) => ({
      itemId,
      fileName,
      versionNumber,
      jobId,
    })),
    priced: bills.map(({ itemId, fileName, versionNumber, json }) => ({
      itemId,
      fileName,
      versionNumber,
      json,
    })),
  }
}

function failed(drawing: BillDrawing, reason: string): void {
  drawing.state = 'failed'
  drawing.reason = reason
}

/** The project's saved table (version 0, empty, when none was saved). */
async function saved<K extends 'rules' | 'classification'>(
  store: RulesStore,
  projectId: string,
  kind: K,
): Promise<PriceWith<K extends 'rules' ? TakeoffRule : ClassificationEntry>> {
  const table = await store.rules(projectId, kind)
  return {
    rows: (table?.rows ?? []) as (K extends 'rules' ? TakeoffRule : ClassificationEntry)[],
    version: table?.version ?? 0,
  }
}
