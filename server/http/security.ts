import { timingSafeEqual } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { cors } from 'hono/cors'
import { isHttps, XSRF_COOKIE, XSRF_HEADER } from '../auth/cookies.ts'
import { randomToken } from '../auth/pkce.ts'
import type { Config } from '../config.ts'
import { AppError } from '../errors.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** CORS with credentials for the BOQ_CORS_ORIGINS only; every other origin gets no CORS headers. */
export function apiCors(config: Config): MiddlewareHandler {
  const allowed = new Set(config.corsOrigins)
  const handler = cors({
    origin: (origin) => (allowed.has(origin) ? origin : null),
    credentials: true,
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ['Content-Type', XSRF_HEADER],
    maxAge: 600,
  })
  return async (c, next) => {
    const origin = c.req.header('origin')
    if (origin && allowed.has(origin)) return handler(c, next)
    // Answers differ by Origin: caches must keep them apart.
    if (allowed.size > 0) c.header('Vary', 'Origin', { append: true })
    return next()
  }
}

/** Gives every browser an anti-forgery token in a cookie its scripts can read. */
export function xsrfCookie(): MiddlewareHandler {
  return async (c, next) => {
    if (!getCookie(c, XSRF_COOKIE)) {
      setCookie(c, XSRF_COOKIE, randomToken(), { path: '/', sameSite: 'Lax', secure: isHttps(c) })
    }
    await next()
  }
}

/**
 * Refuses a mutating call unless its X-XSRF-TOKEN header matches the XSRF-TOKEN cookie; a call from
 * an allowed other origin (which cannot read that cookie) is let through on its Origin header.
 */
export function xsrfCheck(config: Config): MiddlewareHandler {
  const allowed = new Set(config.corsOrigins)
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next()
    const origin = c.req.header('origin')
    if (origin && allowed.has(origin)) return next()
    const cookie = getCookie(c, XSRF_COOKIE)
    const header = c.req.header(XSRF_HEADER)
    if (!cookie || !header || !same(cookie, header)) {
      const self = new URL(c.req.url).origin
      if (origin && origin !== self && origin !== 'null') {
        throw new AppError(403, `Requests from ${origin} are not allowed.`)
      }
      throw new AppError(
        403,
        'Missing or wrong X-XSRF-TOKEN header: it must repeat the XSRF-TOKEN cookie. Reload the page and try again.',
      )
    }
    return next()
  }
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
