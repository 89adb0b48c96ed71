import type {
  AssembledBill,
  BillDrawing,
  BilledVersion,
  DrawingWarning,
  ProjectBill,
} from '#contract/project-bills.ts'
import { classificationOf } from '../boq/price/classification.ts'
import type { DrawingPart } from '../boq/write/part.ts'
import type { CloudBackend, CloudContext } from '../cloud/types.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import type { JobRecord, JobStore } from '../jobs/types.ts'
import { eachAtOnce } from '../lib/each-at-once.ts'
import { log } from '../log.ts'
import type { RulesStore } from '../rules/store/types.ts'
import { type BillSources, billDrawings } from './bill-drawings.ts'
import type { DrawingBill, SummedFigures } from './bill-sums.ts'
import {
  drawingPart,
  keptJobPart,
  type ProjectTables,
  partVersions,
  pricedBillJson,
  pricingOf,
} from './drawing-parts.ts'
import { drawingState } from './drawing-state.ts'
import type { KeptPricing, KeptPricings } from './kept-pricings.ts'
import type { KeptUnits } from './kept-units.ts'
import { type BillStore, partKeyText } from './types.ts'
import type { PricedDrawing } from './write/project-task.ts'

export interface AssembleParts {
  store: JobStore
  /** Where the drawings' parts are kept, for every process and the next start. */
  bills: Pick<BillStore, 'parts' | 'keepPart'>
  /** The projects' saved rules, classification and bill settings. */
  rules: RulesStore
  cloud: Pick<CloudBackend, 'contents' | 'versions'>
  /** Where each drawing's kept bill is read or priced, off the thread answering requests. */
  pool: BillPool
  /** The drawings' parts kept in this process from earlier assemblies. */
  kept: KeptPricings
}

/** A bill assembled: its answer, the versions it used, and each drawing's priced bill (for files). */
export interface AssembledParts {
  answer: AssembledBill
  /** The answer as JSON (made when asked: the downloads and issues need only the figures). */
  json(): string
  versions: BilledVersion[]
  /** Each priced drawing's bill of record: only when asked for (files are written from them). */
  priced: PricedDrawing[]
}

/** Parts made at once: the pool's threads are shared with everyone's pricing. */
const MADE_AT_ONCE = 2
/** Parts kept with their jobs read at once (small files or rows, read as they are). */
const READ_AT_ONCE = 8

/** A billed drawing on its way into the bill. */
interface Joining {
  drawing: BillDrawing
  job: JobRecord
  versionNumber: number
  pricing?: KeptPricing
}

/**
 * A project bill assembled from kept results, never reading a drawing: its drawings as the cloud
 * lists them now, each one's newest billed version (the person's extractions), priced with the
 * project's saved rules, classification and bill settings, in one unit system (those of the
 * first billed drawing: a drawing billed in others is named and left out), summed item by item.
 * What the bill takes of each drawing (its part: units, measured lines, priced items) is made
 * once per job and versions of the tables, from its bill of record (used as it is when priced
 * with the project's tables now, else priced with them: drawing-parts.ts), and kept in the bill
 * store and this process: a bill assembled again, here or in another process, makes only the
 * parts of drawings with a new job or new tables. A drawing whose kept bill cannot be read or
 * priced is said failed; the rest is assembled.
 */
export async function assembleBill(
  parts: AssembleParts,
  ctx: CloudContext,
  place: { hubId: string },
  bill: ProjectBill,
  options: { withPricedBills?: boolean } = {},
): Promise<AssembledParts> {
  const { store, kept } = parts
  const [sources, jobs, tables] = await Promise.all([
    billDrawings(parts.cloud, ctx, { hubId: place.hubId, projectId: bill.projectId }, bill),
    store.listByUser(ctx.user.userId),
    projectTables(parts.rules, bill.projectId),
  ])
  const versions = partVersions(tables)
  const stated = sources.drawings.map((drawing) => drawingState(drawing, jobs))

  const billed: Joining[] = []
  for (const { job, drawing } of stated) {
    if (!job || drawing.versionNumber === null) continue
    const pricing = kept.get({ jobId: job.id, versions })
    billed.push({ drawing, job, versionNumber: drawing.versionNumber, pricing })
  }
  await takeParts(parts, billed, tables, versions)

  // The bill's units are the first billed drawing's: a drawing in others is left out.
  let units: KeptUnits | undefined
  const warnings: DrawingWarning[] = goneWarnings(sources)
  const bills: (DrawingBill & { job: JobRecord })[] = []
  for (const one of billed) {
    const pricing = one.pricing as KeptPricing
    if ('failed' in pricing) {
      failed(one.drawing, pricing.failed)
      continue
    }
    const { part } = pricing
    units ??= part.units
    if (part.units.length !== units.length || part.units.area !== units.area) {
      one.drawing.state = 'other-units'
      // Joined only by the person: a drawing without units of its own is not converted by a guess.
      one.drawing.reason = `Billed in ${part.units.length} and ${part.units.area}, not in this bill’s ${units.length} and ${units.area}: left out. Extract it again with its units chosen (Units, and If the drawing has no units) to bring it in.`
      continue
    }
    // The drawing's name as the cloud lists it now (a part is kept across renames).
    const { fileName, itemId } = one.drawing
    bills.push({ ...billOf(one, part), fileName, job: one.job })
    if (pricing.rulesProblem) {
      warnings.push({ itemId, fileName, warning: rulesWarning(pricing.rulesProblem) })
    }
    for (const warning of part.warnings) warnings.push({ itemId, fileName, warning })
  }

  // Sections titled as the project's classification titles them (its saves are checked).
  const { titleOf } = classificationOf(tables.classification.rows)
  const { priced, measured, json } = await kept.sumsOf(bill.id).sum(units ?? null, bills, titleOf)
  const answer: AssembledBill = {
    id: bill.id,
    name: bill.name,
    bill,
    drawings: stated.map((one) => one.drawing),
    priced,
    measured,
    warnings,
  }
  return {
    answer,
    json: () => answerJson(answer, json),
    versions: bills.map(({ itemId, fileName, versionNumber, jobId }) => ({
      itemId,
      fileName,
      versionNumber,
      jobId,
    })),
    priced: options.withPricedBills ? await pricedBills(parts, tables, bills) : [],
  }
}

