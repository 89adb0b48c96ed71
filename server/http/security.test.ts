import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient, signIn, type TestClient } from '../testing/client.ts'
import { startTestServer, type TestServer } from '../testing/start-test-server.ts'

const APP_ORIGIN = 'http://localhost:5173'
const body = JSON.stringify({ probe: true })
/** A POST that passes the anti-forgery check reaches routing: this path has no route, so 404. */
const PROBE = '/api/probe'
const PASSED = 404

let server: TestServer
let client: TestClient
beforeAll(async () => {
  server = await startTestServer({
    env: { BOQ_CORS_ORIGINS: `${APP_ORIGIN}, https://boq.example.com` },
  })
  client = await signIn(server.url)
})
afterAll(() => server.close())

describe('anti-forgery (XSRF-TOKEN cookie + X-XSRF-TOKEN header)', () => {
  it('sets a script-readable XSRF-TOKEN cookie', async () => {
    const fresh = createClient(server.url)
    await fresh('/api/aps/auth/token')
    const line = fresh.lastSetCookie.find((l) => l.startsWith('XSRF-TOKEN='))
    expect(line).toBeDefined()
    expect(line).not.toMatch(/HttpOnly/i)
    expect(line).toMatch(/Path=\//)
    expect(line).toMatch(/SameSite=Lax/i)
  })

  it('answers a POST without the header with 403 and a plain-text reason', async () => {
    const response = await client(PROBE, {
      method: 'POST',
      body,
      headers: { 'x-xsrf-token': '' },
    })
    expect(response.status).toBe(403)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await response.text()).toMatch(/X-XSRF-TOKEN/)
  })

  it('answers a POST whose header does not match the cookie with 403', async () => {
    const response = await client(PROBE, {
      method: 'POST',
      body,
      headers: { 'x-xsrf-token': 'forged' },
    })
    expect(response.status).toBe(403)
    expect(await response.text()).toMatch(/X-XSRF-TOKEN/)
  })

  it('answers a POST without the cookie with 403 even when a header is sent', async () => {
    const bare = createClient(server.url, { xsrf: false })
    bare.cookies.set('boq_session', client.cookies.get('boq_session') ?? '')
    const response = await bare(PROBE, {
      method: 'POST',
      body,
      headers: { 'x-xsrf-token': 'x' },
    })
    expect(response.status).toBe(403)
  })

  it('lets a POST with the matching header through', async () => {
    const response = await client(PROBE, { method: 'POST', body })
    expect(response.status).toBe(PASSED)
  })

  it('refuses a POST from an origin that is not allowed', async () => {
    const response = await client(PROBE, {
      method: 'POST',
      body,
      headers: { origin: 'https://evil.example', 'x-xsrf-token': '' },
    })
    expect(response.status).toBe(403)
    const text = await response.text()
    expect(text).toMatch(/other origins are not allowed/)
    // The Origin header is the caller's to choose: it is not repeated back.
    expect(text).not.toContain('evil')
  })
})

describe('CORS for BOQ_CORS_ORIGINS', () => {
  it('answers an allowed origin with credentials', async () => {
    const response = await client('/api/aps/hubs', { headers: { origin: APP_ORIGIN } })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN)
    expect(response.headers.get('access-control-allow-credentials')).toBe('true')
  })

  it('gives any other origin no CORS headers', async () => {
    const response = await client('/api/aps/hubs', { headers: { origin: 'https://evil.example' } })
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    expect(response.headers.get('access-control-allow-credentials')).toBeNull()
  })

  it('answers preflights for allowed origins only, allowing the XSRF header', async () => {
    const preflight = (origin: string) =>
      client('/api/boq/extract', {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, x-xsrf-token',
        },
      })
    const allowed = await preflight('https://boq.example.com')
    expect(allowed.status).toBeLessThan(300)
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://boq.example.com')
    expect(allowed.headers.get('access-control-allow-methods')).toMatch(/POST/)
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toMatch(
      /x-xsrf-token/,
    )
    const refused = await preflight('https://evil.example')
    expect(refused.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('checks a POST from an allowed origin by its Origin header (it cannot read the cookie)', async () => {
    const response = await client(PROBE, {
      method: 'POST',
      body,
      headers: { origin: APP_ORIGIN, 'x-xsrf-token': '' },
    })
    expect(response.status).toBe(PASSED)
    expect(response.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN)
  })

  it('lets the app on an allowed origin sign out (it cannot read the XSRF-TOKEN cookie)', async () => {
    const app = await signIn(server.url)
    const response = await app('/api/aps/auth/logout', {
      headers: { origin: APP_ORIGIN, 'sec-fetch-site': 'same-site' },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN)
    expect((await app('/api/aps/auth/token')).status).toBe(401)
  })

  it('sends a user who signs in from the allowed origin back to it', async () => {
    const browser = createClient(server.url)
    const loginUrl = await (
      await browser('/api/aps/auth/login', { headers: { origin: APP_ORIGIN } })
    ).text()
    const callback = await browser(loginUrl)
    expect(callback.status).toBe(302)
    expect(callback.headers.get('location')).toBe(`${APP_ORIGIN}/`)
  })
})
