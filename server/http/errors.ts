import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { AppError } from '../errors.ts'

/**
 * The one place where errors become answers: status + a short text/plain body a person can read.
 * AppError keeps its status and message; anything else is logged and answers 500 "Internal error".
 */
export function errorResponse(error: unknown, c: Context): Response {
  if (error instanceof AppError) return plain(c, error.message, error.status)
  if (error instanceof HTTPException && error.status < 500) {
    return plain(c, error.message || 'Bad request.', error.status)
  }
  console.error(`${c.req.method} ${c.req.path} failed:`, error)
  return plain(c, 'Internal error', 500)
}

export function plain(c: Context, text: string, status: number): Response {
  c.header('Cache-Control', 'no-store')
  return c.text(text, status as 400)
}
