import type { PricedWith } from '#contract/jobs.ts'
import type { LocationRow } from '#contract/locations.ts'
import type { PricingTables } from '../boq/price/price.ts'
import type { BoqInput } from '../boq/run/input.ts'
import type { CloudBackend, CloudContext } from '../cloud/types.ts'
import { findEarlierBill } from './earlier-bill.ts'
import { billOptionsOf } from './extract-units.ts'
import type { Extractor } from './extractor.ts'
import { describeFailure, JobFailure, type JobPhase, tooLargeMessage } from './failure.ts'
import { keptWarnings } from './kept-warnings.ts'
import { findVersionNumber } from './locate.ts'
import type { ClaimedJob, JobRecord, JobStore } from './types.ts'
import { writeBackOnce } from './write-back.ts'

/** What a job's bill is priced with, and their versions (0: none saved). */
export interface SavedPricing {
  tables?: PricingTables
  /** The project's locations rows: the bill is allocated to the zones they find. */
  locations?: LocationRow[]
  pricedWith: PricedWith
}

/** What running a job takes: the runner's options, its log, and whether it is stopping. */
export interface JobRunDeps {
  store: JobStore
  cloud: CloudBackend
  extractor: Extractor
  maxFileBytes: number
  log: (message: string, error?: unknown) => void
  freshContext?: (job: JobRecord) => Promise<CloudContext | undefined>
  savedPricing?: (projectId: string) => Promise<SavedPricing>
  /** The runner is stopping: a job it stops goes back to the queue. */
  stopped: () => boolean
}

/** The versions of a bill priced with no rules. */
const NOT_PRICED: PricedWith = { rulesVersion: 0, classificationVersion: 0, settingsVersion: 0 }

/** Progress shares: download up to 10%, extraction to 90%, upload the rest. */
const DOWNLOADED = 0.1
const EXTRACTED = 0.9

/** The newer context the job's owner left, if any; a failure to get one costs nothing. */
export async function freshContext(
  deps: JobRunDeps,
  job: JobRecord,
): Promise<CloudContext | undefined> {
  const { log } = deps
  try {
    return await deps.freshContext?.(job)
  } catch (error) {
    log(
      `jobs: could not renew the sign-in of ${job.id}; it runs with the one it was queued with`,
      error,
    )
    return undefined
  }
}

/**
 * The earlier version's bill the workbook is compared with, when the user has one; a failure
 * to find it costs the job only its Changes sheet.
 */
export async function earlierBill(
  deps: JobRunDeps,
  job: JobRecord,
  numbering: Promise<number | undefined> | undefined,
) {
  const { store, log } = deps
  try {
    const versionNumber = job.fileVersionNumber ?? (await numbering)
    return versionNumber === undefined
      ? undefined
      : await findEarlierBill(store, job, versionNumber)
  } catch (error) {
    log(`jobs: could not look for an earlier bill of ${job.id}`, error)
    return undefined
  }
}

/**
 * The project's saved rules and classification to price the bill with, and their versions;
 * no tables when the project has no rules. A store that cannot say costs the job only its
 * pricing (the result page re-prices it once the store answers), with a warning saying so.
 */
export async function savedPricing(
  deps: JobRunDeps,
  job: JobRecord,
): Promise<SavedPricing & { warning?: string }> {
  const { log } = deps
  try {
    return (await deps.savedPricing?.(job.projectId)) ?? { pricedWith: NOT_PRICED }
  } catch (error) {
    log(`jobs: could not read the takeoff rules for ${job.id}`, error)
    return {
      pricedWith: NOT_PRICED,
      warning:
        "The bill is not priced: the project's takeoff rules could not be read. Price it again from the result page.",
    }
  }
}

/**
 * Runs one claimed job: download the version, extract its BOQ, write the XLSX back beside the
 * drawing, keep the outputs. Every failure ends as a failed job with a reason (or, when the
 * runner is stopping, the job back in the queue); nothing a job does throws out of here.
 */
