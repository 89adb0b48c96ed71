import { afterEach, describe, expect, it } from 'vitest'
import { codeFromLoginPageRedirect } from '../../dev/fake-aps/helpers.ts'
import { startApsProduct } from '../testing/aps-product.ts'
import { createClient, signIn, type TestClient } from '../testing/client.ts'
import { startTestServer, type TestServer } from '../testing/start-test-server.ts'

const servers: TestServer[] = []
async function start(options: Parameters<typeof startTestServer>[0] = {}) {
  const server = await startTestServer(options)
  servers.push(server)
  return server
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

describe('local sign-in', () => {
  it('login answers a URL of the server’s own callback carrying code and state', async () => {
    const { url } = await start()
    const client = createClient(url)
    const response = await client('/api/aps/auth/login')
    expect(response.status).toBe(200)
    const target = new URL(await response.text())
    expect(target.origin).toBe(url)
    expect(target.pathname).toBe('/api/aps/auth/callback')
    expect(target.searchParams.get('code')).toBeTruthy()
    expect(target.searchParams.get('state')).toBeTruthy()
    // The state + PKCE verifier travel in a sealed, httpOnly cookie.
    const oauth = client.lastSetCookie.find((line) => line.startsWith('boq_oauth='))
    expect(oauth).toMatch(/HttpOnly/i)
    expect(oauth).toMatch(/SameSite=Lax/i)
  })

  it('the callback starts an encrypted, httpOnly, SameSite=Lax session and redirects to /', async () => {
    const { url } = await start()
    const client = createClient(url)
    const loginUrl = await (await client('/api/aps/auth/login')).text()
    const callback = await client(loginUrl)
    expect(callback.status).toBe(302)
    expect(callback.headers.get('location')).toBe('/')
    const cookie = client.lastSetCookie.find((line) => line.startsWith('boq_session='))
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(cookie).not.toMatch(/Secure/i)
    const value = client.cookies.get('boq_session') ?? ''
    // A compact JWE (five parts) whose text reveals neither the user nor the tokens.
    expect(value.split('.')).toHaveLength(5)
    expect(Buffer.from(value.split('.')[0] ?? '', 'base64url').toString()).toContain('A256GCM')
    expect(value).not.toContain('Test')
    expect((await client('/api/aps/auth/token')).status).toBe(200)
  })

  it('token answers 401 in plain text without a session, and a short-lived token with one', async () => {
    const { url } = await start()
    const anonymous = await createClient(url)('/api/aps/auth/token')
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await anonymous.text()).toMatch(/not signed in/i)

    const client = await signIn(url)
    const token = await client.json<{ access_token: string; expires_in: number }>(
      '/api/aps/auth/token',
    )
    expect(token.access_token).toEqual(expect.any(String))
    expect(token.expires_in).toBeGreaterThan(0)
    expect(token.expires_in).toBeLessThanOrEqual(3600)
  })

  it('profile names the local user (BOQ_USER_NAME) with a picture', async () => {
    const { url } = await start({ env: { BOQ_USER_NAME: 'Ada Lovelace' } })
    const client = await signIn(url)
    const profile = await client.json<{ userId: string; name: string; picture: string }>(
      '/api/aps/auth/profile',
    )
    expect(profile.name).toBe('Ada Lovelace')
    expect(profile.userId).toBe('local-ada-lovelace')
    expect(profile.picture).toMatch(/^data:image\/svg\+xml;base64,/)
    expect((await createClient(url)('/api/aps/auth/profile')).status).toBe(401)
  })

  it('refuses a tampered or foreign session cookie', async () => {
    const { url } = await start()
    const client = await signIn(url)
    const value = client.cookies.get('boq_session') ?? ''
    const parts = value.split('.')
    const flipped = parts[3]?.startsWith('A') ? `B${parts[3].slice(1)}` : `A${parts[3]?.slice(1)}`
    client.cookies.set('boq_session', [...parts.slice(0, 3), flipped, parts[4]].join('.'))
    expect((await client('/api/aps/auth/token')).status).toBe(401)

    const other = await start()
    const stranger = createClient(other.url)
    stranger.cookies.set('boq_session', value)
    expect((await stranger('/api/aps/auth/token')).status).toBe(401)
  })

  it('a callback without the login cookie, with another state, or without a code fails with 400', async () => {
    const { url } = await start()
    const first = createClient(url)
    const loginUrl = new URL(await (await first('/api/aps/auth/login')).text())

    const noCookie = await createClient(url)(loginUrl.href)
    expect(noCookie.status).toBe(400)
    expect(await noCookie.text()).toMatch(/sign in again/i)

    const wrongState = new URL(loginUrl)
    wrongState.searchParams.set('state', 'someone-elses-state')
    const mismatch = await first(wrongState.href)
    expect(mismatch.status).toBe(400)
    expect(await mismatch.text()).toMatch(/state/i)

    const second = createClient(url)
    const again = new URL(await (await second('/api/aps/auth/login')).text())
    again.searchParams.delete('code')
    const noCode = await second(again.href)
    expect(noCode.status).toBe(400)
    expect(await noCode.text()).toMatch(/code/i)

    const refused = await createClient(url)('/api/aps/auth/callback?error=access_denied')
    expect(refused.status).toBe(400)
    expect(await refused.text()).toMatch(/access_denied.*not allowed/)
  })

  it('a code cannot be used with another browser’s login (PKCE)', async () => {
    const { url } = await start()
    const alice = createClient(url)
    const bob = createClient(url)
    const aliceUrl = new URL(await (await alice('/api/aps/auth/login')).text())
    const bobUrl = new URL(await (await bob('/api/aps/auth/login')).text())
    // Bob's state with Alice's code: the state matches Bob's cookie, the verifier does not.
    const mixed = new URL(bobUrl)
    mixed.searchParams.set('code', aliceUrl.searchParams.get('code') ?? '')
    const response = await bob(mixed.href)
    expect(response.status).toBe(400)
    expect(await response.text()).toMatch(/PKCE/)
    expect(bob.cookies.has('boq_session')).toBe(false)
  })

  it('sessions survive a restart: the generated key is kept in BOQ_DATA_DIR', async () => {
    const first = await start()
    const client = await signIn(first.url)
    const session = client.cookies.get('boq_session') ?? ''
    const second = await start({ dataDir: first.dataDir })
    const again = createClient(second.url)
    again.cookies.set('boq_session', session)
    expect((await again('/api/aps/auth/token')).status).toBe(200)
  })

  it('SESSION_SECRET gives the key: two servers with the same secret share sessions', async () => {
    const secret = 'a-secret-that-is-long-enough-for-boq-123'
    const a = await start({ env: { SESSION_SECRET: secret } })
    const b = await start({ env: { SESSION_SECRET: secret } })
    const client = await signIn(a.url)
    const other = createClient(b.url)
    other.cookies.set('boq_session', client.cookies.get('boq_session') ?? '')
    expect((await other('/api/aps/auth/token')).status).toBe(200)
  })

  it('cookies are Secure when the request came over https (a proxy in front)', async () => {
    const { url } = await start()
    const client = createClient(url)
    await client('/api/aps/auth/login', { headers: { 'x-forwarded-proto': 'https' } })
    expect(client.lastSetCookie.length).toBeGreaterThan(0)
    for (const line of client.lastSetCookie) expect(line).toMatch(/;\s*Secure/i)
  })
})

