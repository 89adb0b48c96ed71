import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  CALLBACK_URL,
  codeFromLoginPage,
  settingsFor,
  signInAtFake,
} from '../../../dev/fake-aps/helpers.ts'
import { type FakeAps, startFakeAps } from '../../../dev/fake-aps/server.ts'
import { AppError, SessionExpiredError, TokenRejectedError } from '../../errors.ts'
import { createApsAuthProvider } from './auth-provider.ts'

let fake: FakeAps
beforeAll(async () => {
  fake = await startFakeAps()
})
afterAll(() => fake.close())
beforeEach(() => fake.faults.clear())

describe('aps auth provider against the fake Autodesk', () => {
  it('builds the authorize URL from APS_BASE_URL with PKCE S256, state and the three scopes', async () => {
    const provider = createApsAuthProvider(settingsFor(fake))
    const url = new URL(
      await provider.authorizeUrl({ state: 'abc', codeChallenge: 'xyz', callbackUrl: 'ignored' }),
    )
    expect(url.origin + url.pathname).toBe(`${fake.url}/authentication/v2/authorize`)
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'fake-client-id',
      redirect_uri: CALLBACK_URL,
      scope: 'data:read data:write data:create',
      state: 'abc',
      code_challenge: 'xyz',
      code_challenge_method: 'S256',
    })
  })

  it('signs in through the login page, gets a narrowed public token and the profile from userinfo', async () => {
    const provider = createApsAuthProvider(settingsFor(fake))
    const { tokens } = await signInAtFake(provider)
    expect(tokens.refreshToken).toBeTruthy()
    expect(tokens.expiresAt).toBeGreaterThan(Date.now())
    const publicToken = await provider.publicToken(tokens)
    expect(publicToken.access_token).not.toBe(tokens.accessToken)
    expect(publicToken.expires_in).toBeGreaterThan(3000)
    expect(fake.state.accessTokens.get(publicToken.access_token)?.scope).toEqual(['viewables:read'])
    // The public token cannot read the user's data.
    const hubs = await fetch(`${fake.url}/project/v1/hubs`, {
      headers: { authorization: `Bearer ${publicToken.access_token}` },
    })
    expect(hubs.status).toBe(403)
    expect(await provider.profile(tokens)).toEqual({
      userId: 'FAKEUSER0001',
      name: 'Ada Lovelace',
      picture: `${fake.url}/fake-profile/ada.png`,
    })
    // The token endpoint was called as a confidential client with a form body.
    expect(
      fake.requests.filter((r) => r.path === '/authentication/v2/token').length,
    ).toBeGreaterThanOrEqual(2)
  })

  it('refuses a code exchange whose PKCE verifier does not match', async () => {
    const provider = createApsAuthProvider(settingsFor(fake))
    const url = await provider.authorizeUrl({
      state: 's',
      codeChallenge: 'A'.repeat(43),
      callbackUrl: CALLBACK_URL,
    })
    const code = await codeFromLoginPage(url)
    const error = await provider
      .exchangeCode({ code, codeVerifier: 'B'.repeat(43), callbackUrl: CALLBACK_URL })
      .catch((e) => e)
    expect(error).toBeInstanceOf(AppError)
    expect(error.status).toBe(400)
  })

  it('names the configuration when Autodesk refuses the client secret', async () => {
    const provider = createApsAuthProvider({ ...settingsFor(fake), clientSecret: 'wrong' })
    const url = await provider.authorizeUrl({
      state: 's',
      codeChallenge: 'A'.repeat(43),
      callbackUrl: CALLBACK_URL,
    })
    const code = await codeFromLoginPage(url)
    const error = await provider
      .exchangeCode({ code, codeVerifier: 'x'.repeat(43), callbackUrl: CALLBACK_URL })
      .catch((e) => e)
    expect(error.status).toBe(502)
    expect(error.message).toMatch(/APS_CLIENT_SECRET/)
  })

  it('refreshes keeping the newest refresh token; the used one no longer works', async () => {
    const provider = createApsAuthProvider(settingsFor(fake))
    const { tokens } = await signInAtFake(provider)
    const fresh = await provider.refresh(tokens)
    expect(fresh.accessToken).not.toBe(tokens.accessToken)
    expect(fresh.refreshToken).not.toBe(tokens.refreshToken)
    expect(fake.state.refreshTokens.get(fresh.refreshToken ?? '')?.used).toBe(false)
    expect(fake.state.accessTokens.get(fresh.accessToken)?.scope).toEqual([
      'data:read',
      'data:write',
      'data:create',
    ])
    expect(fresh.publicToken?.accessToken).toBeTruthy()
    const again = await provider.refresh(fresh)
    expect(again.refreshToken).not.toBe(fresh.refreshToken)
    // A second provider (no shared memory) with the spent token: the session is over.
    const other = createApsAuthProvider(settingsFor(fake))
    await expect(other.refresh(tokens)).rejects.toBeInstanceOf(SessionExpiredError)
  })

  it('shares one refresh among concurrent requests holding the same refresh token', async () => {
    const provider = createApsAuthProvider(settingsFor(fake))
    const { tokens } = await signInAtFake(provider)
    const before = fake.requests.length
    const [a, b] = await Promise.all([provider.refresh(tokens), provider.refresh(tokens)])
    expect(a).toEqual(b)
    expect(
      fake.requests.slice(before).filter((r) => r.path === '/authentication/v2/token'),
    ).toHaveLength(2)
  })

  it('ends the session when the refresh token was revoked', async () => {
    const provider = createApsAuthProvider(settingsFor(fake))
    const { tokens } = await signInAtFake(provider)
    fake.state.revokeRefreshTokens()
    await expect(provider.refresh(tokens)).rejects.toBeInstanceOf(SessionExpiredError)
  })

  it('keeps the session on a transient failure of the token endpoint', async () => {
    const provider = createApsAuthProvider(settingsFor(fake))
    const { tokens } = await signInAtFake(provider)
    fake.faults.add({ path: '/authentication/v2/token', status: 503 })
    const error = await provider.refresh(tokens).catch((e) => e)
    expect(error).not.toBeInstanceOf(SessionExpiredError)
    expect(error.status).toBe(502)
    expect((await provider.refresh(tokens)).accessToken).toBeTruthy()
  })

  it('throws TokenRejectedError when userinfo refuses the token, and for an expired public token', async () => {
    const provider = createApsAuthProvider(settingsFor(fake))
    const { tokens } = await signInAtFake(provider)
    fake.state.expireAccessTokens()
    await expect(provider.profile(tokens)).rejects.toBeInstanceOf(TokenRejectedError)
    await expect(
      provider.publicToken({ ...tokens, publicToken: undefined }),
    ).rejects.toBeInstanceOf(TokenRejectedError)
  })
})
