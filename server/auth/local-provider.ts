import { AppError, SessionExpiredError } from '../errors.ts'
import { codeChallenge, randomToken } from './pkce.ts'
import { seal, unseal } from './sealed.ts'
import type { AuthProvider, Tokens, UserProfile } from './types.ts'

const ACCESS_TOKEN_SECONDS = 60 * 60
const CODE_SECONDS = 5 * 60
const REFRESH_PREFIX = 'local-refresh.'

interface LocalCode {
  challenge: string
  callbackUrl: string
}

/**
 * Local sign-in that takes the same path as Autodesk's: the "authorization server" answers at
 * once with a code bound (sealed) to the PKCE challenge and the callback, so the routes run the
 * real state + PKCE checks. Anyone who can reach the server signs in as the local user.
 */
export function createLocalAuthProvider(options: {
  userName: string
  codeKey: Uint8Array
}): AuthProvider {
  const user = localProfile(options.userName)
  return {
    async authorizeUrl({ state, codeChallenge: challenge, callbackUrl }) {
      const code = await seal(
        { challenge, callbackUrl } satisfies LocalCode,
        options.codeKey,
        CODE_SECONDS,
      )
      const url = new URL(callbackUrl)
      url.searchParams.set('code', code)
      url.searchParams.set('state', state)
      return url.href
    },
    async exchangeCode({ code, codeVerifier, callbackUrl }) {
      const sealed = await unseal<LocalCode>(code, options.codeKey)
      if (!sealed)
        throw new AppError(400, 'Sign-in failed: the authorization code is invalid or has expired.')
      if (sealed.challenge !== codeChallenge(codeVerifier)) {
        throw new AppError(400, 'Sign-in failed: the PKCE code verifier does not match.')
      }
      if (sealed.callbackUrl !== callbackUrl) {
        throw new AppError(400, 'Sign-in failed: the callback address does not match.')
      }
      return newTokens()
    },
    async refresh(tokens) {
      if (!tokens.refreshToken?.startsWith(REFRESH_PREFIX)) throw new SessionExpiredError()
      return newTokens()
    },
    async profile() {
      return user
    },
    async publicToken(tokens) {
      const left = Math.floor((tokens.expiresAt - Date.now()) / 1000)
      return {
        access_token: `local-public.${randomToken(24)}`,
        expires_in: Math.max(0, Math.min(left, 3599)),
      }
    },
  }
}

function newTokens(): Tokens {
  return {
    accessToken: `local.${randomToken()}`,
    refreshToken: `${REFRESH_PREFIX}${randomToken()}`,
    expiresAt: Date.now() + ACCESS_TOKEN_SECONDS * 1000,
  }
}

function localProfile(name: string): UserProfile {
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'user'
  return { userId: `local-${slug}`, name, picture: avatar(name) }
}

/** A round avatar with the user's initials, as a data URL (no file to serve, no network). */
function avatar(name: string): string {
  const initials =
    name
      .split(/[\s._-]+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]?.toUpperCase() ?? '')
      .join('') || '?'
  const escaped = initials.replace(/[<>&"']/g, '')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><circle cx="32" cy="32" r="32" fill="#0696d7"/><text x="32" y="41" font-family="Arial,sans-serif" font-size="26" fill="#fff" text-anchor="middle">${escaped}</text></svg>`
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`
}