describe('the page to return to after sign-in', () => {
  const ASKED = '/jobs/job-1?tab=priced'
  // Another site, a path a browser reads as another site, an API path: each lands on '/'.
  const REFUSED = [
    '//evil.example',
    'https://x',
    '/\\x',
    '/api/aps/auth/logout',
    '/.//evil.example',
    `/${'a'.repeat(3000)}`,
  ]

  /** Where the callback sends a browser that asked to come back to `returnTo`. */
  async function landing(
    client: TestClient,
    returnTo: string,
    provider: (authorizeUrl: string) => Promise<string> = async (authorizeUrl) => authorizeUrl,
    headers: Record<string, string> = {},
  ): Promise<string | null> {
    const login = await client(`/api/aps/auth/login?${new URLSearchParams({ returnTo })}`, {
      headers,
    })
    expect(login.status).toBe(200)
    const callback = new URL(await provider(await login.text()))
    const answer = await client(callback.pathname + callback.search)
    expect(answer.status, await answer.clone().text()).toBe(302)
    expect(client.cookies.has('boq_session')).toBe(true)
    return answer.headers.get('location')
  }

  it('local: lands on the page asked for, and on / for anything not a page of this app', async () => {
    const { url } = await start()
    expect(await landing(createClient(url), ASKED)).toBe(ASKED)
    for (const returnTo of REFUSED) {
      expect(await landing(createClient(url), returnTo), returnTo).toBe('/')
    }
  })

  it('local: an app on an allowed origin gets its user back to the page there', async () => {
    const app = 'http://127.0.0.1:5173'
    const { url } = await start({ env: { BOQ_CORS_ORIGINS: app } })
    const from = { origin: app }
    expect(await landing(createClient(url), ASKED, undefined, from)).toBe(`${app}${ASKED}`)
    expect(await landing(createClient(url), '//evil.example', undefined, from)).toBe(`${app}/`)
  })

  it('Autodesk: the page asked for is kept through Autodesk’s sign-in page', async () => {
    const product = await startApsProduct()
    try {
      const atAutodesk = codeFromLoginPageRedirect
      const { url } = product.server
      expect(await landing(createClient(url), ASKED, atAutodesk)).toBe(ASKED)
      for (const returnTo of REFUSED) {
        expect(await landing(createClient(url), returnTo, atAutodesk), returnTo).toBe('/')
      }
    } finally {
      await product.close()
    }
  })
})

