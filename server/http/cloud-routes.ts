import { Hono } from 'hono'
import type { CloudAccess } from '../auth/cloud-access.ts'
import type { CloudBackend } from '../cloud/types.ts'
import { AppError } from '../errors.ts'

/**
 * /api/aps/hubs…: the browsing GETs, each answered as a whole list: a bare JSON array of JSON:API
 * resource objects (contract/cloud.ts), as the backends give them.
 */
export function cloudRoutes(deps: { cloud: CloudBackend; access: CloudAccess }): Hono {
  const { cloud, access } = deps
  const routes = new Hono()

  routes.use('*', async (c, next) => {
    await next()
    c.header('Cache-Control', 'private, no-store')
  })

  routes.get('/hubs', async (c) => c.json(await access.run(c, (ctx) => cloud.hubs(ctx))))

  routes.get('/hubs/:hubId/projects', async (c) => {
    const { hubId } = c.req.param()
    return c.json(await access.run(c, (ctx) => cloud.projects(ctx, hubId)))
  })

  routes.get('/hubs/:hubId/projects/:projectId/contents', async (c) => {
    const { hubId, projectId } = c.req.param()
    const folderId = c.req.query('folder_id')
    if (folderId === '')
      throw new AppError(400, 'folder_id is empty: leave it out for the top folders.')
    return c.json(await access.run(c, (ctx) => cloud.contents(ctx, hubId, projectId, folderId)))
  })

  routes.get('/hubs/:hubId/projects/:projectId/contents/:itemId/versions', async (c) => {
    const { hubId, projectId, itemId } = c.req.param()
    return c.json(await access.run(c, (ctx) => cloud.versions(ctx, hubId, projectId, itemId)))
  })

  return routes
}
