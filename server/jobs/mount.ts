import type { Hono } from 'hono'
import type { CloudAccess } from '../auth/cloud-access.ts'
import type { CloudBackend } from '../cloud/types.ts'
import type { Config } from '../config.ts'
import { log } from '../log.ts'
import { readJobsConfig } from './config.ts'
import { deferredStore } from './deferred-store.ts'
import { openEmbeddedJobStore } from './embedded-store.ts'
import { type Extractor, lazyExtractor } from './extractor.ts'
import { createJobLog } from './job-log.ts'
import { jobsRoutes } from './routes.ts'
import { startJobRunner } from './runner.ts'

export interface JobsHandle {
  /** Stops taking jobs, puts running ones back in the queue, closes the engine and the store. */
  close(): Promise<void>
}

const live = new Set<JobsHandle>()

/**
 * Mounts the extraction jobs under /api/boq and starts their runner (jobs left queued by the last
 * run start at once). Settings come from BOQ_WORKERS, BOQ_MAX_FILE_MB, BOQ_MAX_QUEUED_PER_USER.
 */
export function mountJobs(
  app: Hono,
  options: {
    config: Pick<Config, 'dataDir' | 'sessionSecret'>
    cloud: CloudBackend
    access: CloudAccess
    env?: Record<string, string | undefined>
    /** In place of the real engine (tests). */
    extractor?: Extractor
  },
): JobsHandle {
  const settings = readJobsConfig(options.env ?? process.env)
  const opening = openEmbeddedJobStore({
    dataDir: options.config.dataDir,
    sessionSecret: options.config.sessionSecret,
    onChange: createJobLog(log),
  })
  opening.catch((error: unknown) =>
    log.error('jobs: the job store could not be opened', { err: error }),
  )
  const store = deferredStore(opening)

  const starting = (async () => {
    await opening
    const extractor =
      options.extractor ??
      lazyExtractor(async () =>
        // Loaded and started on the first job: a server that never extracts never loads the
        // WASM reader nor keeps warm workers (tests start many servers).
        (await import('./engine-extractor.ts')).createEngineExtractor({
          workers: settings.workers,
          maxFileBytes: settings.maxFileBytes,
        }),
      )
    return startJobRunner({
      store,
      cloud: options.cloud,
      extractor,
      concurrency: settings.workers,
      maxFileBytes: settings.maxFileBytes,
    })
  })()
  starting.catch((error: unknown) => log.error('jobs: the runner could not start', { err: error }))

  app.route(
    '/api/boq',
    jobsRoutes({
      store,
      cloud: options.cloud,
      withCloud: (c, fn) => options.access.run(c, fn),
      maxFileBytes: settings.maxFileBytes,
      maxQueuedPerUser: settings.maxQueuedPerUser,
    }),
  )

  let closing: Promise<void> | undefined
  const handle: JobsHandle = {
    close() {
      closing ??= (async () => {
        live.delete(handle)
        const runner = await starting.catch(() => undefined)
        await runner?.close()
        await store.close()
      })()
      return closing
    },
  }
  live.add(handle)
  return handle
}

/** Closes every mounted jobs service of this process (graceful shutdown, and tests' cleanup). */
export async function closeAllJobs(): Promise<void> {
  await Promise.all([...live].map((handle) => handle.close()))
}
