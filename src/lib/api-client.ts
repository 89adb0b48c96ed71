import ky, { type KyInstance } from 'ky'
import { apiBaseUrl } from './config'
import { readCookie } from './cookies'

// Kept here too, for the modules that already have the client at hand.
export { apiUrl } from './config'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE'])

/** Ky's `context` for a GET that changes state: it carries X-XSRF-TOKEN like a POST. */
export const XSRF_CONTEXT = { xsrf: true }

/**
 * The app's one HTTP client. Paths are relative ('api/…') and resolve against the API base.
 * Cookies always go along; no timeout (extraction and big folders take their time);
 * retries belong to TanStack Query, so ky's are off.
 */
export function createApiClient(baseUrl: string): KyInstance {
  return ky.create({
    baseUrl,
    credentials: 'include',
    timeout: false,
    retry: 0,
    hooks: {
      beforeRequest: [
        ({ request, options }) => {
          // The anti-forgery cookie can only be read for our own origin; echo it on mutating calls
          // and on a GET that changes state, which asks with `context: XSRF_CONTEXT` (logout).
          if (SAFE_METHODS.has(request.method) && options.context.xsrf !== true) return
          if (new URL(request.url).origin !== window.location.origin) return
          const token = readCookie('XSRF-TOKEN')
          if (token) request.headers.set('X-XSRF-TOKEN', token)
        },
      ],
    },
  })
}

export const api: KyInstance = createApiClient(apiBaseUrl())
