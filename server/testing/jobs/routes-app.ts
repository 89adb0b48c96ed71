import { Hono } from 'hono'
import { AppError } from '../../errors.ts'
import { errorResponse } from '../../http/errors.ts'
import { geometryBuilds } from '../../jobs/geometry-builds.ts'
import { perUserLimit } from '../../jobs/per-user-limit.ts'
import { type JobsRoutesOptions, jobsRoutes } from '../../jobs/routes.ts'
import { testBillPool } from './bill-pool.ts'
import { contextFor, createFakeExtractor } from './fakes.ts'

/**
 * The jobs routes on their own, in process, under /api/boq: the user is the one the `x-user`
 * header names (401 without it), and errors are answered as the server answers them. The same
 * behaviour over real HTTP, with real sign-in and anti-forgery, is what the *.http tests check.
 */
export function jobsRoutesApp(
  options: Omit<JobsRoutesOptions, 'withCloud' | 'bills' | 'heavy' | 'geometries'> &
    Partial<Pick<JobsRoutesOptions, 'bills' | 'heavy' | 'geometries'>>,
): Hono {
  const app = new Hono()
  app.onError(errorResponse)
  app.route(
    '/api/boq',
    jobsRoutes({
      ...options,
      bills: options.bills ?? testBillPool(),
      heavy: options.heavy ?? perUserLimit(2),
      geometries:
        options.geometries ??
        geometryBuilds({
          store: options.store,
          cloud: options.cloud,
          extractor: createFakeExtractor().extractor,
          maxFileBytes: options.maxFileBytes,
        }),
      withCloud: async (c, fn) => {
        const user = c.req.header('x-user')
        if (!user) throw new AppError(401, 'You are not signed in.')
        return fn(contextFor(user))
      },
    }),
  )
  return app
}
