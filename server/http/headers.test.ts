import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient, signIn, type TestClient } from '../testing/client.ts'
import { makeFakeDist } from '../testing/fake-dist.ts'
import { startTestServer, type TestServer } from '../testing/start-test-server.ts'

let distDir: string
let server: TestServer
let client: TestClient
beforeAll(async () => {
  distDir = await makeFakeDist('boq-dist-', { 'app-1234.js': 'console.log(1)' })
  server = await startTestServer({ config: { distDir } })
  client = await signIn(server.url)
})
afterAll(async () => {
  await server.close()
  await rm(distDir, { recursive: true, force: true })
})

/** Directive name → its sources. */
function policy(response: Response): Map<string, string[]> {
  const header = response.headers.get('content-security-policy') ?? ''
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name = '', ...sources]) => [name, sources]),
  )
}

function expectSecurityHeaders(response: Response, label: string): void {
  expect(response.headers.get('x-content-type-options'), label).toBe('nosniff')
  expect(response.headers.get('x-frame-options'), label).toBe('DENY')
  expect(response.headers.get('referrer-policy'), label).toBe('no-referrer')
  const csp = policy(response)
  expect(csp.get('frame-ancestors'), label).toEqual(["'none'"])
  expect(csp.get('default-src'), label).toEqual(["'self'"])
}

describe('security headers on every answer', () => {
  it('on API answers', async () => {
    for (const path of ['/api/aps/hubs', '/api/aps/auth/token', '/api/aps/auth/profile']) {
      const response = await client(path)
      expect(response.status, path).toBe(200)
      expectSecurityHeaders(response, path)
    }
  })

  it('on error answers (401, 403, 404) and the history fallback', async () => {
    const anonymous = createClient(server.url)
    const answers = [
      ['401', await anonymous('/api/aps/hubs'), 401],
      [
        '403',
        await client('/api/boq/extract', { method: 'POST', headers: { 'x-xsrf-token': 'x' } }),
        403,
      ],
      ['404 /api', await client('/api/nope'), 404],
      ['404 asset', await client('/assets/gone-9999.js'), 404],
      ['app page', await client('/home'), 200],
    ] as const
    for (const [label, response, status] of answers) {
      expect(response.status, label).toBe(status)
      expectSecurityHeaders(response, label)
    }
  })

  it('on the built app’s files, with a policy the app lives within', async () => {
    const asset = await client('/assets/app-1234.js')
    expect(asset.status).toBe(200)
    expectSecurityHeaders(asset, 'asset')
    const page = await client('/')
    expectSecurityHeaders(page, 'index.html')
    const csp = policy(page)
    // Scripts and stylesheets are files of the app's own; no inline code, no eval.
    expect(csp.get('script-src')).toEqual(["'self'"])
    expect(csp.get('style-src')).toEqual(["'self'"])
    // Images: its own, the local avatar (data:) and Autodesk's profile picture (https:).
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'https:'])
    expect(csp.get('connect-src')).toEqual(["'self'"])
    expect(csp.get('object-src')).toEqual(["'none'"])
  })
})

describe('in Autodesk mode', () => {
  it('also allows images from an http: APS_BASE_URL (the fake Autodesk serves the profile picture)', async () => {
    const aps = await startTestServer({
      config: { distDir },
      env: {
        APS_CLIENT_ID: 'id',
        APS_CLIENT_SECRET: 'secret',
        APS_CALLBACK_URL: 'http://127.0.0.1:9/api/aps/auth/callback',
        APS_BASE_URL: 'http://127.0.0.1:9/aps',
      },
    })
    try {
      const page = await fetch(`${aps.url}/`)
      expect(policy(page).get('img-src')).toEqual([
        "'self'",
        'data:',
        'https:',
        'http://127.0.0.1:9',
      ])
    } finally {
      await aps.close()
    }
  })
})
