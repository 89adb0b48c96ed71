import { Hono } from 'hono'
import type { CloudAccess } from '../auth/cloud-access.ts'
import type { CloudBackend, JsonApiResource } from '../cloud/types.ts'
import { AppError } from '../errors.ts'

/** /api/aps/hubs…: the browsing GETs of DESIGN §2, answered as whole JSON:API lists. */
export function cloudRoutes(deps: { cloud: CloudBackend; access: CloudAccess }): Hono {
  const { cloud, access } = deps
  const routes = new Hono()
  const list = (data: JsonApiResource[]) => ({ jsonapi: { version: '1.0' }, data })

  routes.use('*', async (c, next) => {
    await next()
    c.header('Cache-Control', 'private, no-store')
  })

  routes.get('/hubs', async (c) => c.json(list(await access.run(c, (ctx) => cloud.hubs(ctx)))))

  routes.get('/hubs/:hubId/projects', async (c) => {
    const { hubId } = c.req.param()
    return c.json(list(await access.run(c, (ctx) => cloud.projects(ctx, hubId))))
  })

  routes.get('/hubs/:hubId/projects/:projectId/contents', async (c) => {
    const { hubId, projectId } = c.req.param()
    const folderId = c.req.query('folder_id')
    if (folderId === '')
      throw new AppError(400, 'folder_id is empty: leave it out for the top folders.')
    return c.json(
      list(await access.run(c, (ctx) => cloud.contents(ctx, hubId, projectId, folderId))),
    )
  })

  routes.get('/hubs/:hubId/projects/:projectId/contents/:itemId/versions', async (c) => {
    const { hubId, projectId, itemId } = c.req.param()
    return c.json(list(await access.run(c, (ctx) => cloud.versions(ctx, hubId, projectId, itemId))))
  })

  return routes
}
