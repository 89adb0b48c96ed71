import type {
  AssembledBill,
  BillDrawing,
  BilledVersion,
  DrawingWarning,
  ProjectBill,
} from '#contract/project-bills.ts'
import type { ClassificationEntry, TakeoffRule } from '#contract/takeoff-rules.ts'
import type { PricedJob } from '#contract/takeoff-rules-api.ts'
import type { CloudBackend, CloudContext } from '../cloud/types.ts'
import { AppError } from '../errors.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import type { JobRecord, JobStore } from '../jobs/types.ts'
import { type PriceWith, priceJob } from '../rules/priced-job.ts'
import type { RulesStore } from '../rules/store/types.ts'
import { type BillSources, billDrawings } from './bill-drawings.ts'
import { drawingState } from './drawing-state.ts'
import type { KeptPricing, KeptPricings } from './kept-pricings.ts'
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
  /** The drawings' pricings kept from earlier assemblies. */
  kept: KeptPricings
}

/** A bill assembled: its answer, the versions it used, and each drawing's priced bill (for files). */
export interface AssembledParts {
  answer: AssembledBill
  versions: BilledVersion[]
  /** Each billed drawing's PricedJob JSON: only when asked for (files are written from them). */
  priced: PricedDrawing[]
}

/** Drawings priced at once: the pool's threads are shared with everyone's pricing. */
const PRICED_AT_ONCE = 2

/** A billed drawing on its way into the bill. */
interface Joining {
  drawing: BillDrawing
  job: JobRecord
  versionNumber: number
  units?: KeptUnits
  pricing?: KeptPricing
  json?: Uint8Array
}

/**
 * A project bill assembled from kept results, never reading a drawing: its drawings as the cloud
 * lists them now, each one's newest billed version (the person's extractions), priced with the
 * project's saved rules and classification in the bill pool, in one unit system (those of the
 * first billed drawing: a drawing billed in others is named and left out), summed item by item.
 * A drawing whose kept bill cannot be read or priced is said failed; the rest is assembled. Each
 * drawing's pricing is kept: assembled again, only drawings with a new job or new tables are
 * priced (all of them with `withPricedBills`, whose PricedJob JSON the files are written from).
 */
export async function assembleBill(
  parts: AssembleParts,
  ctx: CloudContext,
  place: { hubId: string },
  bill: ProjectBill,
  options: { withPricedBills?: boolean } = {},
): Promise<AssembledParts> {
  const { store, kept } = parts
  const [sources, jobs, rules, classification] = await Promise.all([
    billDrawings(parts.cloud, ctx, { hubId: place.hubId, projectId: bill.projectId }, bill),
    store.listByUser(ctx.user.userId),
    saved(parts.rules, bill.projectId, 'rules'),
    saved(parts.rules, bill.projectId, 'classification'),
  ])
  const tables = [rules.version, classification.version]
  const stated = sources.drawings.map((drawing) => drawingState(drawing, jobs))

  // Each billed drawing's units (kept, or read from its kept bill's head), in the bill's order.
  const billed: Joining[] = []
  for (const { job, drawing } of stated) {
    if (!job || drawing.versionNumber === null) continue
    const pricing = kept.get(job.id, tables)
    billed.push({
      drawing,
      job,
      versionNumber: drawing.versionNumber,
      pricing,
      units: pricing?.units,
    })
  }
  await Promise.all(
    billed.map(async (one) => {
      if (one.units) return
      const json = await store.readResult(one.job.id, 'json')
      one.units = (json && keptUnits(json)) || undefined
    }),
  )
  // The bill's units are the first billed drawing's: pricing skips what cannot join.
  let units: KeptUnits | undefined
  const joining: Joining[] = []
  for (const one of billed) {
    const own = one.units
    if (!own) {
      failed(one.drawing, 'Its kept bill cannot be read; extract it again.')
      continue
    }
    units ??= own
    if (own.length !== units.length || own.area !== units.area) {
      one.drawing.state = 'other-units'
      one.drawing.reason = `Billed in ${own.length} and ${own.area}, not in this bill’s ${units.length} and ${units.area}: left out.`
      continue
    }
    joining.push(one)
  }

  const toPrice = joining.filter((one) => options.withPricedBills || !one.pricing)
  let next = 0
  const priceNext = async (): Promise<void> => {
    for (let index = next++; index < toPrice.length; index = next++) {
      const one = toPrice[index]
      const own = one.units as KeptUnits
      try {
        const { json } = await priceJob(parts.pool, store, one.job, rules, classification)
        const { priced } = JSON.parse(new TextDecoder().decode(json)) as PricedJob
        one.json = json
        one.pricing = {
          units: own,
          bill: {
            itemId: one.drawing.itemId,
            versionNumber: one.versionNumber,
            jobId: one.job.id,
            items: priced.items.map(
              ({ section, code, description, unit, rate, quantity, amount }) => ({
                section,
                code,
                description,
                unit,
                rate,
                quantity,
                amount,
              }),
            ),
            total: priced.total,
          },
          warnings: [...new Set([...(one.job.result?.warnings ?? []), ...priced.warnings])],
        }
      } catch (error) {
        // The person's own fault or a kept bill BOQ cannot price: said, the rest assembled.
        if (!(error instanceof AppError) || error.status >= 500) throw error
        one.pricing = { units: own, failed: error.message }
      }
      kept.keep(one.job.id, tables, one.pricing)
    }
  }
  await Promise.all(Array.from({ length: PRICED_AT_ONCE }, priceNext))

  const warnings: DrawingWarning[] = goneWarnings(sources)
  const bills: (DrawingBill & { json?: Uint8Array })[] = []
  for (const one of joining) {
    const pricing = one.pricing
    if (!pricing || !('bill' in pricing)) {
      failed(
        one.drawing,
        pricing && 'failed' in pricing ? pricing.failed : 'It could not be priced.',
      )
      continue
    }
    // The drawing's name as the cloud lists it now (a pricing is kept across renames).
    const { fileName, itemId } = one.drawing
    bills.push({ ...pricing.bill, fileName, json: one.json })
    for (const warning of pricing.warnings) warnings.push({ itemId, fileName, warning })
  }

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
    priced: bills.flatMap(({ itemId, fileName, versionNumber, json }) =>
      json ? [{ itemId, fileName, versionNumber, json }] : [],
    ),
  }
}

/** What the bill named that the cloud no longer lists: said, left out. */
function goneWarnings(sources: BillSources): DrawingWarning[] {
  const gone = 'is no longer in the cloud (deleted, moved, or no longer yours to see)'
  return [
    ...sources.goneFolders.map((id) => ({
      itemId: id,
      fileName: 'A folder of this bill',
      warning: `The folder ${gone}: its drawings are left out.`,
    })),
    ...sources.goneItems.map((id) => ({
      itemId: id,
      fileName: 'A drawing of this bill',
      warning: `The drawing ${gone}: left out.`,
    })),
  ]
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
