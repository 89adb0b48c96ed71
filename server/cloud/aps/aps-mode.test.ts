import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { SeedIds } from '../../../dev/fake-aps/seed.ts'
import type { FakeAps } from '../../../dev/fake-aps/server.ts'
import { callbackFromLogin, signInThroughFake, startApsProduct } from '../../testing/aps-product.ts'
import { createClient } from '../../testing/client.ts'

// The real server in Autodesk mode (APS_* variables) against the fake Autodesk, over HTTP.
let product: Awaited<ReturnType<typeof startApsProduct>>
let fake: FakeAps
let ids: SeedIds
let url: string

beforeAll(async () => {
  product = await startApsProduct()
  fake = product.fake
  ids = fake.ids as SeedIds
  url = product.server.url
})
afterAll(() => product.close())
beforeEach(() => fake.faults.clear())

const contentsPath = (folderId?: string) =>
  `/api/aps/hubs/${encodeURIComponent(ids.hubId)}/projects/${encodeURIComponent(ids.projectId)}/contents${
    folderId ? `?folder_id=${encodeURIComponent(folderId)}` : ''
  }`

describe('Autodesk mode over HTTP', () => {
  it('signs in through the fake login page; profile and a viewables:read public token', async () => {
    const client = await signInThroughFake(url)
    const sessionCookie = client.lastSetCookie.find((c) => c.startsWith('boq_session='))
    expect(sessionCookie).toBeDefined()
    expect(sessionCookie?.length ?? 0).toBeLessThan(4096)
    expect(await client.json('/api/aps/auth/profile')).toEqual({
      userId: 'FAKEUSER0001',
      name: 'Ada Lovelace',
      picture: `${fake.url}/fake-profile/ada.png`,
    })
    const token = await client.json<{ access_token: string; expires_in: number }>(
      '/api/aps/auth/token',
    )
    expect(fake.state.accessTokens.get(token.access_token)?.scope).toEqual(['viewables:read'])
    expect(token.expires_in).toBeGreaterThan(0)
  })

  it('refuses a callback whose state does not match', async () => {
    const client = createClient(url)
    const callback = new URL(await callbackFromLogin(client), url)
    callback.searchParams.set('state', 'not-the-state')
    const answer = await client(callback.pathname + callback.search)
    expect(answer.status).toBe(400)
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await answer.text()).toMatch(/state/)
    expect(client.cookies.has('boq_session')).toBe(false)
  })

  it('refuses a callback without the PKCE verifier of its login (other browser, or cookie gone)', async () => {
    const callback = await callbackFromLogin(createClient(url))
    const stranger = createClient(url)
    const answer = await stranger(callback)
    expect(answer.status).toBe(400)
    expect(await answer.text()).toMatch(/sign in again/i)
    expect(stranger.cookies.has('boq_session')).toBe(false)
  })

  it('and the fake refuses a code exchange that leaves the verifier out', async () => {
    const client = createClient(url)
    const callback = new URL(await callbackFromLogin(client), url)
    const answer = await fetch(`${fake.url}/authentication/v2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${fake.client.clientId}:${fake.client.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code') ?? '',
        redirect_uri: product.server.config.aps?.callbackUrl ?? '',
      }),
    })
    expect(answer.status).toBe(400)
    expect((await answer.json()).error).toBe('invalid_grant')
  })

  it('answers whole lists: a 1,000-item folder through /contents', async () => {
    const client = await signInThroughFake(url)
    const big = fake.state.addFolder(ids.projectFilesId, 'Big over HTTP')
    fake.state.addManyItems(big.id, 1000)
    const answer = await client.json<{ id: string; type: string }[]>(contentsPath(big.id))
    expect(answer).toHaveLength(1000)
    expect(new Set(answer.map((r) => r.id)).size).toBe(1000)
  })

  it('browses hubs → projects → top folders → contents → versions', async () => {
    const client = await signInThroughFake(url)
    const hubs = await client.json<{ id: string }[]>('/api/aps/hubs')
    expect(hubs.map((h) => h.id)).toEqual([ids.hubId, ids.personalHubId])
    const projects = await client.json<{ id: string }[]>(`/api/aps/hubs/${ids.hubId}/projects`)
    expect(projects[0].id).toBe(ids.projectId)
    const top = await client.json<{ attributes: { name: string } }[]>(contentsPath())
    expect(top.map((f) => f.attributes.name)).toEqual(['Project Files', 'Plans'])
    const versions = await client.json<{ attributes: { versionNumber: number } }[]>(
      `${contentsPath().replace(/\/contents$/, '')}/contents/${encodeURIComponent(ids.exampleItemId)}/versions`,
    )
    expect(versions.map((v) => v.attributes.versionNumber)).toEqual([2, 1])
  })

  it('refreshes once and retries when Autodesk refuses the access token', async () => {
    const client = await signInThroughFake(url)
    const before = client.cookies.get('boq_session')
    fake.state.expireAccessTokens()
    const answer = await client(contentsPath(ids.drawingsId))
    expect(answer.status).toBe(200)
    expect(client.cookies.get('boq_session')).not.toBe(before)
    expect(await client.json<unknown[]>(contentsPath(ids.drawingsId))).toHaveLength(4)
  })

  it('ends the session when the refresh token was revoked', async () => {
    const client = await signInThroughFake(url)
    fake.state.expireAccessTokens()
    fake.state.revokeRefreshTokens()
    const answer = await client(contentsPath(ids.drawingsId))
    expect(answer.status).toBe(401)
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(client.cookies.has('boq_session')).toBe(false)
    expect((await client('/api/aps/auth/token')).status).toBe(401)
  })

  it('honours Retry-After on 429 and answers', async () => {
    const client = await signInThroughFake(url)
    fake.faults.add({ path: '/data/v1/projects', status: 429, retryAfter: 1 })
    const answer = await client(contentsPath(ids.drawingsId))
    expect(answer.status).toBe(200)
  })

  it('answers an upstream failure as 502 with a plain-text reason', async () => {
    const client = await signInThroughFake(url)
    fake.faults.add({ path: '/data/v1/projects', status: 500 })
    const answer = await client(contentsPath(ids.drawingsId))
    expect(answer.status).toBe(502)
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await answer.text()).toMatch(/Autodesk/)
  })

  it('refuses ids with traversal or injection before calling Autodesk', async () => {
    const client = await signInThroughFake(url)
    const before = fake.requests.length
    for (const path of [
      `/api/aps/hubs/${encodeURIComponent('../../authentication/v2/token')}/projects`,
      `/api/aps/hubs/${encodeURIComponent('b.1?x=')}/projects`,
      contentsPath('urn:adsk.wipprod:fs.folder:co.x/../../../oss/v2/buckets'),
      contentsPath('http://evil.example/'),
      `${contentsPath()}/${encodeURIComponent('urn:adsk.wipprod:dm.lineage:x/../y')}/versions`,
    ]) {
      const answer = await client(path)
      expect([400, 404], path).toContain(answer.status)
      expect(answer.headers.get('content-type'), path).toMatch(/^text\/plain/)
    }
    expect(fake.requests.length).toBe(before)
  })
})
