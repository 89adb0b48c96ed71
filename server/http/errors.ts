import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { AppError, BusyError } from '../errors.ts'
import { databaseUnreachable } from '../lib/pg/unreachable.ts'
import { log } from '../log.ts'

/**
 * The one place where errors become answers: status + a short text/plain body a person can read.
 * AppError keeps its status and message; a job database out of reach answers 503 (it is back in
 * a moment, as a rule); anything else is logged and answers 500 "Internal error".
 */
export function errorResponse(error: unknown, c: Context): Response {
  if (error instanceof BusyError) c.header('Retry-After', String(error.retryAfterSeconds))
  if (error instanceof AppError) return plain(c, error.message, error.status)
  if (error instanceof HTTPException && error.status < 500) {
    return plain(c, error.message || 'Bad request.', error.status)
  }
  if (databaseUnreachable(error)) {
    log.warn('request failed: the job database cannot be reached', { path: c.req.path })
    c.header('Retry-After', '5')
    return plain(c, 'The job database cannot be reached just now. Try again in a moment.', 503)
  }
  log.error('request failed', { method: c.req.method, path: c.req.path, err: error })
  return plain(c, 'Internal error', 500)
}

export function plain(c: Context, text: string, status: number): Response {
  c.header('Cache-Control', 'no-store')
  return c.text(text, status as 400)
}
