import { plainGet } from '../../../lib/plain-get'
import { fetchUrlAnswer } from '../../../lib/url-answer'

// The auth calls made before anyone is known to be signed in, with plain fetch rather than ky:
// a visitor sent to /login downloads neither the HTTP client nor Query.

/** Resolves when a session exists; rejects with an HTTP error (401 when signed out). */
export async function checkToken(): Promise<void> {
  await plainGet('api/aps/auth/token')
}

/**
 * The sign-in URL, after which the server sends the browser to `returnTo` (or '/'). The server
 * answers it as plain text or as a JSON string.
 */
export function fetchLoginUrl(returnTo?: string): Promise<string> {
  const query = returnTo ? `?${new URLSearchParams({ returnTo })}` : ''
  return fetchUrlAnswer(`api/aps/auth/login${query}`)
}
