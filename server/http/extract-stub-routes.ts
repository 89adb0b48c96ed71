import { Hono } from 'hono'
import type { CloudAccess } from '../auth/cloud-access.ts'
import { AppError } from '../errors.ts'
import { parseExtractRequest } from './extract-request.ts'

/**
 * TEMPORARY (issue 2): POST /api/boq/extract validates its body and answers 501 until the
 * extraction jobs (server/jobs, issue 4) replace this file's route.
 */
export function extractStubRoutes(deps: { access: CloudAccess }): Hono {
  const routes = new Hono()
  routes.post('/extract', async (c) => {
    await deps.access.session(c)
    parseExtractRequest(await c.req.text())
    throw new AppError(501, 'Extraction is not available yet')
  })
  return routes
}
