import { createHash } from 'node:crypto'
import type { AuthProvider, Tokens, UserProfile } from '../../auth/types.ts'
import type { ApsConfig } from '../../config.ts'
import { AppError, SessionExpiredError, TokenRejectedError } from '../../errors.ts'
import { INTERNAL_SCOPES, PUBLIC_SCOPES } from './scopes.ts'
import { createUpstream, type Upstream, type UpstreamOptions } from './upstream.ts'
import { badAnswer } from './upstream-errors.ts'

interface TokenAnswer {
  access_token?: unknown
  refresh_token?: unknown
  expires_in?: unknown
}

export interface ApsAuthOptions extends Omit<UpstreamOptions, 'baseUrl'> {
  /** How long a refresh result is reused for the same refresh token (concurrent requests). */
  refreshReuseMs?: number
}

/**
 * Autodesk sign-in (authorization code + PKCE S256, confidential client). The routes in
 * server/auth own state, verifier and cookies; this only talks to Autodesk.
 *
 * Public token: as Autodesk's hubs-browser sample, a second token request narrows the grant to
 * `viewables:read` through the refresh token, after every code exchange and every refresh;
 * Autodesk rotates refresh tokens, so the newest one (from that second answer) is kept.
 */
export function createApsAuthProvider(
  settings: ApsConfig,
  options: ApsAuthOptions = {},
): AuthProvider {
  const upstream: Upstream = createUpstream({ ...options, baseUrl: settings.baseUrl })
  const now = options.now ?? Date.now
  const basic = `Basic ${Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64')}`
  const reuseMs = options.refreshReuseMs ?? 30_000
  // Requests that arrive together with one expiring cookie must not burn the one-use refresh
  // token twice: the first refresh's result is shared with the others for a short while.
  const recentRefreshes = new Map<string, { at: number; result: Promise<Tokens> }>()
  let userinfoEndpoint: Promise<string> | undefined

  async function tokenRequest(form: Record<string, string>): Promise<Tokens> {
    const answer = await upstream.json<TokenAnswer>(upstream.url('/authentication/v2/token'), {
      method: 'POST',
      headers: {
        authorization: basic,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams(form).toString(),
    })
    if (typeof answer.access_token !== 'string' || typeof answer.expires_in !== 'number') {
      throw badAnswer('a token')
    }
    return {
      accessToken: answer.access_token,
      refreshToken: typeof answer.refresh_token === 'string' ? answer.refresh_token : undefined,
      expiresAt: now() + answer.expires_in * 1000,
    }
  }

  /** Adds the narrowed public token; keeps the newest refresh token. */
  async function withPublicToken(tokens: Tokens): Promise<Tokens> {
    if (!tokens.refreshToken) throw badAnswer('tokens without a refresh token')
    const narrow = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.refreshToken,
      scope: PUBLIC_SCOPES,
    })
    return {
      ...tokens,
      refreshToken: narrow.refreshToken ?? tokens.refreshToken,
      publicToken: { accessToken: narrow.accessToken, expiresAt: narrow.expiresAt },
    }
  }

  async function doRefresh(refreshToken: string): Promise<Tokens> {
    try {
      const fresh = await tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        scope: INTERNAL_SCOPES,
      })
      return await withPublicToken({ ...fresh, refreshToken: fresh.refreshToken ?? refreshToken })
    } catch (error) {
      // 400 invalid_grant (expired, revoked, used), 401/403 (client refused): sign in again.
      if (error instanceof AppError && [400, 401, 403].includes(error.status)) {
        throw new SessionExpiredError(undefined, { cause: error })
      }
      throw error
    }
  }

  async function discoverUserinfo(): Promise<string> {
    const doc = await upstream.json<{ userinfo_endpoint?: unknown }>(
      upstream.url('/.well-known/openid-configuration'),
    )
    if (typeof doc.userinfo_endpoint !== 'string' || !URL.canParse(doc.userinfo_endpoint)) {
      throw badAnswer('an OpenID configuration')
    }
    const url = new URL(doc.userinfo_endpoint)
    if (url.protocol !== 'https:' && url.origin !== new URL(upstream.baseUrl).origin) {
      throw badAnswer('an OpenID configuration')
    }
    return url.toString()
  }

  return {
    async authorizeUrl({ state, codeChallenge }) {
      // redirect_uri is always the registered APS_CALLBACK_URL: Autodesk refuses any other.
      return upstream.url('/authentication/v2/authorize', {
        response_type: 'code',
        client_id: settings.clientId,
        redirect_uri: settings.callbackUrl,
        scope: INTERNAL_SCOPES,
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      })
    },

    async exchangeCode({ code, codeVerifier }) {
      let tokens: Tokens
      try {
        tokens = await tokenRequest({
          grant_type: 'authorization_code',
          code,
          redirect_uri: settings.callbackUrl,
          code_verifier: codeVerifier,
        })
      } catch (error) {
        if (error instanceof AppError && error.status === 401) {
          throw new AppError(
            502,
            'Autodesk refused this app (check APS_CLIENT_ID and APS_CLIENT_SECRET).',
            { cause: error },
          )
        }
        if (error instanceof AppError && error.status === 400) {
          throw new AppError(400, 'Autodesk refused the sign-in code. Please sign in again.', {
            cause: error,
          })
        }
        throw error
      }
      return withPublicToken(tokens)
    },

    async refresh(tokens) {
      if (!tokens.refreshToken) throw new SessionExpiredError()
      const key = createHash('sha256').update(tokens.refreshToken).digest('base64url')
      for (const [k, entry] of recentRefreshes) {
        if (now() - entry.at > reuseMs) recentRefreshes.delete(k)
      }
      const recent = recentRefreshes.get(key)
      if (recent) return recent.result
      const result = doRefresh(tokens.refreshToken)
      recentRefreshes.set(key, { at: now(), result })
      result.catch(() => recentRefreshes.delete(key))
      return result
    },

    async profile(tokens): Promise<UserProfile> {
      userinfoEndpoint ??= discoverUserinfo()
      userinfoEndpoint.catch(() => {
        userinfoEndpoint = undefined
      })
      const info = await upstream.json<Record<string, unknown>>(await userinfoEndpoint, {
        accessToken: tokens.accessToken,
        anyOrigin: true,
      })
      if (typeof info.sub !== 'string' || info.sub === '') throw badAnswer('a user profile')
      return {
        userId: info.sub,
        name: typeof info.name === 'string' ? info.name : '',
        picture: typeof info.picture === 'string' ? info.picture : '',
      }
    },

    async publicToken(tokens) {
      const token = tokens.publicToken
      // Missing or expired: the session layer refreshes (which issues a new one) and retries.
      if (!token || token.expiresAt <= now())
        throw new TokenRejectedError('The public token has expired.')
      return {
        access_token: token.accessToken,
        expires_in: Math.max(0, Math.floor((token.expiresAt - now()) / 1000)),
      }
    },
  }
}
