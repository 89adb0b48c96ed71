import { PgBoss } from 'pg-boss'
import type { QueueDb } from '../../lib/pg/transaction.ts'

/** pg-boss's queue of extractions: each entry names one row of boq_jobs. */
export const EXTRACT_QUEUE = 'boq-extract'

/** What a queue entry carries: the job's id (everything else is in boq_jobs). */
export interface QueueEntry {
  jobId: string
}

export interface QueueTimings {
  /** How often a worker says it still runs a job; pg-boss's minimum is 10. */
  heartbeatSeconds: number
  /** How often pg-boss looks for jobs whose worker went silent (and other upkeep). */
  superviseSeconds: number
}

/**
 * Splits BOQ_JOB_RECOVERY_SECONDS between the heartbeat and the supervision: a job whose worker
 * went silent is failed by the next supervision after one missed heartbeat, and is then taken
 * again (pg-boss retries it) by any worker.
 */
export function queueTimings(recoverySeconds: number): QueueTimings {
  const heartbeatSeconds = Math.max(10, Math.floor(recoverySeconds / 2))
  return { heartbeatSeconds, superviseSeconds: Math.max(1, recoverySeconds - heartbeatSeconds) }
}

/** Worker deaths a job survives: past this the drawing itself is the likely cause. */
export const CRASH_RETRIES = 2

/**
 * Starts pg-boss on the database (it creates or migrates its own schema, `pgboss`) and makes sure
 * the extraction queue exists with BOQ's settings.
 */
export async function startQueue(options: {
  url: string
  timings: QueueTimings
  retentionDays: number
  onError: (error: Error) => void
}): Promise<{ boss: PgBoss; db: QueueDb }> {
  const { timings } = options
  const boss = new PgBoss({
    connectionString: options.url,
    application_name: 'boq',
    superviseIntervalSeconds: timings.superviseSeconds,
    monitorIntervalSeconds: timings.superviseSeconds,
  })
  boss.on('error', options.onError)
  await boss.start()
  const settings = {
    heartbeatSeconds: timings.heartbeatSeconds,
    // One delivery more than the crashes a job survives: that last one records the job as failed
    // (a job pg-boss gave up on would stay running in boq_jobs).
    retryLimit: CRASH_RETRIES + 1,
    retryDelay: 0,
    // A heartbeat tells a live worker from a dead one; this only bounds a worker that is alive
    // but stuck.
    expireInSeconds: 6 * 60 * 60,
    deleteAfterSeconds: options.retentionDays * 24 * 60 * 60,
  }
  await boss.createQueue(EXTRACT_QUEUE, settings)
  await boss.updateQueue(EXTRACT_QUEUE, settings)
  return { boss, db: boss.getDb() as QueueDb }
}
