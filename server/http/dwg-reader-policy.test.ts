import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeFakeDist } from '../testing/fake-dist.ts'
import { startTestServer, type TestServer } from '../testing/start-test-server.ts'

// The drawing view's DWG reader is a worker whose script runs LibreDWG's WebAssembly bindings:
// that one script may compile code, nothing else the server answers may.

let distDir: string
let server: TestServer
beforeAll(async () => {
  distDir = await makeFakeDist('boq-dist-', {
    'dwg-parser.worker-C_HCrTL9.js': 'self.x = 1',
    'index-C_HCrTL9.js': 'console.log(1)',
  })
  server = await startTestServer({ config: { distDir } })
})
afterAll(async () => {
  await server.close()
  await rm(distDir, { recursive: true, force: true })
})

async function scriptSrc(path: string): Promise<string[]> {
  const response = await fetch(new URL(path, server.url))
  const header = response.headers.get('content-security-policy') ?? ''
  const directive = header.split(';').map((part) => part.trim().split(/\s+/))
  return directive.find(([name]) => name === 'script-src')?.slice(1) ?? []
}

describe('the DWG reader worker’s policy', () => {
  it('lets the built DWG reader worker compile code and WebAssembly', async () => {
    expect(await scriptSrc('/assets/dwg-parser.worker-C_HCrTL9.js')).toEqual([
      "'self'",
      "'unsafe-eval'",
      "'wasm-unsafe-eval'",
    ])
  })

  it('keeps every other answer to scripts of its own, without eval', async () => {
    for (const path of ['/', '/jobs/x', '/assets/index-C_HCrTL9.js', '/api/aps/hubs']) {
      expect(await scriptSrc(path), path).toEqual(["'self'"])
    }
    // Only that file name, in assets/, counts.
    expect(await scriptSrc('/dwg-parser.worker-C_HCrTL9.js')).toEqual(["'self'"])
    expect(await scriptSrc('/assets/dwg-parser.worker-C_HCrTL9.js.map')).toEqual(["'self'"])
  })
})
