import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CloudResource, CloudResourceSchema } from '#contract/cloud.ts'
import { createClient, signIn, type TestClient } from '../testing/client.ts'
import { makeFakeDist } from '../testing/fake-dist.ts'
import { startTestServer, type TestServer } from '../testing/start-test-server.ts'

const INDEX = '<!doctype html><title>BOQ</title><div id="root"></div>'

let distDir: string
let server: TestServer
let client: TestClient
beforeAll(async () => {
  distDir = await makeFakeDist('boq-dist-', { 'app-1234.js': 'console.log(1)' }, INDEX)
  server = await startTestServer({ config: { distDir } })
  client = await signIn(server.url)
})
afterAll(async () => {
  await server.close()
  await rm(distDir, { recursive: true, force: true })
})

describe('the built app', () => {
  it('serves index.html at / and for every app path (history fallback)', async () => {
    for (const path of ['/', '/home', '/login', '/no/such/page']) {
      const response = await client(path)
      expect(response.status, path).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^text\/html/)
      expect(await response.text()).toBe(INDEX)
    }
  })

  it('serves assets with long caching and answers a missing asset with a plain 404', async () => {
    const asset = await client('/assets/app-1234.js')
    expect(asset.status).toBe(200)
    expect(asset.headers.get('content-type')).toMatch(/javascript/)
    expect(asset.headers.get('cache-control')).toMatch(/immutable/)
    const missing = await client('/assets/gone-9999.js')
    expect(missing.status).toBe(404)
    expect(missing.headers.get('content-type')).toMatch(/^text\/plain/)
  })

  it('does not serve files outside dist/', async () => {
    for (const path of [
      '/../package.json',
      '/%2e%2e/package.json',
      '/assets/..%2f..%2fpackage.json',
    ]) {
      const response = await client(path)
      expect(await response.text(), path).not.toContain('"name"')
    }
  })

  it('says so in plain text when the app is not built', async () => {
    const bare = await startTestServer({ config: { distDir: join(distDir, 'missing') } })
    try {
      const response = await fetch(`${bare.url}/home`)
      expect(response.status).toBe(503)
      expect(await response.text()).toMatch(/npm run build/)
    } finally {
      await bare.close()
    }
  })
})

describe('the API', () => {
  it('answers every unknown /api path with a plain-text 404 of fixed text', async () => {
    for (const [method, path] of [
      ['GET', '/api/nope'],
      ['GET', '/api/aps/hubs/x/y/z/w'],
      ['GET', '/api/'],
      ['POST', '/api/aps/hubs'],
      ['DELETE', '/api/aps/auth/profile'],
      ['GET', '/api/%3Cscript%3Ealert(1)%3C%2Fscript%3E'],
      ['GET', '/api/Your%20account%20is%20locked'],
    ] as const) {
      const response = await client(path, { method })
      expect(response.status, `${method} ${path}`).toBe(404)
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
      // Nothing of the request is repeated back.
      expect(await response.text()).toBe('Not found.')
    }
  })

  it('needs a session for every cloud call (401 in plain text)', async () => {
    const anonymous = createClient(server.url)
    for (const path of [
      '/api/aps/hubs',
      '/api/aps/hubs/b.x/projects',
      '/api/aps/hubs/b.x/projects/b.y/contents',
    ]) {
      const response = await anonymous(path)
      expect(response.status, path).toBe(401)
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    }
  })

  it('answers hubs, projects, contents and versions as bare arrays of resources', async () => {
    await mkdir(join(server.dataDir, 'cloud', 'Hub', 'Project', 'Folder'), { recursive: true })
    await writeFile(join(server.dataDir, 'cloud', 'Hub', 'Project', 'Folder', 'plan.dwg'), 'AC1032')
    const list = async (path: string) => {
      const response = await client(path)
      expect(response.status, path).toBe(200)
      expect(response.headers.get('content-type'), path).toMatch(/^application\/json/)
      const body: unknown = await response.json()
      expect(Array.isArray(body), `${path} answers an array`).toBe(true)
      const resources = v.parse(v.array(CloudResourceSchema), body)
      expect(resources, path).toHaveLength(1)
      return resources[0] as CloudResource
    }
    const e = encodeURIComponent
    const hub = await list('/api/aps/hubs')
    const project = await list(`/api/aps/hubs/${e(hub.id)}/projects`)
    const contents = `/api/aps/hubs/${e(hub.id)}/projects/${e(project.id)}/contents`
    const folder = await list(contents)
    const item = await list(`${contents}?folder_id=${e(folder.id)}`)
    const version = await list(`${contents}/${e(item.id)}/versions`)
    expect([hub, project, folder, item, version].map((r) => r.type)).toEqual([
      'hubs',
      'projects',
      'folders',
      'items',
      'versions',
    ])
    expect(version.attributes.versionNumber).toBe(1)
  })
})
