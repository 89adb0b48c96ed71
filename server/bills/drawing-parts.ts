import type { PricedWith } from '#contract/jobs.ts'
import type { ClassificationEntry, TakeoffRule } from '#contract/takeoff-rules.ts'
import type { PartAnswer } from '../boq/write/part.ts'
import { AppError } from '../errors.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import { keptBillBytes } from '../jobs/kept-bill.ts'
import type { JobRecord, JobStore } from '../jobs/types.ts'
import type { PriceWith, SettingsWith } from '../rules/priced-job.ts'
import type { KeptPricing } from './kept-pricings.ts'

/** The project's saved tables and bill settings now, each drawing priced with them. */
export interface ProjectTables {
  rules: PriceWith<TakeoffRule> & { version: number }
  classification: PriceWith<ClassificationEntry> & { version: number }
  settings: SettingsWith
}

type Versions = Required<Omit<PricedWith, 'locationsVersion'>>

/** The versions a bill priced with `tables` names. */
export function versionsOf(tables: ProjectTables): Versions {
  return {
    rulesVersion: tables.rules.version,
    classificationVersion: tables.classification.version,
    settingsVersion: tables.settings.version,
  }
}

/** What a part is kept under beside its job: its shape's version, then the tables'. */
export function partVersions(tables: ProjectTables): string {
  const { rulesVersion, classificationVersion, settingsVersion } = versionsOf(tables)
  return `p1.r${rulesVersion}.c${classificationVersion}.s${settingsVersion}`
}

/** The job's bill of record was priced with these versions (settings absent: none saved then). */
function pricedWithThese(job: JobRecord, versions: Versions): boolean {
  const was = job.pricedWith
  return (
    was !== undefined &&
    was.rulesVersion === versions.rulesVersion &&
    was.classificationVersion === versions.classificationVersion &&
    (was.settingsVersion ?? 0) === versions.settingsVersion
  )
}

export const UNREADABLE = 'Its kept bill cannot be read; extract it again.'

/**
 * The part a job kept with its bill of record, when that was priced with the project's tables
 * now; undefined else (priced with others, kept before parts were, or torn).
 */
export async function keptJobPart(
  store: JobStore,
  job: JobRecord,
  tables: ProjectTables,
): Promise<KeptPricing | undefined> {
  if (!pricedWithThese(job, versionsOf(tables))) return undefined
  const bytes = await store.readResult(job.id, 'part')
  return bytes && pricingOf(bytes)
}

/**
 * A drawing's part of the project bill made in the bill pool from its job's bill of record:
 * taken as it is when priced with the tables now (no pricing), else priced with them (the job's
 * own bill of record stays as its owner left it). Rules that no longer check leave the drawing
 * measured, saying why. The answer's JSON (`bytes`) is what is kept. What the person's kept
 * bill cannot help (none kept, one of an older BOQ, past its budget) is said as the drawing's
 * failure, never kept.
 */
export async function drawingPart(
  pool: BillPool,
  store: JobStore,
  job: JobRecord,
  tables: ProjectTables,
): Promise<{ pricing: KeptPricing; bytes?: Uint8Array }> {
  try {
    const asItIs = pricedWithThese(job, versionsOf(tables))
    const json = asItIs
      ? await store.readResult(job.id, 'json')
      : await keptBillBytes(store, job, 'price')
    if (!json) return { pricing: { failed: UNREADABLE } }
    const answer = await pool.run({
      kind: 'project-bill',
      part: json,
      ...(asItIs
        ? {}
        : {
            price: {
              rules: tables.rules.rows,
              classification: tables.classification.rows,
              settings: tables.settings.settings,
              versions: versionsOf(tables),
            },
          }),
    })
    if (!('bytes' in answer)) throw new Error('The drawing’s part was not read.')
    const pricing = pricingOf(answer.bytes)
    return pricing ? { pricing, bytes: answer.bytes } : { pricing: { failed: UNREADABLE } }
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error
    return { pricing: { failed: error.message } }
  }
}

/**
 * A drawing's priced bill for a sheet of its own, as JSON whose `priced` it is: its bill of
 * record when priced with the project's tables now, else its kept bill priced with them (a
 * PricedJob); undefined when it cannot be had (the drawing is then said in its part).
 */
export async function pricedBillJson(
  pool: BillPool,
  store: JobStore,
  job: JobRecord,
  tables: ProjectTables,
): Promise<Uint8Array | undefined> {
  const versions = versionsOf(tables)
  if (pricedWithThese(job, versions)) return store.readResult(job.id, 'json')
  const answer = await pool.run({
    kind: 'price',
    bill: await keptBillBytes(store, job, 'price'),
    jobId: job.id,
    rules: tables.rules.rows,
    rulesVersion: versions.rulesVersion,
    classification: tables.classification.rows,
    classificationVersion: versions.classificationVersion,
    settings: tables.settings.settings,
    settingsVersion: versions.settingsVersion,
  })
  return 'bytes' in answer ? answer.bytes : undefined
}

/** A part's JSON as made or kept; undefined when it is no part (not a bill of now, or torn). */
export function pricingOf(bytes: Uint8Array): KeptPricing | undefined {
  try {
    const answer = JSON.parse(new TextDecoder().decode(bytes)) as PartAnswer | null
    return answer?.part ? answer : undefined
  } catch {
    return undefined
  }
}
