import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { privateCookie, SESSION_COOKIE } from './cookies.ts'
import { seal, unseal } from './sealed.ts'
import type { Session } from './types.ts'

/** How long a session lasts without use of its refresh token (Autodesk's refresh tokens last 15 days). */
export const SESSION_MAX_AGE_SECONDS = 14 * 24 * 60 * 60

/**
 * Browsers keep about 4 KB per cookie; Autodesk's tokens are about 1 KB each and a session holds
 * up to three. A longer sealed value is split over `boq_session`, `boq_session.1`, `boq_session.2`…
 */
export const COOKIE_CHUNK = 3800
const MAX_CHUNKS = 6

/** The session lives only in its encrypted cookie: nothing is kept on the server. */
export interface SessionStore {
  read(c: Context): Promise<Session | undefined>
  write(c: Context, session: Session): Promise<void>
  clear(c: Context): void
}

const chunkName = (index: number) => (index === 0 ? SESSION_COOKIE : `${SESSION_COOKIE}.${index}`)

export function createSessionStore(key: () => Promise<Uint8Array>): SessionStore {
  return {
    async read(c) {
      const cookies = getCookie(c)
      let sealed = ''
      for (let i = 0; i < MAX_CHUNKS; i += 1) {
        const part = cookies[chunkName(i)]
        if (part === undefined) break
        sealed += part
      }
      const session = await unseal<Session>(sealed, await key())
      return isSession(session) ? session : undefined
    },
    async write(c, session) {
      const sealed = await seal(session, await key(), SESSION_MAX_AGE_SECONDS)
      const count = Math.ceil(sealed.length / COOKIE_CHUNK)
      if (count > MAX_CHUNKS)
        throw new Error(`The session is too large for cookies (${sealed.length} characters).`)
      const options = privateCookie(c, { maxAge: SESSION_MAX_AGE_SECONDS })
      for (let i = 0; i < count; i += 1) {
        setCookie(c, chunkName(i), sealed.slice(i * COOKIE_CHUNK, (i + 1) * COOKIE_CHUNK), options)
      }
      // Chunks left from a longer session would corrupt the value: remove them.
      const cookies = getCookie(c)
      for (let i = count; i < MAX_CHUNKS; i += 1) {
        if (cookies[chunkName(i)] !== undefined) deleteCookie(c, chunkName(i), privateCookie(c))
      }
    },
    clear(c) {
      const cookies = getCookie(c)
      deleteCookie(c, SESSION_COOKIE, privateCookie(c))
      for (let i = 1; i < MAX_CHUNKS; i += 1) {
        if (cookies[chunkName(i)] !== undefined) deleteCookie(c, chunkName(i), privateCookie(c))
      }
    },
  }
}

function isSession(value: unknown): value is Session {
  const s = value as Session | undefined
  return (
    typeof s?.user?.userId === 'string' &&
    typeof s.user.name === 'string' &&
    typeof s.tokens?.accessToken === 'string' &&
    typeof s.tokens.expiresAt === 'number'
  )
}
