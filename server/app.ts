import { Hono } from 'hono'
import { createCloudAccess } from './auth/cloud-access.ts'
import { loadSecretKeys, type SecretKeys } from './auth/keys.ts'
import { createFileRevocations, type SessionRevocations } from './auth/revocations.ts'
import { authRoutes } from './auth/routes.ts'
import { createSessionStore } from './auth/session.ts'
import { type Backends, createBackends } from './backends.ts'
import { startProjectBills } from './bills/service.ts'
import { HOOK_EVENTS_PATH } from './cloud/aps/hooks.ts'
import type { Config } from './config.ts'
import { cloudRoutes } from './http/cloud-routes.ts'
import { errorResponse, plain } from './http/errors.ts'
import { noLocalRoutes } from './http/no-local-routes.ts'
import { requestLog } from './http/request-log.ts'
import { apiCors, securityHeaders, xsrfCheck, xsrfCookie } from './http/security.ts'
import { staticFiles } from './http/static-files.ts'
import { billLane } from './jobs/bill-pool.ts'
import type { Extractor } from './jobs/extractor.ts'
import { startJobs } from './jobs/service.ts'
import type { JobRecord } from './jobs/types.ts'
import { createWorkPool, LANES } from './jobs/work-pool.ts'
import { listeners } from './lib/listeners.ts'
import { log } from './log.ts'
import { savedPricing } from './rules/saved-pricing.ts'
import { startRules } from './rules/service.ts'
import { openStores } from './stores.ts'
import { localWatchSource } from './watches/local/local-source.ts'
import { startWatches } from './watches/service.ts'
import { standingAccess } from './watches/standing-access.ts'

export interface ServerParts {
  /** Replaces the back ends createBackends(config) would pick (tests). */
  backends?: (keys: SecretKeys) => Backends
  /** Replaces the file store of ended sessions (a store shared by several processes). */
  revocations?: SessionRevocations
  /** Replaces the BOQ engine the jobs run (tests). */
  extractor?: Extractor
  /** The demo project prepareDataDir created on this start, given the example takeoff rules. */
  exampleProject?: string | null
}

export interface BoqServer {
  /** The whole server as a fetch handler: API under /api, the built app everywhere else. */
  app: Hono
  /** Stops everything the server started (the watches, the jobs' runner and engine, the stores). */
  close(): Promise<void>
}

/**
 * The one way to make a server: from its configuration, with the keys loaded (or generated into
 * the data folder), the stores open and the runner started before it answers anything. Each part
 * is given what it needs as it is made. Listening is the caller's (main, tests).
 */
export async function createServer(config: Config, parts: ServerParts = {}): Promise<BoqServer> {
  const keys = await loadSecretKeys(config)
  const backends = parts.backends?.(keys) ?? createBackends(config, keys)
  const revocations = parts.revocations ?? createFileRevocations(config.dataDir)
  const sessions = createSessionStore(keys.session, revocations)
  const access = createCloudAccess(sessions, backends.auth)
  // A job that ended in this process leaves its owner a free place for a version a watch saw,
  // and its drawing's part of the project's bills to make before anyone asks for them.
  const jobEnded = listeners<JobRecord>((error) =>
    log.warn('a job-ended listener failed', { err: error }),
  )
  const stores = await openStores({ config, tokenKey: keys.jobToken, jobEnded: jobEnded.notify })
  // Acts for a person while away: their watches look with it, the jobs the watches start run with it.
  const standing = standingAccess(stores.watches, backends.auth)
  // The one pool of worker threads: drawings, bills and project bills each in a lane of their own.
  const pool = createWorkPool({ workers: config.workers })
  const jobs = await startJobs({
    config,
    store: stores.jobs,
    contextForWatchJob: (userId) => standing.contextFor(userId),
    savedPricing: savedPricing(stores.rules),
    cloud: backends.cloud,
    access,
    pool,
    extractor: parts.extractor,
  })
  const rules = await startRules({
    store: stores.rules,
    jobs: stores.jobs,
    cloud: backends.cloud,
    access,
    bills: jobs.bills,
    heavy: jobs.heavy,
    extractor: jobs.extractor,
    maxFileBytes: config.maxFileBytes,
    exampleProject: parts.exampleProject,
  })
  const watches = startWatches({
    config,
    store: stores.watches,
    jobs: stores.jobs,
    standing,
    jobEnded,
    cloud: backends.cloud,
    access,
    source: backends.watchSource ?? localWatchSource(backends.cloud),
    eventRoutes: backends.watchEvents,
  })

  const projectBills = await startProjectBills({
    bills: stores.bills,
    jobs: stores.jobs,
    rules: stores.rules,
    cloud: backends.cloud,
    access,
    pool: billLane(pool, LANES.projectBills),
  })

  const app = new Hono()
  app.onError(errorResponse)
  app.notFound((c) => plain(c, 'Not found.', 404))

  app.use('*', requestLog())
  app.use('*', securityHeaders(config))
  app.use('/api/*', apiCors(config))
  app.use('*', xsrfCookie())
  // Autodesk's webhook deliveries carry no cookie: their HMAC signature is checked instead.
  app.use('/api/*', xsrfCheck(config, { signedPaths: [HOOK_EVENTS_PATH] }))

  app.route(
    '/api/aps/auth',
    authRoutes({
      config,
      provider: backends.auth,
      sessions,
      access,
      oauthKey: keys.oauth,
      // Only Autodesk's single-use refresh tokens need a sign-in of their own for watches.
      ...(backends.watchEvents ? { onStandingGrant: (grant) => watches.keepGrant(grant) } : {}),
    }),
  )
  app.route('/api/aps', cloudRoutes({ cloud: backends.cloud, access }))
  app.route('/api/boq', jobs.routes)
  app.route('/api/boq', rules.routes)
  app.route('/api/boq', watches.routes)
  app.route('/api/boq', projectBills.routes)
  app.route('/api/local', backends.localRoutes?.(access) ?? noLocalRoutes())
  // Fixed text: the path is the caller's to choose.
  app.all('/api/*', (c) => plain(c, 'Not found.', 404))

  app.use('*', staticFiles(config.distDir))
  return {
    app,
    async close() {
      // The watches first: they queue jobs the runner would take; the stores last.
      await watches.close()
      await jobs.close()
      await projectBills.close()
      await pool.close()
      await stores.close()
    },
  }
}
