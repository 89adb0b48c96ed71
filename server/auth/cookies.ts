import type { Context } from 'hono'
import type { CookieOptions } from 'hono/utils/cookie'

export const SESSION_COOKIE = 'boq_session'
export const OAUTH_COOKIE = 'boq_oauth'
export const XSRF_COOKIE = 'XSRF-TOKEN'
export const XSRF_HEADER = 'X-XSRF-TOKEN'

/** Secure when the request reached us (or the proxy in front of us) over https. */
export function isHttps(c: Context): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true
  return c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https'
}

/** httpOnly, SameSite=Lax, Secure over https. */
export function privateCookie(c: Context, options: CookieOptions = {}): CookieOptions {
  return { path: '/', httpOnly: true, sameSite: 'Lax', secure: isHttps(c), ...options }
}
