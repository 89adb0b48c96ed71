import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { privateCookie, SESSION_COOKIE } from './cookies.ts'
import { randomToken } from './pkce.ts'
import type { SessionRevocations } from './revocations.ts'
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

/**
 * The session lives in its encrypted cookie; the server keeps only the ids of ended sessions, so
 * a copy of the cookie kept from before a logout does not work after it.
 */
export interface SessionStore {
  /** The cookie's session; undefined when missing, invalid or ended (its cookie is then removed). */
  read(c: Context): Promise<Session | undefined>
  write(c: Context, session: Session): Promise<void>
  /** Ends the session for good (its id is revoked) and removes its cookie. */
  end(c: Context, session: Session | undefined): Promise<void>
}

/** A new session's random id, kept inside the sealed cookie. */
export function newSessionId(): string {
  return randomToken(18)
}

const chunkName = (index: number) => (index === 0 ? SESSION_COOKIE : `${SESSION_COOKIE}.${index}`)

export function createSessionStore(key: Uint8Array, revocations: SessionRevocations): SessionStore {
  return {
    async read(c) {
      const cookies = getCookie(c)
      let sealed = ''
      for (let i = 0; i < MAX_CHUNKS; i += 1) {
        const part = cookies[chunkName(i)]
        if (part === undefined) break
        sealed += part
      }
      const session = await unseal<Session>(sealed, key)
      if (!isSession(session)) return undefined
      if (await revocations.isRevoked(session.id)) {
        clear(c)
        return undefined
      }
      return session
    },
    async write(c, session) {
      const sealed = await seal(session, key, SESSION_MAX_AGE_SECONDS)
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
    async end(c, session) {
      // Any cookie of this session, the newest included, expires within the maximum age from now.
      if (session) await revocations.revoke(session.id, Date.now() + SESSION_MAX_AGE_SECONDS * 1000)
      clear(c)
    },
  }
}

function clear(c: Context): void {
  const cookies = getCookie(c)
  deleteCookie(c, SESSION_COOKIE, privateCookie(c))
  for (let i = 1; i < MAX_CHUNKS; i += 1) {
    if (cookies[chunkName(i)] !== undefined) deleteCookie(c, chunkName(i), privateCookie(c))
  }
}

function isSession(value: unknown): value is Session {
  const s = value as Session | undefined
  return (
    typeof s?.id === 'string' &&
    typeof s.user?.userId === 'string' &&
    typeof s.user.name === 'string' &&
    typeof s.tokens?.accessToken === 'string' &&
    typeof s.tokens.expiresAt === 'number'
  )
}
