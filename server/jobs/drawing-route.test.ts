import { gunzipSync } from 'node:zlib'
import type { Hono } from 'hono'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { contextFor, createFakeCloud } from './testing/fakes.ts'
import { jobsRoutesApp } from './testing/routes-app.ts'
import { openTempJobStore } from './testing/temp-store.ts'
import type { JobStore } from './types.ts'

// GET /jobs/{id}/drawing on its own, in process (the user comes from a header, errors map as
// server/http does); over real HTTP with real sign-in in drawing.http.test.ts.

let store: JobStore
let app: Hono
let fake: ReturnType<typeof createFakeCloud>

const drawing = new Uint8Array([0x41, 0x43, 0x31, 0x30, 0x33, 0x32, 1, 2, 3])
const dxf = new TextEncoder().encode(
  `  0\nSECTION\n  2\nENTITIES\n${'  0\nLINE\n  8\n0\n 10\n0\n 20\n0\n 11\n1\n 21\n1\n'.repeat(200)}  0\nENDSEC\n  0\nEOF\n`,
)

beforeEach(async () => {
  store = await openTempJobStore('boq-drawing-route-')
  fake = createFakeCloud()
  fake.addDrawing('s1', drawing)
  fake.addDrawing('text', dxf)
  fake.addDrawing('big', new Uint8Array(2 * 1024 * 1024))
  app = jobsRoutesApp({
    store,
    cloud: fake.cloud,
    maxFileBytes: 1024 * 1024,
    maxQueuedPerUser: 5,
  })
})

afterEach(async () => {
  await store.close()
})

async function jobOf(user: string, fileStorageId: string) {
  const { job } = await store.submit(
    {
      fileName: 'plan.dwg',
      projectId: 'p1',
      fileFolderId: 'f1',
      fileStorageId,
      context: contextFor(user),
    },
    { maxActivePerUser: 5 },
  )
  return job
}

const get = (path: string, user?: string) =>
  app.request(path, { headers: user ? { 'x-user': user } : {} })

describe('GET /api/boq/jobs/{id}/drawing', () => {
  it('answers the bytes of the version the job read, kept privately by the browser', async () => {
    const job = await jobOf('ann', 's1')
    const response = await get(`/api/boq/jobs/${job.id}/drawing`, 'ann')
    expect(response.status).toBe(200)
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(drawing)
    expect(response.headers.get('content-type')).toBe('application/acad')
    expect(response.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/)
    expect(response.headers.get('content-disposition')).toContain('filename="plan.dwg"')
  })

  it('answers a DXF as DXF, compressed for a browser that takes gzip and not for one that does not', async () => {
    const job = await jobOf('ann', 'text')
    const path = `/api/boq/jobs/${job.id}/drawing`
    const plain = await app.request(path, { headers: { 'x-user': 'ann' } })
    expect(plain.headers.get('content-type')).toBe('image/vnd.dxf')
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(new Uint8Array(await plain.arrayBuffer())).toEqual(dxf)
    const zipped = await app.request(path, {
      headers: { 'x-user': 'ann', 'accept-encoding': 'gzip, deflate' },
    })
    expect(zipped.headers.get('content-type')).toBe('image/vnd.dxf')
    expect(zipped.headers.get('content-encoding')).toBe('gzip')
    expect(zipped.headers.get('vary')).toMatch(/accept-encoding/i)
    const body = Buffer.from(await zipped.arrayBuffer())
    expect(body.byteLength).toBeLessThan(dxf.byteLength / 10)
    expect(new Uint8Array(gunzipSync(body))).toEqual(dxf)
  })

  it("answers 404 for another user's job and for an unknown id, 401 without a session", async () => {
    const job = await jobOf('ann', 's1')
    const other = await get(`/api/boq/jobs/${job.id}/drawing`, 'bob')
    expect(other.status).toBe(404)
    expect(await other.text()).toBe('There is no such job.')
    expect((await get('/api/boq/jobs/nope/drawing', 'ann')).status).toBe(404)
    expect((await get(`/api/boq/jobs/${job.id}/drawing`)).status).toBe(401)
  })

  it('refuses a drawing above the size limit with 413 and a reason, without downloading it', async () => {
    const job = await jobOf('ann', 'big')
    const release = fake.holdDownloads()
    try {
      const response = await get(`/api/boq/jobs/${job.id}/drawing`, 'ann')
      expect(response.status).toBe(413)
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
      expect(await response.text()).toMatch(/The drawing is 2\.0 MB; the largest .* is 1\.0 MB/)
    } finally {
      release()
    }
  })

  it('answers the cloud’s refusal as plain text (a version no longer there)', async () => {
    const job = await jobOf('ann', 'gone')
    const response = await get(`/api/boq/jobs/${job.id}/drawing`, 'ann')
    expect(response.status).toBe(404)
    expect(await response.text()).toBe('No such file version.')
  })
})
