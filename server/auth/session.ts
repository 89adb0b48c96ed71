import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { privateCookie, SESSION_COOKIE } from './cookies.ts'
import { seal, unseal } from './sealed.ts'
import type { Session } from './types.ts'

/** How long a session lasts without use of its refresh token (Autodesk's refresh tokens last 15 days). */
export const SESSION_MAX_AGE_SECONDS = 14 * 24 * 60 * 60

/** The session lives only in its encrypted cookie: nothing is kept on the server. */
export interface SessionStore {
  read(c: Context): Promise<Session | undefined>
  write(c: Context, session: Session): Promise<void>
  clear(c: Context): void
}

export function createSessionStore(key: () => Promise<Uint8Array>): SessionStore {
  return {
    async read(c) {
      const session = await unseal<Session>(getCookie(c, SESSION_COOKIE), await key())
      return isSession(session) ? session : undefined
    },
    async write(c, session) {
      const value = await seal(session, await key(), SESSION_MAX_AGE_SECONDS)
      setCookie(c, SESSION_COOKIE, value, privateCookie(c, { maxAge: SESSION_MAX_AGE_SECONDS }))
    },
    clear(c) {
      deleteCookie(c, SESSION_COOKIE, privateCookie(c))
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
