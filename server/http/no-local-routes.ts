import { Hono } from 'hono'
import { uploadAvailability } from '../cloud/local/upload-routes.ts'

/**
 * What /api/local answers when the back end has no routes of its own there (Autodesk mode): GET
 * /upload says uploads are not available, so that the app, which asks once, offers none and the
 * browser logs no failed request; anything else is not found.
 */
export function noLocalRoutes(): Hono {
  const routes = new Hono()
  routes.get('/upload', uploadAvailability(false))
  return routes
}
