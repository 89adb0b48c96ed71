import { Hono } from 'hono'
import { createCloudAccess } from './auth/cloud-access.ts'
import { createFileRevocations, type SessionRevocations } from './auth/revocations.ts'
import { authRoutes } from './auth/routes.ts'
import { getSecretKeys } from './auth/secret-keys.ts'
import { createSessionStore } from './auth/session.ts'
import { type Backends, createBackends } from './backends.ts'
import { readMaxFileBytes } from './boq/limits.ts'
import { uploadRoutes } from './cloud/local/upload-routes.ts'
import type { Config } from './config.ts'
import { cloudRoutes } from './http/cloud-routes.ts'
import { errorResponse, plain } from './http/errors.ts'
import { requestLog } from './http/request-log.ts'
import { apiCors, securityHeaders, xsrfCheck, xsrfCookie } from './http/security.ts'
import { staticFiles } from './http/static-files.ts'
import { mountJobs } from './jobs/mount.ts'

export interface CreateAppOptions {
  /** Replaces the back ends createBackends(config) would pick (tests). */
  backends?: Backends
  /** Replaces the file store of ended sessions (a store shared by several processes). */
  revocations?: SessionRevocations
}

const closers = new WeakMap<Hono, () => Promise<void>>()

/** Stops what an app runs beside its requests (the jobs runner and store): on shutdown, after tests. */
export async function closeApp(app: Hono): Promise<void> {
  await closers.get(app)?.()
}

/** The whole server: API under /api, the built app everywhere else. */
export function createApp(config: Config, options: CreateAppOptions = {}): Hono {
  const backends = options.backends ?? createBackends(config)
  const keys = () => getSecretKeys(config)
  const revocations = options.revocations ?? createFileRevocations(config.dataDir)
  const sessions = createSessionStore(async () => (await keys()).session, revocations)
  const access = createCloudAccess(sessions, backends.auth)

  const app = new Hono()
  app.onError(errorResponse)
  app.notFound((c) => plain(c, 'Not found.', 404))

  app.use('*', requestLog())
  app.use('*', securityHeaders(config))
  app.use('/api/*', apiCors(config))
  app.use('*', xsrfCookie())
  app.use('/api/*', xsrfCheck(config))

  app.route(
    '/api/aps/auth',
    authRoutes({
      config,
      provider: backends.auth,
      sessions,
      access,
      oauthKey: async () => (await keys()).oauth,
    }),
  )
  app.route('/api/aps', cloudRoutes({ cloud: backends.cloud, access }))
  const jobs = mountJobs(app, { config, cloud: backends.cloud, access })
  closers.set(app, () => jobs.close())
  app.route('/api/local', uploadRoutes(backends.cloud, access, readMaxFileBytes(process.env)))
  // Fixed text: the path is the caller's to choose.
  app.all('/api/*', (c) => plain(c, 'Not found.', 404))

  app.use('*', staticFiles(config.distDir))
  return app
}
