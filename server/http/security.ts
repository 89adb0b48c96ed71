import { timingSafeEqual } from 'node:crypto'
import type { Context, MiddlewareHandler } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { cors } from 'hono/cors'
import { secureHeaders } from 'hono/secure-headers'
import { isHttps, XSRF_COOKIE, XSRF_HEADER } from '../auth/cookies.ts'
import { randomToken } from '../auth/pkce.ts'
import type { Config } from '../config.ts'
import { AppError } from '../errors.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Headers on every answer (API, errors, the built app): no sniffing, no framing, no referrer, and a
 * Content-Security-Policy the built app lives within: its scripts and stylesheets are files of its
 * own (no inline code), images are its own, data: URLs (the local avatar) or https: (Autodesk's
 * profile picture; also APS_BASE_URL's origin, which is http: for the fake Autodesk), and it talks
 * only to its own origin.
 */
export function securityHeaders(config: Config): MiddlewareHandler {
  const images = ["'self'", 'data:', 'https:']
  const aps = config.aps ? new URL(config.aps.baseUrl) : undefined
  if (aps?.protocol === 'http:') images.push(aps.origin)
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: images,
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xFrameOptions: 'DENY',
    referrerPolicy: 'no-referrer',
  })
}

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
export function xsrfCheck(
  config: Config,
  options: {
    /** Paths called by another server, not a browser, whose requests prove themselves (signed). */
    signedPaths?: readonly string[]
  } = {},
): MiddlewareHandler {
  const allowed = new Set(config.corsOrigins)
  const signed = new Set(options.signedPaths ?? [])
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method) || signed.has(c.req.path)) return next()
    if (fromAllowedOrigin(c, allowed) || tokenMatches(c)) return next()
    if (fromOtherOrigin(c)) throw new AppError(403, OTHER_ORIGIN)
    throw new AppError(
      403,
      'Missing or wrong X-XSRF-TOKEN header: it must repeat the XSRF-TOKEN cookie. Reload the page and try again.',
    )
  }
}

/**
 * For a GET that changes state (logout): only the app itself may ask, so a link or an image on
 * another site cannot. Proof: the X-XSRF-TOKEN header repeating the cookie, the browser's own
 * `Sec-Fetch-Site: same-origin` (scripts cannot set it), or an Origin among BOQ_CORS_ORIGINS.
 */
export function appOnly(config: Config): MiddlewareHandler {
  const allowed = new Set(config.corsOrigins)
  return async (c, next) => {
    if (c.req.header('sec-fetch-site') === 'same-origin') return next()
    if (fromAllowedOrigin(c, allowed) || tokenMatches(c)) return next()
    if (fromOtherOrigin(c)) throw new AppError(403, OTHER_ORIGIN)
    throw new AppError(
      403,
      'Only the BOQ app can sign out: the request must carry the X-XSRF-TOKEN header or come from the same origin.',
    )
  }
}

// Fixed text: the Origin header is the caller's to choose, so it is not repeated back.
const OTHER_ORIGIN =
  'Requests from other origins are not allowed (an origin hosting the BOQ app goes in BOQ_CORS_ORIGINS).'

function fromAllowedOrigin(c: Context, allowed: Set<string>): boolean {
  const origin = c.req.header('origin')
  return origin !== undefined && allowed.has(origin)
}

function fromOtherOrigin(c: Context): boolean {
  const origin = c.req.header('origin')
  return origin !== undefined && origin !== 'null' && origin !== new URL(c.req.url).origin
}

function tokenMatches(c: Context): boolean {
  const cookie = getCookie(c, XSRF_COOKIE)
  const header = c.req.header(XSRF_HEADER)
  return Boolean(cookie && header && same(cookie, header))
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
