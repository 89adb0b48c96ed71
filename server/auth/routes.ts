import { type Context, Hono } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { appPath } from '#contract/app-path.ts'
import type { Config } from '../config.ts'
import { AppError } from '../errors.ts'
import { appOnly } from '../http/security.ts'
import type { CloudAccess } from './cloud-access.ts'
import { OAUTH_COOKIE, privateCookie } from './cookies.ts'
import { codeChallenge, randomToken } from './pkce.ts'
import { seal, unseal } from './sealed.ts'
import { newSessionId, type SessionStore } from './session.ts'
import type { AuthProvider, Tokens, UserProfile } from './types.ts'

const LOGIN_SECONDS = 10 * 60

/**
 * Why the person signs in: `session`, to use the app; `watches`, to let BOQ read their folders
 * while they are away (its own grant: Autodesk's refresh tokens are single-use, so a watch cannot
 * share the session's).
 */
type LoginPurpose = 'session' | 'watches'

/** What the login step remembers for the callback, sealed in a short-lived cookie. */
interface PendingLogin {
  state: string
  verifier: string
  callbackUrl: string
  /**
   * Where the browser goes once signed in: the page asked for (`?returnTo=`, a path of this app,
   * else '/'), here or on the allowed origin that hosts the app.
   */
  returnTo: string
  /** Absent in a login begun before purposes existed: a session. */
  purpose?: LoginPurpose
}

/** Who allowed BOQ to act for them while away, and the tokens to do it with. */
export interface GivenGrant {
  user: UserProfile
  tokens: Tokens
}

export interface AuthRouteDeps {
  config: Config
  provider: AuthProvider
  sessions: SessionStore
  access: CloudAccess
  oauthKey: Uint8Array
  /** Keeps the grant of a `?for=watches` sign-in; without it, that sign-in is not offered. */
  onStandingGrant?: (grant: GivenGrant) => Promise<void>
}

/**
 * /api/aps/auth/*: login → provider → callback → session cookie (or, `?for=watches`, a standing
 * grant for watched folders, the session untouched); token, profile, logout.
 */
export function authRoutes(deps: AuthRouteDeps): Hono {
  const { config, provider, sessions, access, oauthKey } = deps
  const routes = new Hono()

  routes.use('*', async (c, next) => {
    await next()
    c.header('Cache-Control', 'no-store')
  })

  routes.get('/login', async (c) => {
    const pending: PendingLogin = {
      state: randomToken(),
      verifier: randomToken(48),
      callbackUrl: config.aps?.callbackUrl ?? new URL('/api/aps/auth/callback', c.req.url).href,
      returnTo: returnTo(c, config),
      purpose: purposeOf(c.req.query('for'), deps.onStandingGrant !== undefined),
    }
    const url = await provider.authorizeUrl({
      state: pending.state,
      codeChallenge: codeChallenge(pending.verifier),
      callbackUrl: pending.callbackUrl,
    })
    const sealed = await seal(pending, oauthKey, LOGIN_SECONDS)
    setCookie(c, OAUTH_COOKIE, sealed, privateCookie(c, { maxAge: LOGIN_SECONDS }))
    return c.text(url)
  })

  routes.get('/callback', async (c) => {
    const error = c.req.query('error')
    if (error) throw new AppError(400, signInRefused(error))
    const pending = await unseal<PendingLogin>(getCookie(c, OAUTH_COOKIE), oauthKey)
    if (!pending) {
      throw new AppError(
        400,
        'Sign-in failed: the sign-in has expired or was started in another browser. Please sign in again.',
      )
    }
    const code = c.req.query('code')
    if (!code) throw new AppError(400, 'Sign-in failed: the callback has no authorization code.')
    if (c.req.query('state') !== pending.state) {
      throw new AppError(
        400,
        'Sign-in failed: the state does not match this browser’s sign-in. Please sign in again.',
      )
    }
    deleteCookie(c, OAUTH_COOKIE, privateCookie(c))
    const tokens = await provider.exchangeCode({
      code,
      codeVerifier: pending.verifier,
      callbackUrl: pending.callbackUrl,
    })
    const user = await provider.profile(tokens)
    if (pending.purpose === 'watches') {
      // The session stays as it is: these tokens are the watches' alone.
      if (!deps.onStandingGrant) throw new AppError(404, WATCHES_UNAVAILABLE)
      // The grant is kept under whoever consented: from another account, the watches of the one
      // signed in here would stay paused and another person's folders would be read.
      const session = await sessions.read(c)
      if (session && session.user.userId !== user.userId) {
        throw new AppError(400, otherAccount(session.user, user))
      }
      await deps.onStandingGrant({ user, tokens })
    } else {
      await sessions.write(c, { id: newSessionId(), user, tokens })
    }
    return c.redirect(pending.returnTo, 302)
  })

  routes.get('/token', async (c) => {
    const session = await access.session(c)
    return c.json(await provider.publicToken(session.tokens))
  })

  routes.get('/profile', async (c) => {
    const session = await access.session(c)
    return c.json(session.user)
  })

  // A GET by the specification, so a link on another site could reach it: only the app may.
  routes.get('/logout', appOnly(config), async (c) => {
    await sessions.end(c, await sessions.read(c))
    // The browser forgets the drawings, geometry and results it cached for this user.
    c.header('Clear-Site-Data', '"cache"')
    return c.body(null, 204)
  })

  return routes
}

