import type { Hono } from 'hono'
import type { CloudAccess } from '../auth/cloud-access.ts'
import type { CloudBackend, CloudContext } from '../cloud/types.ts'
import type { Config } from '../config.ts'
import { log } from '../log.ts'
import { createBillPool } from './bill-pool.ts'
import { openEmbeddedJobStore } from './embedded-store.ts'
import { saveExampleTables } from './example-tables.ts'
import { type Extractor, lazyExtractor } from './extractor.ts'
import { geometryBuilds } from './geometry-builds.ts'
import { createJobLog } from './job-log.ts'
import { perUserLimit } from './per-user-limit.ts'
import { openPostgresJobStore } from './pg/postgres-store.ts'
import { priceRoutes } from './price-routes.ts'
import { projectAccess } from './project-access.ts'
import { jobsRoutes } from './routes.ts'
import { rulesRoutes } from './rules-routes.ts'
import { startJobRunner } from './runner.ts'
import type { JobChange, JobStore } from './types.ts'

export interface JobsService {
  /** The extraction API, to mount under /api/boq. */
  routes: Hono
  /** The store the jobs (and the watches) live in. */
  store: JobStore
  /** Calls `listener` whenever a job of this process ends; returns unsubscribe. */
  onJobEnded(listener: () => void): () => void
  /**
   * How a job a watch started gets its owner's context as it is when the job runs (the watches'
   * standing access, made after the jobs).
   */
  actForWatches(contextFor: (userId: string) => Promise<CloudContext | undefined>): void
  /** Stops taking jobs, puts running ones back in the queue, closes the engine and the store. */
  close(): Promise<void>
}

/**
 * The extraction jobs: opens their store (PostgreSQL when BOQ_DATABASE_URL names one, else the
 * embedded one), starts the runner unless this process only serves HTTP (jobs left queued start
 * at once) and makes their routes.
 */
export async function startJobs(options: {
  config: Pick<
    Config,
    | 'dataDir'
    | 'workers'
    | 'maxFileBytes'
    | 'maxQueuedPerUser'
    | 'databaseUrl'
    | 'role'
    | 'jobRetentionDays'
    | 'jobRecoverySeconds'
  >
  /** Seals the access tokens kept with queued jobs. */
  tokenKey: Uint8Array
  cloud: CloudBackend
  access: CloudAccess
  /** In place of the real engine (tests). */
  extractor?: Extractor
  /** The demo project just created, to save the example rules for (see prepareDataDir). */
  exampleProject?: string | null
}): Promise<JobsService> {
  const { config, cloud } = options
  const logChange = createJobLog(log)
  const ended = new Set<() => void>()
  const onChange = (change: JobChange) => {
    logChange(change)
    if (change.job.status !== 'succeeded' && change.job.status !== 'failed') return
    for (const listener of ended) listener()
  }
  const store = config.databaseUrl
    ? await openPostgresJobStore({
        url: config.databaseUrl,
        tokenKey: options.tokenKey,
        recoverySeconds: config.jobRecoverySeconds,
        retentionDays: config.jobRetentionDays,
        onChange,
      })
    : await openEmbeddedJobStore({
        dataDir: config.dataDir,
        tokenKey: options.tokenKey,
        retentionDays: config.jobRetentionDays,
        onChange,
      })
  if (options.exampleProject) await saveExample(store, options.exampleProject)
  const extractor =
    options.extractor ??
    lazyExtractor(async () =>
      // Loaded and started on the first job (or geometry built for an older one): a server that
      // never extracts never loads the WASM reader nor keeps warm workers (tests start many
      // servers).
      (await import('./engine-extractor.ts')).createEngineExtractor({
        workers: config.workers,
        maxFileBytes: config.maxFileBytes,
      }),
    )
  let watchContext: ((userId: string) => Promise<CloudContext | undefined>) | undefined
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
            job.watchId && watchContext ? watchContext(job.userId) : undefined,
        })
  const withCloud: Parameters<typeof jobsRoutes>[0]['withCloud'] = (c, fn) =>
    options.access.run(c, fn)
  const bills = createBillPool()
  const heavy = perUserLimit(HEAVY_PER_USER)
  const routes = jobsRoutes({
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
  const visibleProject = projectAccess(cloud)
  routes.route('/', rulesRoutes({ store, withCloud, visibleProject, bills, heavy }))
  routes.route('/', priceRoutes({ store, cloud, withCloud, visibleProject, bills, heavy }))

  let closing: Promise<void> | undefined
  return {
    routes,
    store,
    actForWatches(contextFor) {
      watchContext = contextFor
    },
    onJobEnded(listener) {
      ended.add(listener)
      return () => ended.delete(listener)
    },
    close() {
      closing ??= (async () => {
        // The runner closes the engine it was given; without one, the engine is closed here.
        await (runner ? runner.close() : extractor.close())
        await bills.close()
        await store.close()
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

/** Saves the example tables for the demo project; when that fails, the server starts without them. */
async function saveExample(store: JobStore, projectId: string): Promise<void> {
  try {
    if (await saveExampleTables(store, projectId))
      log.info('demo project: example takeoff rules and classification saved')
  } catch (error) {
    log.warn('demo project: the example takeoff rules could not be saved', { err: error })
  }
}
