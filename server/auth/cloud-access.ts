import type { Context } from 'hono'
import { SessionExpiredError, TokenRejectedError } from '../errors.ts'
import type { SessionStore } from './session.ts'
import type { AuthProvider, CloudContext, Session, Tokens } from './types.ts'

/** Refresh this long before the access token expires, so a call never starts with a dying token. */
export const REFRESH_MARGIN_MS = 2 * 60 * 1000

/**
 * The one way routes reach the signed-in user's cloud. Answers 401 (SessionExpiredError) without a
 * session or when a refresh is refused (which ends the session for good); rewrites the cookie
 * whenever the tokens change.
 */
export interface CloudAccess {
  /** The session, its tokens refreshed first when they expire within REFRESH_MARGIN_MS. */
  session(c: Context): Promise<Session>
  /** Runs `fn` with the user's CloudContext; on TokenRejectedError refreshes once and retries once. */
  run<T>(c: Context, fn: (ctx: CloudContext) => Promise<T>): Promise<T>
}

/** How a route runs its work in the signed-in user's cloud: CloudAccess.run, handed to it. */
export type WithCloud = CloudAccess['run']

export function createCloudAccess(sessions: SessionStore, provider: AuthProvider): CloudAccess {
  // Autodesk refresh tokens are single-use: requests that arrive together with the same old cookie
  // share one refresh instead of racing (the loser's refresh would be refused).
  const pending = new Map<string, Promise<Tokens>>()

  async function refresh(c: Context, session: Session): Promise<Session> {
    // Keyed by both tokens: the same old cookie shares one refresh; the refreshed one starts its own.
    const key = `${session.tokens.accessToken}\0${session.tokens.refreshToken ?? ''}`
    let refreshing = pending.get(key)
    if (!refreshing) {
      refreshing = provider.refresh(session.tokens)
      pending.set(key, refreshing)
      // Keep the result a little while for requests still in flight with the old cookie.
      const forget = () => setTimeout(() => pending.delete(key), 30_000).unref()
      refreshing.then(forget, forget)
    }
    let tokens: Tokens
    try {
      tokens = await refreshing
    } catch (error) {
      // The provider ended the session: revoke it, so no other copy of the cookie tries again.
      if (error instanceof SessionExpiredError) await sessions.end(c, session)
      throw error
    }
    // Keep the newest refresh token; a provider may answer without one.
    const next: Session = {
      ...session,
      tokens: { ...tokens, refreshToken: tokens.refreshToken ?? session.tokens.refreshToken },
    }
    await sessions.write(c, next)
    return next
  }

  async function current(c: Context): Promise<Session> {
    const session = await sessions.read(c)
    if (!session) throw new SessionExpiredError('You are not signed in.')
    if (session.tokens.expiresAt - Date.now() > REFRESH_MARGIN_MS) return session
    return refresh(c, session)
  }

  return {
    session: current,
    async run(c, fn) {
      let session = await current(c)
      try {
        return await fn({ user: session.user, accessToken: session.tokens.accessToken })
      } catch (error) {
        if (!(error instanceof TokenRejectedError)) throw error
      }
      session = await refresh(c, session)
      try {
        return await fn({ user: session.user, accessToken: session.tokens.accessToken })
      } catch (error) {
        if (!(error instanceof TokenRejectedError)) throw error
        await sessions.end(c, session)
        throw new SessionExpiredError(undefined, { cause: error })
      }
    },
  }
}
