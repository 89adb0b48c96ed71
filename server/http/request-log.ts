import type { MiddlewareHandler } from 'hono'
import { type Logger, log } from '../log.ts'

/**
 * One `request` line per answer: method, path (never the query, which may carry codes and
 * ids), status and time in ms. Outermost, so it also times errors and the built app's files.
 */
export function requestLog(logger: Logger = log): MiddlewareHandler {
  return async (c, next) => {
    if (!logger.enabled('info')) return next()
    const start = performance.now()
    await next()
    const ms = Math.round((performance.now() - start) * 10) / 10
    logger.info('request', { method: c.req.method, path: c.req.path, status: c.res.status, ms })
  }
}
