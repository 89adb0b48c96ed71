import type { UserProfile } from '#contract/profile.ts'

export type { UserProfile }

/** Whose cloud is being read: the signed-in user and their current access token. */
export interface CloudContext {
  user: UserProfile
  accessToken: string
}

/** The provider's tokens, kept only in the encrypted session cookie. */
export interface Tokens {
  accessToken: string
  refreshToken?: string
  /** Epoch milliseconds at which the access token stops working. */
  expiresAt: number
  /**
   * Autodesk: the narrower token the browser may hold (`viewables:read`), issued together with
   * the tokens above (Autodesk rotates refresh tokens, so it cannot be fetched later on its own).
   */
  publicToken?: { accessToken: string; expiresAt: number }
}

/** What the encrypted, signed session cookie holds. */
export interface Session {
  /** Random, kept through refreshes: logout revokes it on the server. */
  id: string
  user: UserProfile
  tokens: Tokens
}

/**
 * One sign-in provider (local or Autodesk). The routes in server/auth own the flow
 * (state, PKCE verifier, cookies, redirects); a provider only talks to its identity service.
 */
export interface AuthProvider {
  /** The URL the browser is sent to; the provider sends it back to `callbackUrl?code=…&state=…`. */
  authorizeUrl(params: {
    state: string
    codeChallenge: string
    callbackUrl: string
  }): Promise<string>
  /** Trades the code for tokens (PKCE: the verifier must match the challenge). */
  exchangeCode(params: { code: string; codeVerifier: string; callbackUrl: string }): Promise<Tokens>
  /** New tokens from the refresh token; throws SessionExpiredError when refused. */
  refresh(tokens: Tokens): Promise<Tokens>
  profile(tokens: Tokens): Promise<UserProfile>
  /** The short-lived public token the browser may hold (`viewables:read` for Autodesk). */
  publicToken(tokens: Tokens): Promise<{ access_token: string; expires_in: number }>
}
