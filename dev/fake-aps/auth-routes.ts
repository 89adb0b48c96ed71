import type { Hono } from 'hono'
import { bearer, type FakeContext, unauthorized } from './context.ts'
import { fakeToken } from './ids.ts'
import { sha256Base64Url } from './state.ts'

const KNOWN_SCOPES = new Set([
  'data:read',
  'data:write',
  'data:create',
  'data:search',
  'viewables:read',
  'user-profile:read',
  'user:read',
  'openid',
  'account:read',
  'bucket:read',
  'bucket:create',
])
/** Narrower scopes a grant covers (a data:read grant also covers viewables:read). */
const IMPLIED: Record<string, string[]> = {
  'data:read': ['viewables:read'],
  'data:write': ['data:read', 'viewables:read'],
  'data:create': [],
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
const AUTHORIZE_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'nonce',
  'prompt',
]

/** authorize (login page), token (authorization_code, refresh_token), discovery, userinfo. */
export function registerAuthRoutes(app: Hono, ctx: FakeContext): void {
  const { state, client } = ctx

  function checkAuthorize(params: Record<string, string | undefined>): string | undefined {
    if (params.client_id !== client.clientId) return 'Unknown client_id.'
    if (params.response_type !== 'code') return 'response_type must be code.'
    const redirect = params.redirect_uri ?? ''
    if (!URL.canParse(redirect)) return 'redirect_uri is missing or not a URL.'
    if (client.callbackUrls.length > 0 && !client.callbackUrls.includes(redirect)) {
      return 'redirect_uri does not match the callback URL registered for this app.'
    }
    const scopes = (params.scope ?? '').split(' ').filter(Boolean)
    if (scopes.length === 0 || scopes.some((s) => !KNOWN_SCOPES.has(s)))
      return 'scope is missing or unknown.'
    if (params.code_challenge && params.code_challenge_method !== 'S256')
      return 'code_challenge_method must be S256.'
    if (params.state && !/^[A-Za-z0-9,._-]+$/.test(params.state))
      return 'state may only hold letters, digits, commas, periods, underscores and hyphens.'
    return undefined
  }

  app.get('/authentication/v2/authorize', (c) => {
    const params = Object.fromEntries(AUTHORIZE_PARAMS.map((k) => [k, c.req.query(k)]))
    const problem = checkAuthorize(params)
    if (problem) return c.text(problem, 400)
    const hidden = AUTHORIZE_PARAMS.filter((k) => params[k] !== undefined)
      .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(params[k] ?? '')}">`)
      .join('')
    return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Sign in - Autodesk (fake)</title></head>
<body><main>
<h1>Autodesk sign-in (fake)</h1>
<p>An app wants to read and write your Autodesk Construction Cloud data (${escapeHtml(params.scope ?? '')}).</p>
<form method="post" action="/authentication/v2/authorize">${hidden}
<p>Signed in as ${escapeHtml(state.user.name)} (${escapeHtml(state.user.email)})</p>
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form></main></body></html>`)
  })

  app.post('/authentication/v2/authorize', async (c) => {
    const form = await c.req.parseBody()
    const params = Object.fromEntries(
      AUTHORIZE_PARAMS.map((k) => [
        k,
        typeof form[k] === 'string' ? (form[k] as string) : undefined,
      ]),
    )
    const problem = checkAuthorize(params)
    if (problem) return c.text(problem, 400)
    const target = new URL(params.redirect_uri ?? '')
    if (params.state !== undefined) target.searchParams.set('state', params.state)
    if (form.decision !== 'allow') {
      target.searchParams.set('error', 'access_denied')
      return c.redirect(target.toString(), 302)
    }
    const code = fakeToken('rt')
    state.codes.set(code, {
      userId: state.user.id,
      clientId: client.clientId,
      redirectUri: params.redirect_uri ?? '',
      scope: (params.scope ?? '').split(' ').filter(Boolean),
      codeChallenge: params.code_challenge,
      codeChallengeMethod: params.code_challenge_method,
      expiresAt: Date.now() + 5 * 60_000,
      used: false,
    })
    target.searchParams.set('code', code)
    return c.redirect(target.toString(), 302)
  })

  app.post('/authentication/v2/token', async (c) => {
    const oauthError = (status: number, error: string, description: string) =>
      c.json({ error, error_description: description }, status as 400)
    const header = c.req.header('authorization') ?? ''
    const [id, secret] = header.startsWith('Basic ')
      ? Buffer.from(header.slice(6), 'base64').toString().split(':')
      : []
    if (id !== client.clientId || secret !== client.clientSecret) {
      return oauthError(
        401,
        'invalid_client',
        'The client credentials are invalid (HTTP Basic with the client id and secret).',
      )
    }
    if (!(c.req.header('content-type') ?? '').startsWith('application/x-www-form-urlencoded')) {
      return oauthError(400, 'invalid_request', 'The body must be form-encoded.')
    }
    const form = await c.req.parseBody()
    const field = (k: string) => (typeof form[k] === 'string' ? (form[k] as string) : undefined)
    const answer = (tokens: { accessToken: string; refreshToken: string; expiresIn: number }) =>
      c.json({
        access_token: tokens.accessToken,
        token_type: 'Bearer',
        expires_in: tokens.expiresIn,
        refresh_token: tokens.refreshToken,
      })

    if (field('grant_type') === 'authorization_code') {
      const code = state.codes.get(field('code') ?? '')
      if (!code || code.used || code.expiresAt <= Date.now() || code.clientId !== id) {
        return oauthError(400, 'invalid_grant', 'The authorization code is invalid or expired.')
      }
      code.used = true
      if (field('redirect_uri') !== code.redirectUri) {
        return oauthError(
          400,
          'invalid_grant',
          'redirect_uri does not match the one of the authorization request.',
        )
      }
      if (code.codeChallenge) {
        const verifier = field('code_verifier')
        if (
          !verifier ||
          !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) ||
          sha256Base64Url(verifier) !== code.codeChallenge
        ) {
          return oauthError(
            400,
            'invalid_grant',
            'The code verifier does not match the code challenge.',
          )
        }
      }
      return answer(state.issueTokens(code.userId, id, code.scope, code.scope))
    }

    if (field('grant_type') === 'refresh_token') {
      const grant = state.refreshTokens.get(field('refresh_token') ?? '')
      if (!grant || grant.used || grant.revoked || grant.clientId !== id) {
        return oauthError(
          400,
          'invalid_grant',
          'The refresh token is invalid, used, revoked or expired.',
        )
      }
      const covered = new Set(grant.grantedScope.flatMap((s) => [s, ...(IMPLIED[s] ?? [])]))
      const wanted = (field('scope') ?? grant.grantedScope.join(' ')).split(' ').filter(Boolean)
      if (wanted.some((s) => !covered.has(s))) {
        return oauthError(
          400,
          'invalid_scope',
          'A refresh can only narrow the scopes the user granted.',
        )
      }
      grant.used = true
      return answer(state.issueTokens(grant.userId, id, wanted, grant.grantedScope))
    }
    return oauthError(
      400,
      'unsupported_grant_type',
      'grant_type must be authorization_code or refresh_token.',
    )
  })

  app.get('/.well-known/openid-configuration', (c) =>
    c.json({
      issuer: ctx.origin,
      authorization_endpoint: `${ctx.origin}/authentication/v2/authorize`,
      token_endpoint: `${ctx.origin}/authentication/v2/token`,
      userinfo_endpoint: `${ctx.origin}/userinfo`,
      jwks_uri: `${ctx.origin}/authentication/v2/keys`,
      revocation_endpoint: `${ctx.origin}/authentication/v2/revoke`,
      introspection_endpoint: `${ctx.origin}/authentication/v2/introspect`,
      scopes_supported: [...KNOWN_SCOPES],
      response_types_supported: ['code', 'code id_token', 'id_token'],
      response_modes_supported: ['fragment', 'form_post', 'query'],
      grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
    }),
  )

  app.get('/userinfo', (c) => {
    const grant = bearer(c, ctx)
    if (!grant) return unauthorized(c)
    const user = state.user
    const [given, ...family] = user.name.split(' ')
    return c.json({
      sub: user.id,
      name: user.name,
      given_name: given,
      family_name: family.join(' '),
      preferred_username: user.email.split('@')[0],
      email: user.email,
      email_verified: true,
      picture: new URL(user.picture, ctx.origin).toString(),
      locale: 'en-US',
    })
  })

  // A tiny avatar, so the app's <img> loads without errors.
  app.get('/fake-profile/:name', (c) =>
    c.body(
      Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
        'base64',
      ),
      200,
      { 'content-type': 'image/png' },
    ),
  )
}
