import { rm } from 'node:fs/promises'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeFakeDist } from '../testing/fake-dist.ts'
import { staticFiles } from './static-files.ts'

// The built app's files in process: what the build wrote compressed beside a file is sent when the
// browser asks for that encoding (over HTTP with the whole server: routes.test.ts).

const SCRIPT = `console.log(${JSON.stringify('a line the compressor shortens '.repeat(200))})`

let distDir: string
let app: Hono
beforeAll(async () => {
  distDir = await makeFakeDist('boq-static-', {
    'app-1234.js': SCRIPT,
    'app-1234.js.gz': gzipSync(SCRIPT),
    'app-1234.js.br': brotliCompressSync(SCRIPT),
    'plain-1234.js': 'console.log(2)',
  })
  app = new Hono()
  app.use('*', staticFiles(distDir))
})
afterAll(async () => {
  await rm(distDir, { recursive: true, force: true })
})

const get = async (path: string, acceptEncoding?: string) => {
  const response = await app.request(path, {
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  })
  return { response, body: Buffer.from(await response.arrayBuffer()) }
}

describe('the built app, compressed', () => {
  it('sends a file gzip-encoded to a browser that asks for gzip: the same bytes once decoded', async () => {
    const { response, body } = await get('/assets/app-1234.js', 'gzip, deflate')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-encoding')).toBe('gzip')
    expect(response.headers.get('content-type')).toMatch(/javascript/)
    expect(response.headers.get('vary')).toMatch(/accept-encoding/i)
    expect(response.headers.get('cache-control')).toMatch(/immutable/)
    expect(body.byteLength).toBeLessThan(SCRIPT.length / 4)
    expect(gunzipSync(body).toString()).toBe(SCRIPT)
  })

  it('prefers brotli when the browser takes both', async () => {
    const { response, body } = await get('/assets/app-1234.js', 'gzip, deflate, br, zstd')
    expect(response.headers.get('content-encoding')).toBe('br')
    expect(brotliDecompressSync(body).toString()).toBe(SCRIPT)
  })

  it('sends the file as it is when the browser asks for no encoding it has', async () => {
    for (const acceptEncoding of [undefined, 'identity', 'deflate']) {
      const { response, body } = await get('/assets/app-1234.js', acceptEncoding)
      expect(response.headers.get('content-encoding'), acceptEncoding).toBeNull()
      expect(response.headers.get('vary'), acceptEncoding).toMatch(/accept-encoding/i)
      expect(body.toString(), acceptEncoding).toBe(SCRIPT)
    }
  })

  it('sends a file the build did not compress as it is, whatever the browser takes', async () => {
    const { response, body } = await get('/assets/plain-1234.js', 'gzip, br')
    expect(response.headers.get('content-encoding')).toBeNull()
    expect(body.toString()).toBe('console.log(2)')
  })
})