describe('the callback’s error', () => {
  it('names a known OAuth error code and never repeats text from the link', async () => {
    const { url } = await start()
    const planted = 'Your account is locked. Call +1 555 0100'
    for (const query of [
      `error=access_denied&error_description=${encodeURIComponent(planted)}`,
      `error=${encodeURIComponent(planted)}`,
      `error=${encodeURIComponent('<script>alert(1)</script>')}`,
    ]) {
      const response = await createClient(url)(`/api/aps/auth/callback?${query}`)
      expect(response.status, query).toBe(400)
      const text = await response.text()
      expect(text).toMatch(/^Sign-in was not completed/)
      expect(text).not.toMatch(/locked|555|script/)
    }
  })
})

describe('logout', () => {
  const cleared = (lines: string[]) =>
    lines.some((l) => /^boq_session=;/.test(l) && /Max-Age=0/i.test(l))

  /** A second client holding a copy of `client`'s session cookie, kept from before. */
  function copyOf(client: TestClient, url: string): TestClient {
    const copy = createClient(url)
    copy.cookies.set('boq_session', client.cookies.get('boq_session') ?? '')
    return copy
  }

  it('ends the session for good: a kept copy of the cookie is refused, also after a restart', async () => {
    const first = await start()
    const client = await signIn(first.url)
    const other = await signIn(first.url)
    const kept = copyOf(client, first.url)
    const old = client.cookies.get('boq_session') ?? ''

    const logout = await client.logout()
    expect(logout.status).toBe(204)
    expect(cleared(client.lastSetCookie)).toBe(true)
    // What the browser cached (drawings, geometry, results) goes with the session.
    expect(logout.headers.get('clear-site-data')).toBe('"cache"')
    expect(client.cookies.has('boq_session')).toBe(false)

    for (const path of ['/api/aps/auth/token', '/api/aps/hubs']) {
      kept.cookies.set('boq_session', old)
      const replay = await kept(path)
      expect(replay.status, path).toBe(401)
      expect(replay.headers.get('content-type')).toMatch(/^text\/plain/)
      // The refused cookie is removed from the browser that sent it.
      expect(cleared(kept.lastSetCookie), path).toBe(true)
    }
    // The user's other session goes on.
    expect((await other('/api/aps/auth/token')).status).toBe(200)

    // A new server on the same data folder (a restart) knows the ended session.
    const second = await start({ dataDir: first.dataDir })
    for (const path of ['/api/aps/auth/token', '/api/aps/hubs']) {
      const replay = createClient(second.url)
      replay.cookies.set('boq_session', old)
      expect((await replay(path)).status, path).toBe(401)
    }
    expect((await copyOf(other, second.url)('/api/aps/auth/token')).status).toBe(200)
  })

  it('answers the app: with the X-XSRF-TOKEN header or a same-origin fetch', async () => {
    const { url } = await start()
    const withHeader = await signIn(url)
    expect((await withHeader.logout()).status).toBe(204)
    expect((await withHeader('/api/aps/auth/token')).status).toBe(401)

    const sameOrigin = await signIn(url)
    const kept = copyOf(sameOrigin, url)
    const response = await sameOrigin('/api/aps/auth/logout', {
      headers: { 'sec-fetch-site': 'same-origin' },
    })
    expect(response.status).toBe(204)
    expect(cleared(sameOrigin.lastSetCookie)).toBe(true)
    expect((await kept('/api/aps/auth/token')).status).toBe(401)
  })

  it('refuses anything else with 403 and a plain-text reason, leaving the session as it was', async () => {
    const { url } = await start()
    const client = await signIn(url)
    for (const headers of [
      {},
      { 'x-xsrf-token': 'forged' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'none' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    ] as Record<string, string>[]) {
      const label = JSON.stringify(headers)
      const response = await client('/api/aps/auth/logout', { headers })
      expect(response.status, label).toBe(403)
      expect(response.headers.get('content-type'), label).toMatch(/^text\/plain/)
      const text = await response.text()
      expect(text, label).toMatch(/not allowed|only the BOQ app/i)
      expect(text, label).not.toContain('evil')
      expect(
        client.lastSetCookie.some((l) => l.startsWith('boq_session')),
        label,
      ).toBe(false)
    }
    expect((await client('/api/aps/auth/token')).status).toBe(200)
    expect((await client('/api/aps/hubs')).status).toBe(200)
  })
})
