import { afterEach, describe, expect, it } from 'vitest'
import type { CloudBackend, CloudContext } from '../cloud/types.ts'
import { SessionExpiredError, TokenRejectedError } from '../errors.ts'
import { createClient, signIn, type TestClient } from '../testing/client.ts'
import { startTestServer, type TestServer } from '../testing/start-test-server.ts'
import { REFRESH_MARGIN_MS } from './cloud-access.ts'
import type { AuthProvider, Tokens } from './types.ts'

/** A provider whose tokens and refreshes the test controls. */
function fakeProvider(options: { lifetimeMs: number; refuseRefresh?: boolean }) {
  let issued = 0
  const refreshes: Tokens[] = []
  const tokens = (): Tokens => {
    issued += 1
    return {
      accessToken: `access-${issued}`,
      refreshToken: `refresh-${issued}`,
      expiresAt: Date.now() + options.lifetimeMs,
    }
  }
  const provider: AuthProvider = {
    async authorizeUrl({ state, callbackUrl }) {
      return `${callbackUrl}?code=c&state=${state}`
    },
    async exchangeCode() {
      return tokens()
    },
    async refresh(old) {
      refreshes.push(old)
      if (options.refuseRefresh) throw new SessionExpiredError()
      // Like Autodesk: a new access token; here without a new refresh token, to check we keep the old one.
      return { ...tokens(), refreshToken: undefined }
    },
    async profile() {
      return { userId: 'u1', name: 'Fake User', picture: '' }
    },
    async publicToken(t) {
      return { access_token: `public-for-${t.accessToken}`, expires_in: 60 }
    },
  }
  return { provider, refreshes }
}

/** A cloud that records the access tokens it saw and rejects the listed ones. */
function fakeCloud(rejected: Set<string>) {
  const seen: string[] = []
  const hubs = async (ctx: CloudContext) => {
    seen.push(ctx.accessToken)
    if (rejected.has(ctx.accessToken)) throw new TokenRejectedError()
    return [{ id: 'h1', type: 'hubs', attributes: { name: `hub for ${ctx.user.name}` } }]
  }
  const cloud = { kind: 'local', hubs } as unknown as CloudBackend
  return { cloud, seen }
}

const servers: TestServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

async function serve(provider: AuthProvider, cloud: CloudBackend, dataDir?: string) {
  const server = await startTestServer({ backends: () => ({ auth: provider, cloud }), dataDir })
  servers.push(server)
  return server
}

describe('the CloudContext helper', () => {
  it('uses the session’s tokens while they are fresh', async () => {
    const { provider, refreshes } = fakeProvider({ lifetimeMs: 60 * 60 * 1000 })
    const { cloud, seen } = fakeCloud(new Set())
    const client = await signIn((await serve(provider, cloud)).url)
    expect((await client('/api/aps/hubs')).status).toBe(200)
    expect(seen).toEqual(['access-1'])
    expect(refreshes).toHaveLength(0)
  })

  it('refreshes shortly before expiry, rewrites the cookie and keeps the refresh token', async () => {
    const { provider, refreshes } = fakeProvider({ lifetimeMs: REFRESH_MARGIN_MS / 2 })
    const { cloud, seen } = fakeCloud(new Set())
    const client = await signIn((await serve(provider, cloud)).url)
    const before = client.cookies.get('boq_session')
    expect((await client('/api/aps/hubs')).status).toBe(200)
    expect(seen).toEqual(['access-2'])
    expect(refreshes.map((t) => t.refreshToken)).toEqual(['refresh-1'])
    expect(client.cookies.get('boq_session')).not.toBe(before)
    // The next refresh still has the first refresh token, as the provider sent none.
    await client('/api/aps/hubs')
    expect(refreshes.map((t) => t.refreshToken)).toEqual(['refresh-1', 'refresh-1'])
  })

  it('requests that arrive together with the same expiring cookie share one refresh', async () => {
    const { provider, refreshes } = fakeProvider({ lifetimeMs: 1000 })
    const { cloud, seen } = fakeCloud(new Set())
    const client = await signIn((await serve(provider, cloud)).url)
    const answers = await Promise.all([
      client('/api/aps/hubs'),
      client('/api/aps/hubs'),
      client('/api/aps/hubs'),
    ])
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200])
    expect(refreshes).toHaveLength(1)
    expect(seen).toEqual(['access-2', 'access-2', 'access-2'])
  })

  it('retries once after a refresh when the cloud rejects the token', async () => {
    const { provider, refreshes } = fakeProvider({ lifetimeMs: 60 * 60 * 1000 })
    const { cloud, seen } = fakeCloud(new Set(['access-1']))
    const client = await signIn((await serve(provider, cloud)).url)
    const response = await client('/api/aps/hubs')
    expect(response.status).toBe(200)
    expect(seen).toEqual(['access-1', 'access-2'])
    expect(refreshes).toHaveLength(1)
    // The new tokens were kept: the next call uses them at once.
    await client('/api/aps/hubs')
    expect(seen.at(-1)).toBe('access-2')
  })

  it('answers 401 and ends the session when the token is rejected again after the refresh', async () => {
    const { provider } = fakeProvider({ lifetimeMs: 60 * 60 * 1000 })
    const { cloud, seen } = fakeCloud(new Set(['access-1', 'access-2']))
    const client = await signIn((await serve(provider, cloud)).url)
    const response = await client('/api/aps/hubs')
    expect(response.status).toBe(401)
    expect(await response.text()).toMatch(/sign in again/i)
    expect(seen).toEqual(['access-1', 'access-2'])
    expect(client.cookies.has('boq_session')).toBe(false)
  })

  it('answers 401 and ends the session when the refresh is refused', async () => {
    const { provider } = fakeProvider({ lifetimeMs: 1000, refuseRefresh: true })
    const { cloud, seen } = fakeCloud(new Set())
    const client = await signIn((await serve(provider, cloud)).url)
    const response = await client('/api/aps/hubs')
    expect(response.status).toBe(401)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(seen).toEqual([])
    expect(client.cookies.has('boq_session')).toBe(false)
  })
})

