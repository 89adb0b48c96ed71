import type { CloudBackend, CloudContext } from '../cloud/types.ts'
import { log as serverLog } from '../log.ts'
import type { Extractor } from './extractor.ts'
import { type JobRunDeps, runJob, type SavedPricing } from './run-job.ts'
import type { JobRecord, JobStore } from './types.ts'

export interface RunnerOptions {
  store: JobStore
  cloud: CloudBackend
  extractor: Extractor
  /** Jobs run at the same time (the engine's pool size: each job holds one worker). */
  concurrency: number
  maxFileBytes: number
  /** How often to look at the queue without being told (a shared store may miss a notice). */
  pollMs?: number
  /** Where the runner's own troubles go (tests collect them); the server's log by default. */
  log?: (message: string, error?: unknown) => void
  /**
   * A newer context for a job than the one captured when it was queued, when its owner left one
   * (a watch's standing access: its job may have waited past the captured token's hour); none:
   * the captured one.
   */
  freshContext?: (job: JobRecord) => Promise<CloudContext | undefined>
  /**
   * The project's saved tables a job's bill is priced with, and their versions (0: none saved);
   * no tables when the project has no rules. None given: every bill is priced with none.
   */
  savedPricing?: (projectId: string) => Promise<SavedPricing>
}

export interface JobRunner {
  /** Stops taking jobs, closes the engine, waits for running jobs to settle (unfinished ones go back to the queue). */
  close(): Promise<void>
}

export { MAX_KEPT_WARNINGS } from './kept-warnings.ts'
export type { SavedPricing } from './run-job.ts'

/**
 * Takes queued jobs from the store and runs them (run-job.ts), as many at once as `concurrency`:
 * told of each new job by the store, and looking at the queue every so often besides.
 */
export function startJobRunner(options: RunnerOptions): JobRunner {
  const { store, cloud, extractor, concurrency, maxFileBytes } = options
  const log =
    options.log ??
    ((message, error) => serverLog.error(message, error === undefined ? {} : { err: error }))
  const active = new Set<Promise<void>>()
  let stopped = false
  const deps: JobRunDeps = {
    store,
    cloud,
    extractor,
    maxFileBytes,
    log,
    freshContext: options.freshContext,
    savedPricing: options.savedPricing,
    stopped: () => stopped,
  }
  let pumping: Promise<void> | undefined
  let again = false

  function pump(): Promise<void> {
    if (pumping) {
      again = true
      return pumping
    }
    pumping = fill().finally(() => {
      pumping = undefined
    })
    return pumping
  }

  /** Claims jobs until the queue is empty or every slot is busy. */
  async function fill(): Promise<void> {
    try {
      do {
        again = false
        while (!stopped && active.size < concurrency) {
          const claimed = await store.claim()
          if (!claimed) break
          if (stopped) {
            await store.release(claimed.job.id)
            break
          }
          const run: Promise<void> = runJob(deps, claimed).finally(() => {
            active.delete(run)
            void pump()
          })
          active.add(run)
        }
      } while (again && !stopped)
    } catch (error) {
      log('jobs: could not take a job from the queue', error)
    }
  }

  const unsubscribe = store.onQueued(() => void pump())
  const timer = setInterval(() => void pump(), options.pollMs ?? 5_000)
  timer.unref()
  void pump()

  return {
    async close() {
      stopped = true
      unsubscribe()
      clearInterval(timer)
      await pumping
      await extractor.close().catch((e) => log('jobs: closing the engine failed', e))
      while (active.size > 0) await Promise.allSettled([...active])
    },
  }
}