/**
 * The answer's JSON, its summed figures as they were made with their rows (megabytes for a bill
 * of thousands of lines over dozens of drawings, not written again for each answer).
 */
function answerJson(answer: AssembledBill, summed: SummedFigures['json']): string {
  const { id, name, bill, drawings, warnings } = answer
  const rest = JSON.stringify({ id, name, bill, drawings, warnings })
  return `${rest.slice(0, -1)},"priced":${summed.priced},"measured":${summed.measured}}`
}

/**
 * Each billed drawing's part: kept in this process (already on it), else kept with its job (its
 * bill of record priced with the tables now), else kept in the bill store (another process, or
 * this one before a restart, made it), else made now and kept in both.
 */
async function takeParts(
  parts: AssembleParts,
  billed: Joining[],
  tables: ProjectTables,
  versions: string,
): Promise<void> {
  const { kept, store } = parts
  const keep = (one: Joining, pricing: KeptPricing) => {
    one.pricing = pricing
    kept.keep({ jobId: one.job.id, versions }, pricing)
  }
  await eachAtOnce(
    billed.filter((one) => !one.pricing),
    READ_AT_ONCE,
    async (one) => {
      const pricing = await keptJobPart(store, one.job, tables)
      if (pricing) keep(one, pricing)
    },
  )
  const unknown = billed.filter((one) => !one.pricing)
  const found = await parts.bills.parts(unknown.map((one) => ({ jobId: one.job.id, versions })))
  const toMake: Joining[] = []
  for (const one of unknown) {
    const bytes = found.get(partKeyText({ jobId: one.job.id, versions }))
    const pricing = bytes && pricingOf(bytes)
    if (pricing) keep(one, pricing)
    else toMake.push(one)
  }
  await eachAtOnce(toMake, MADE_AT_ONCE, async (one) => {
    const made = await drawingPart(parts.pool, store, one.job, tables)
    keep(one, made.pricing)
    if (made.bytes) {
      // A part not kept is made again next time: the bill is answered all the same.
      await parts.bills
        .keepPart({ jobId: one.job.id, versions }, made.bytes)
        .catch((error: unknown) => log.warn('project bills: a part was not kept', { err: error }))
    }
  })
}

function billOf(one: Joining, part: DrawingPart): Omit<DrawingBill, 'fileName'> {
  return {
    itemId: one.drawing.itemId,
    versionNumber: one.versionNumber,
    jobId: one.job.id,
    items: part.items ?? [],
    lines: part.lines,
    total: part.total,
    priced: part.items !== null,
  }
}

/** Each priced drawing's priced bill, for a sheet of its own (a drawing measured only has none). */
async function pricedBills(
  parts: AssembleParts,
  tables: ProjectTables,
  bills: readonly (DrawingBill & { job: JobRecord })[],
): Promise<PricedDrawing[]> {
  const priced: PricedDrawing[] = []
  for (const { itemId, fileName, versionNumber, job, priced: isPriced } of bills) {
    if (!isPriced) continue
    const json = await pricedBillJson(parts.pool, parts.store, job, tables)
    if (json) priced.push({ itemId, fileName, versionNumber, json })
  }
  return priced
}

/** Said with a drawing whose bill stays measured: the rules cannot price it now. */
function rulesWarning(problem: string): string {
  return `Not priced: the project’s rules no longer check (${problem.replace(/\s+/g, ' ')}). Its measured lines are in the bill; it is priced once the rules are corrected.`
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

/** The project's saved tables and bill settings (version 0, empty, where none was saved). */
export async function projectTables(store: RulesStore, projectId: string): Promise<ProjectTables> {
  const [rules, classification, settings] = await Promise.all([
    store.rules(projectId, 'rules'),
    store.rules(projectId, 'classification'),
    store.billSettings(projectId),
  ])
  return {
    rules: { rows: rules?.rows ?? [], version: rules?.version ?? 0 },
    classification: { rows: classification?.rows ?? [], version: classification?.version ?? 0 },
    settings: { settings: settings?.settings ?? {}, version: settings?.version ?? 0 },
  }
}