/** A second client holding a copy of `client`'s session cookie, kept from before. */
function copyOf(client: TestClient, url: string): TestClient {
  const copy = createClient(url)
  copy.cookies.set('boq_session', client.cookies.get('boq_session') ?? '')
  return copy
}

describe('a session the cloud ended', () => {
  it('stays ended after a refused refresh: a kept copy of the cookie is refused too', async () => {
    const options = { lifetimeMs: 1000, refuseRefresh: true }
    const { provider, refreshes } = fakeProvider(options)
    const { cloud, seen } = fakeCloud(new Set())
    const first = await serve(provider, cloud)
    const client = await signIn(first.url)
    const old = client.cookies.get('boq_session') ?? ''
    expect((await client('/api/aps/hubs')).status).toBe(401)
    expect(client.cookies.has('boq_session')).toBe(false)
    // The provider would refresh now, and a new server (a restart) has no memory of the refusal:
    // the session id was revoked all the same.
    options.refuseRefresh = false
    const second = await serve(provider, cloud, first.dataDir)
    const kept = createClient(second.url)
    kept.cookies.set('boq_session', old)
    expect((await kept('/api/aps/hubs')).status).toBe(401)
    expect((await kept('/api/aps/auth/token')).status).toBe(401)
    expect(refreshes).toHaveLength(1)
    expect(seen).toEqual([])
  })

  it('stays ended after the token is rejected again after a refresh', async () => {
    const { provider } = fakeProvider({ lifetimeMs: 60 * 60 * 1000 })
    const rejected = new Set(['access-1', 'access-2'])
    const { cloud, seen } = fakeCloud(rejected)
    const { url } = await serve(provider, cloud)
    const client = await signIn(url)
    const kept = copyOf(client, url)
    expect((await client('/api/aps/hubs')).status).toBe(401)
    rejected.clear()
    expect((await kept('/api/aps/hubs')).status).toBe(401)
    expect(seen).toEqual(['access-1', 'access-2'])
  })
})

describe('large sessions', () => {
  it('are split over several cookies and read back whole, and logout removes every part', async () => {
    const big = 'x'.repeat(3000)
    const { provider } = fakeProvider({ lifetimeMs: 60 * 60 * 1000 })
    const heavy: AuthProvider = {
      ...provider,
      // Autodesk-sized tokens: an access token, a public token and a refresh token of ~3 KB each.
      exchangeCode: async () => ({
        accessToken: `access-${big}`,
        refreshToken: `refresh-${big}`,
        expiresAt: Date.now() + 60 * 60 * 1000,
        publicToken: { accessToken: `public-${big}`, expiresAt: Date.now() + 60 * 60 * 1000 },
      }),
    }
    const { cloud, seen } = fakeCloud(new Set())
    const client = await signIn((await serve(heavy, cloud)).url)
    const parts = [...client.cookies.keys()].filter((name) => name.startsWith('boq_session'))
    expect(parts.length).toBeGreaterThan(1)
    for (const name of parts)
      expect((client.cookies.get(name) ?? '').length).toBeLessThanOrEqual(3800)
    expect((await client('/api/aps/hubs')).status).toBe(200)
    expect(seen).toEqual([`access-${big}`])
    expect((await client.logout()).status).toBe(204)
    expect([...client.cookies.keys()].filter((name) => name.startsWith('boq_session'))).toEqual([])
  })
})
