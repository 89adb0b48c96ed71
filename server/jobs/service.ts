import { Hono } from 'hono'
import type { CloudAccess } from '../auth/cloud-access.ts'
import type { WorkerPool } from '../boq/run/pool/pool.ts'
import type { CloudBackend, CloudContext } from '../cloud/types.ts'
import type { Config } from '../config.ts'
import { type BillPool, billLane } from './bill-pool.ts'
import { type Extractor, lazyExtractor } from './extractor.ts'
import { geometryBuilds } from './geometry-builds.ts'
import { type PerUserLimit, perUserLimit } from './per-user-limit.ts'
import { jobsRoutes } from './routes.ts'
import { type SavedPricing, startJobRunner } from './runner.ts'
import type { JobStore } from './types.ts'
import { LANES } from './work-pool.ts'

export interface JobsService {
  /** The extraction API, to mount under /api/boq. */
  routes: Hono
  /** Where work that grows with a kept bill or a file sent runs, off the request thread. */
  bills: BillPool
  /** The heavy requests (change bills, pricing, tables read) each person may have running. */
  heavy: PerUserLimit
  /** The engine the jobs read drawings with, for what else reads a job's drawing again. */
  extractor: Extractor
  /** Stops taking jobs, puts running ones back in the queue, closes the engine (not the store nor the pool). */
  close(): Promise<void>
}

/**
 * The extraction jobs on their store: starts the runner unless this process only serves HTTP
 * (jobs left queued start at once) and makes their routes.
 */
export async function startJobs(options: {
  config: Pick<Config, 'workers' | 'maxFileBytes' | 'maxQueuedPerUser' | 'role'>
  store: JobStore
  /**
   * The owner's context as it is when a job a watch started runs (the watches' standing access:
   * the job may have waited past the captured token's hour); undefined: the captured one.
   */
  contextForWatchJob: (userId: string) => Promise<CloudContext | undefined>
  /** What a new job's bill is priced with (the project's saved tables). */
  savedPricing: (projectId: string) => Promise<SavedPricing>
  cloud: CloudBackend
  access: CloudAccess
  /** The server's worker pool: drawings are read in its drawings' lane, bills in its bills'. */
  pool: WorkerPool
  /** In place of the real engine (tests). */
  extractor?: Extractor
}): Promise<JobsService> {
  const { config, store, cloud } = options
  const extractor =
    options.extractor ??
    lazyExtractor(async () =>
      // Loaded and started on the first job (or geometry built for an older one): a server that
      // never extracts never loads the WASM reader nor keeps warm workers (tests start many
      // servers).
      (await import('./engine-extractor.ts')).createEngineExtractor({
        workers: config.workers,
        maxFileBytes: config.maxFileBytes,
        pool: options.pool,
      }),
    )
  // A web process only queues jobs: workers elsewhere run them.
  const runner =
    config.role === 'web'
      ? undefined
      : startJobRunner({
          store,
          cloud,
          extractor,
          concurrency: config.workers,
          maxFileBytes: config.maxFileBytes,
          freshContext: async (job) =>
            job.watchId ? options.contextForWatchJob(job.userId) : undefined,
          savedPricing: options.savedPricing,
        })
  const withCloud: Parameters<typeof jobsRoutes>[0]['withCloud'] = (c, fn) =>
    options.access.run(c, fn)
  const bills = billLane(options.pool, LANES.bills)
  const heavy = perUserLimit(HEAVY_PER_USER)
  const jobs = jobsRoutes({
    store,
    cloud,
    withCloud,
    maxFileBytes: config.maxFileBytes,
    maxQueuedPerUser: config.maxQueuedPerUser,
    bills,
    heavy,
    // Built by the same engine as the extractions (a web process starts its own on first use).
    geometries: geometryBuilds({ store, cloud, extractor, maxFileBytes: config.maxFileBytes }),
  })
  const routes = new Hono()
  routes.route('/', jobs)

  let closing: Promise<void> | undefined
  return {
    routes,
    bills,
    heavy,
    extractor,
    close() {
      closing ??= (async () => {
        // The runner closes the engine it was given; without one, the engine is closed here.
        await (runner ? runner.close() : extractor.close())
      })()
      return closing
    },
  }
}

/**
 * Change bills and pricings one user may have running at once: a person comparing and pricing
 * side by side, not a script holding the bill pool.
 */
const HEAVY_PER_USER = 2
