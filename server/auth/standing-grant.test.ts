import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { codeFromLoginPageRedirect } from '../../dev/fake-aps/helpers.ts'
import {
  FAKE_CLIENT_ID,
  FAKE_CLIENT_SECRET,
  type FakeAps,
  startFakeAps,
} from '../../dev/fake-aps/server.ts'
import { createApsAuthProvider } from '../cloud/aps/auth-provider.ts'
import { loadConfig } from '../config.ts'
import { errorResponse } from '../http/errors.ts'
import { STAND_IN_CALLBACK } from '../testing/aps-product.ts'
import { createClient, type TestClient } from '../testing/client.ts'
import { createCloudAccess } from './cloud-access.ts'
import { createFileRevocations } from './revocations.ts'
import { authRoutes, type GivenGrant } from './routes.ts'
import { createSessionStore } from './session.ts'

// The sign-in routes against the fake Autodesk on a real loopback server: a `?for=watches`
// sign-in gives its tokens to the standing grant and leaves the session as it was.

let fake: FakeAps
let dataDir: string
let server: ReturnType<typeof serve>
let url: string
const grants: GivenGrant[] = []

beforeAll(async () => {
  fake = await startFakeAps()
  dataDir = await mkdtemp(join(tmpdir(), 'boq-standing-grant-'))
  const config = loadConfig({
    BOQ_DATA_DIR: dataDir,
    APS_CLIENT_ID: FAKE_CLIENT_ID,
    APS_CLIENT_SECRET: FAKE_CLIENT_SECRET,
    APS_CALLBACK_URL: STAND_IN_CALLBACK,
    APS_BASE_URL: fake.url,
  })
  if (!config.aps) throw new Error('Autodesk settings were not read')
  const provider = createApsAuthProvider(config.aps)
  const sessions = createSessionStore(new Uint8Array(32).fill(1), createFileRevocations(dataDir))
  const app = new Hono()
  app.onError(errorResponse)
  app.route(
    '/api/aps/auth',
    authRoutes({
      config,
      provider,
      sessions,
      access: createCloudAccess(sessions, provider),
      oauthKey: new Uint8Array(32).fill(2),
      onStandingGrant: async (grant) => {
        grants.push(grant)
      },
    }),
  )
  server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  if (server) {
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      ;(server as { closeAllConnections?: () => void }).closeAllConnections?.()
    })
  }
  await fake?.close()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

/** Login (with its query) → the fake's page → Allow → the callback replayed on the server. */
async function signIn(client: TestClient, query = ''): Promise<Response> {
  const login = await client(`/api/aps/auth/login${query}`)
  if (!login.ok) throw new Error(`login answered ${login.status}: ${await login.text()}`)
  const redirect = new URL(await codeFromLoginPageRedirect(await login.text()))
  return client(redirect.pathname + redirect.search)
}

describe('sign-in for watched folders (Autodesk)', () => {
  it('gives the standing grant its own tokens and leaves the session as it was', async () => {
    const client = createClient(url)
    expect((await signIn(client)).status).toBe(302)
    const session = client.cookies.get('boq_session')
    expect(session).toBeDefined()
    const sessionToken = await client.json<{ access_token: string }>('/api/aps/auth/token')

    const answer = await signIn(client, '?for=watches')
    expect(answer.status).toBe(302)
    expect(answer.headers.get('location')).toBe('/')
    expect(client.lastSetCookie.some((line) => line.startsWith('boq_session'))).toBe(false)
    expect(client.cookies.get('boq_session')).toBe(session)

    expect(grants).toHaveLength(1)
    const [grant] = grants
    expect(grant.user.userId).toBe('FAKEUSER0001')
    // Its own refresh token, unused: the session's next refresh does not spend it.
    const refresh = fake.state.refreshTokens.get(grant.tokens.refreshToken ?? '')
    expect(refresh).toMatchObject({ userId: 'FAKEUSER0001', used: false, revoked: false })
    expect(fake.state.accessTokens.get(grant.tokens.accessToken)?.scope).toContain('data:read')
    // The session still answers with its own tokens.
    expect((await client('/api/aps/auth/token')).status).toBe(200)
    expect(sessionToken.access_token).not.toBe(grant.tokens.accessToken)
  })

  it('works without a session, and starts none', async () => {
    const client = createClient(url)
    const before = grants.length
    expect((await signIn(client, '?for=watches')).status).toBe(302)
    expect(grants).toHaveLength(before + 1)
    expect(client.cookies.has('boq_session')).toBe(false)
  })

  it('refuses consent from another Autodesk account than the session’s, and keeps nothing', async () => {
    const client = createClient(url)
    expect((await signIn(client)).status).toBe(302)
    const before = grants.length
    const signedIn = fake.state.user
    fake.state.user = { ...signedIn, id: 'FAKEUSER0002', name: 'Grace Hopper' }
    try {
      const answer = await signIn(client, '?for=watches')
      expect(answer.status).toBe(400)
      expect(await answer.text()).toBe(
        'Allow BOQ with the Autodesk account you are signed in with (Ada Lovelace, not Grace Hopper): nothing was kept.',
      )
    } finally {
      fake.state.user = signedIn
    }
    expect(grants).toHaveLength(before)
    expect(await client.json('/api/aps/auth/profile')).toMatchObject({ userId: signedIn.id })
  })

  it('refuses a purpose it does not know', async () => {
    const answer = await createClient(url)('/api/aps/auth/login?for=everything')
    expect(answer.status).toBe(400)
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/)
  })
})
