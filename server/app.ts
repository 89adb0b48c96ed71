import { Hono } from 'hono'
import { createCloudAccess } from './auth/cloud-access.ts'
import { authRoutes } from './auth/routes.ts'
import { getSecretKeys } from './auth/secret-keys.ts'
import { createSessionStore } from './auth/session.ts'
import { type Backends, createBackends } from './backends.ts'
import type { Config } from './config.ts'
import { cloudRoutes } from './http/cloud-routes.ts'
import { errorResponse, plain } from './http/errors.ts'
import { apiCors, xsrfCheck, xsrfCookie } from './http/security.ts'
import { staticFiles } from './http/static-files.ts'
import { mountJobs } from './jobs/mount.ts'

export interface CreateAppOptions {
  /** Replaces the back ends createBackends(config) would pick (tests). */
  backends?: Backends
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
  const sessions = createSessionStore(async () => (await keys()).session)
  const access = createCloudAccess(sessions, backends.auth)

  const app = new Hono()
  app.onError(errorResponse)
  app.notFound((c) => plain(c, 'Not found.', 404))

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
  app.all('/api/*', (c) => plain(c, `Not found: ${c.req.method} ${c.req.path}`, 404))

  app.use('*', staticFiles(config.distDir))
  return app
}