export async function runJob(deps: JobRunDeps, claimed: ClaimedJob): Promise<void> {
  const { store, cloud, extractor, maxFileBytes, log } = deps
  const { job } = claimed
  const context = (await freshContext(deps, job)) ?? claimed.context
  let phase: JobPhase = 'download'
  let reported = 0
  const report = (progress: number) => {
    // Small steps are not worth a store call (a shared store would write each one).
    if (progress - reported < 0.01 && progress < 1) return
    reported = progress
    store.setProgress(job.id, Math.min(1, progress)).catch(() => {})
  }
  // A version number the storage id did not carry is looked up beside the download and the
  // extraction, and recorded before the job ends (one change of the record at a time).
  const numbering =
    job.fileVersionNumber === undefined
      ? findVersionNumber(cloud, context, job).catch(() => undefined)
      : undefined
  let noted: Promise<void> | undefined
  const noteVersionNumber = () => {
    noted ??= (async () => {
      const number = await numbering
      if (number === undefined) return
      await store
        .setFileVersionNumber(job.id, number)
        .catch((e) => log(`jobs: could not record the version number of ${job.id}`, e))
    })()
    return noted
  }
  try {
    const bytes = await cloud.download(context, job.projectId, job.fileStorageId)
    if (bytes.byteLength > maxFileBytes) {
      throw new JobFailure(tooLargeMessage(bytes.byteLength, maxFileBytes))
    }
    report(DOWNLOADED)
    phase = 'extract'
    // The units the person chose reach the engine as its bill options; none: its defaults.
    const options = billOptionsOf(job.units)
    const input: BoqInput = options
      ? { bytes, fileName: job.fileName, options }
      : { bytes, fileName: job.fileName }
    const [changesFrom, pricing] = await Promise.all([
      earlierBill(deps, job, numbering),
      savedPricing(deps, job),
    ])
    if (changesFrom) input.changesFrom = changesFrom
    if (pricing.tables) input.pricing = pricing.tables
    if (pricing.locations) input.locations = pricing.locations
    // Stopping while the job looked for its earlier bill and rules: it goes back to the queue.
    if (deps.stopped()) throw new Error('The runner stopped.')
    const outputs = await extractor.extract(input, (fraction) =>
      report(DOWNLOADED + (EXTRACTED - DOWNLOADED) * clamp(fraction)),
    )
    const { xlsx, csv, json, geometry, part } = outputs.files
    if (!xlsx || !csv || !json) throw new Error('The engine wrote no files.')
    if (pricing.warning) outputs.warnings.push(pricing.warning)
    report(EXTRACTED)
    await noteVersionNumber()
    phase = 'upload'
    const written = await writeBackOnce(cloud, store, context, job, xlsx)
    // The versions the kept bill (the job's bill of record) is priced with; a bill the
    // engine could not price in time was priced with none.
    const pricedWith =
      pricing.tables && !outputs.priced
        ? { ...pricing.pricedWith, ...NOT_PRICED }
        : pricing.pricedWith
    await store
      .notePricedWith(job.id, pricedWith)
      .catch((e) => log(`jobs: could not record the rules ${job.id} was priced with`, e))
    await store.succeed(
      job.id,
      {
        fileName: written.fileName,
        itemId: written.itemId,
        versionNumber: written.versionNumber,
        ...keptWarnings(outputs.warnings),
        jsonKept: true,
        ...(geometry ? { geometryKept: true } : {}),
        ...(outputs.comparedWith ? { comparedWith: outputs.comparedWith } : {}),
        ...(outputs.changedLines === null || outputs.changedLines === undefined
          ? {}
          : { changedLines: outputs.changedLines }),
      },
      { xlsx, csv, json, ...(geometry ? { geometry } : {}), ...(part ? { part } : {}) },
    )
  } catch (error) {
    if (deps.stopped()) {
      // Shutting down (the engine was closed under the job): run it again on the next start.
      await store.release(job.id).catch((e) => log(`jobs: could not requeue ${job.id}`, e))
      return
    }
    const { message, unexpected } = describeFailure(error, phase, job.fileName)
    if (unexpected) log(`jobs: job ${job.id} failed while in ${phase}`, error)
    await noteVersionNumber()
    await store
      .fail(job.id, message)
      .catch((e) => log(`jobs: could not record failure of ${job.id}`, e))
  }
}

function clamp(fraction: number): number {
  return Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0
}