const WATCHES_UNAVAILABLE = 'This BOQ server does not watch folders.'

/** The consent for watches came from an account other than the session's. */
function otherAccount(signedIn: UserProfile, consented: UserProfile): string {
  const who = signedIn.name ? `${signedIn.name}, not ${consented.name || 'another account'}` : ''
  return `Allow BOQ with the Autodesk account you are signed in with${who ? ` (${who})` : ''}: nothing was kept.`
}

/** `?for=watches`: the standing grant's sign-in; nothing: a session; anything else is refused. */
function purposeOf(value: string | undefined, watchesOffered: boolean): LoginPurpose {
  if (value === undefined || value === '' || value === 'session') return 'session'
  if (value !== 'watches') throw new AppError(400, 'Sign-in is for a session or for watches.')
  if (!watchesOffered) throw new AppError(404, WATCHES_UNAVAILABLE)
  return 'watches'
}

/**
 * OAuth's error codes as sentences. Anyone can send a link to the callback with any text in it,
 * so only a known code is named and error_description is never repeated.
 */
const SIGN_IN_ERRORS: Record<string, string> = {
  access_denied: 'access to your Autodesk account was not allowed.',
  login_required: 'you are not signed in to Autodesk.',
  consent_required: 'BOQ was not allowed to use your Autodesk account.',
  interaction_required: 'Autodesk needs you to sign in again.',
  invalid_scope: 'Autodesk refused the permissions BOQ asks for.',
  unauthorized_client: 'this BOQ server may not sign in with Autodesk.',
  server_error: 'Autodesk had an error.',
  temporarily_unavailable: 'Autodesk is not available at the moment.',
}

function signInRefused(code: string): string {
  const reason = Object.hasOwn(SIGN_IN_ERRORS, code) ? SIGN_IN_ERRORS[code] : undefined
  return reason
    ? `Sign-in was not completed (${code}): ${reason}`
    : 'Sign-in was not completed: Autodesk answered with an error.'
}

/**
 * The page the person asked for (`?returnTo=`, kept only when it is a path of this app: anything
 * else lands on '/'); an app hosted on an allowed origin gets its user back there.
 */
function returnTo(c: Context, config: Config): string {
  const path = appPath(c.req.query('returnTo')) ?? '/'
  const candidates = [c.req.header('origin'), c.req.header('referer')]
  for (const candidate of candidates) {
    if (!candidate || !URL.canParse(candidate)) continue
    const origin = new URL(candidate).origin
    if (config.corsOrigins.includes(origin)) return `${origin}${path}`
  }
  return path
}
