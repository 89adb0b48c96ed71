import type { BillPool } from '../jobs/bill-pool.ts'
import type { JobRecord, JobStore } from '../jobs/types.ts'
import { log } from '../log.ts'
import type { RulesStore } from '../rules/store/types.ts'
import { projectTables } from './assemble.ts'
import { drawingPart, partVersions } from './drawing-parts.ts'
import type { KeptPricings } from './kept-pricings.ts'
import { type BillStore, partKeyText } from './types.ts'

export interface PartsOnJobEnd {
  /** Tells of a job that ended: its drawing's part is made in the background when it succeeded. */
  jobEnded(job: JobRecord): void
  /** Resolves once every part asked for so far is made (or failed, said in the log). */
  idle(): Promise<void>
  /** Takes no more; waits for the part being made (those still waiting are made when asked). */
  close(): Promise<void>
}

/**
 * Makes each finished drawing's part of the project bill when its job ends, priced with the
 * project's tables then, and keeps it in the bill store and this process: a bill asked for later
 * (here or in another process) reads it as kept instead of reading every drawing's bill of record
 * at once. Only for projects with a project bill: most jobs are never in one, and a part costs a
 * read of the whole bill of record in the pool (a bill made later over older jobs makes those
 * parts once, when first asked). One part at a time, so the pool's lane stays free for requests.
 */
export function partsOnJobEnd(parts: {
  store: JobStore
  bills: Pick<BillStore, 'list' | 'parts' | 'keepPart'>
  rules: RulesStore
  pool: BillPool
  kept: KeptPricings
}): PartsOnJobEnd {
  const waiting: JobRecord[] = []
  const asked = new Set<string>()
  let running: Promise<void> | undefined
  let closed = false

  async function makePart(job: JobRecord): Promise<void> {
    if ((await parts.bills.list(job.projectId)).length === 0) return
    const tables = await projectTables(parts.rules, job.projectId)
    const key = { jobId: job.id, versions: partVersions(tables) }
    if (parts.kept.get(key)) return
    if ((await parts.bills.parts([key])).has(partKeyText(key))) return
    const made = await drawingPart(parts.pool, parts.store, job, tables)
    parts.kept.keep(key, made.pricing)
    if (made.bytes) await parts.bills.keepPart(key, made.bytes)
    if ('failed' in made.pricing) {
      log.warn('project bills: a drawing’s part was not made', {
        jobId: job.id,
        reason: made.pricing.failed,
      })
    }
  }

  async function drain(): Promise<void> {
    for (let job = waiting.shift(); job && !closed; job = waiting.shift()) {
      await makePart(job).catch((error: unknown) =>
        log.warn('project bills: a drawing’s part was not made', { jobId: job?.id, err: error }),
      )
      asked.delete(job.id)
    }
    running = undefined
  }

  return {
    jobEnded(job) {
      if (closed || job.status !== 'succeeded' || asked.has(job.id)) return
      asked.add(job.id)
      waiting.push(job)
      running ??= drain()
    },
    async idle() {
      while (running) await running
    },
    async close() {
      closed = true
      waiting.length = 0
      await running
    },
  }
}
