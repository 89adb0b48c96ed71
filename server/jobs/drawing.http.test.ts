import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Boq } from '../../contract/boq.ts'
import {
  decodeGeometry,
  GEOMETRY_CONTENT_TYPE,
  geometryCounts,
} from '../../contract/drawing-geometry.ts'
import type { Job } from '../../contract/jobs.ts'
import { FIXTURES } from '../boq/testing/fixtures.ts'
import type { TestClient } from '../testing/client.ts'
import type { TestServer } from '../testing/start-test-server.ts'
import { type DrawingRef, findDrawing, makeSeedDir } from './testing/drawings.ts'
import { extractBody, postExtract, waitForJob } from './testing/jobs-api.ts'
import { startSeveralUsersServer } from './testing/several-users.ts'

// A job's drawing and its geometry over real HTTP on loopback: real sign-in, the local cloud seeded with a sample
// fixture, a real job.

let server: TestServer
let seedDir: string
let ann: TestClient
let bob: TestClient
let drawing: DrawingRef
let job: Job

beforeAll(async () => {
  seedDir = await makeSeedDir(['example_2018.dwg'])
  const started = await startSeveralUsersServer('boq-drawing-http-', seedDir, { BOQ_WORKERS: '1' })
  server = started.server
  ann = await started.signInAs(server.url, 'ann')
  bob = await started.signInAs(server.url, 'bob')
  drawing = await findDrawing(ann.json, 'example_2018.dwg')
  const response = await postExtract(ann, extractBody(drawing))
  job = await waitForJob(ann, ((await response.json()) as Job).id)
}, 60_000)

afterAll(async () => {
  await server?.close()
  await rm(server?.dataDir ?? '', { recursive: true, force: true })
  await rm(seedDir, { recursive: true, force: true })
})

describe('GET /api/boq/jobs/{id}/drawing over HTTP', () => {
  it('answers the bytes of the drawing version the job read, to its owner', async () => {
    const path = `/api/boq/jobs/${job.id}/drawing`
    const response = await ann(path, { headers: { 'accept-encoding': 'identity' } })
    expect(response.status).toBe(200)
    const expected = await readFile(join(FIXTURES, 'example_2018.dwg'))
    expect(Buffer.from(await response.arrayBuffer()).equals(expected)).toBe(true)
    expect(response.headers.get('content-type')).toBe('application/acad')
    expect(response.headers.get('content-length')).toBe(String(expected.byteLength))
    expect(response.headers.get('cache-control')).toMatch(/^private, max-age=[1-9]\d*$/)
    // A DWG is compressed inside already: sent as it is, even to a client that takes gzip.
    const asked = await ann(path, { headers: { 'accept-encoding': 'gzip' } })
    expect(asked.headers.get('content-encoding')).toBeNull()
    expect(Buffer.from(await asked.arrayBuffer()).equals(expected)).toBe(true)
  })

  it("answers 404 in plain text for another user's job, and 401 without a session", async () => {
    const other = await bob(`/api/boq/jobs/${job.id}/drawing`)
    expect(other.status).toBe(404)
    expect(other.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await other.text()).toBe('There is no such job.')
    const anonymous = await fetch(new URL(`/api/boq/jobs/${job.id}/drawing`, server.url))
    expect(anonymous.status).toBe(401)
  })
})

describe('GET /api/boq/jobs/{id}/geometry over HTTP', () => {
  it("answers the geometry built with the job's bill, holding every handle the bill names", async () => {
    expect(job.result?.geometryUrl).toBe(`/api/boq/jobs/${job.id}/geometry`)
    const response = await ann(job.result?.geometryUrl ?? '')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(GEOMETRY_CONTENT_TYPE)
    // fetch takes gzip and undoes it.
    expect(response.headers.get('content-encoding')).toBe('gzip')
    const geometry = decodeGeometry(await response.arrayBuffer())
    const bill = (await (await ann(job.result?.jsonUrl ?? '')).json()) as Boq
    const named = bill.bill.flatMap((line) => line.breakdown.flatMap((row) => row.handles))
    const drawn = new Set(geometry.handles)
    expect(named.filter((handle) => !drawn.has(handle))).toEqual([])
    expect(geometryCounts(geometry).paths).toBeGreaterThan(0)
  })

  it("answers 404 in plain text for another user's job, and 401 without a session", async () => {
    const other = await bob(`/api/boq/jobs/${job.id}/geometry`)
    expect(other.status).toBe(404)
    expect(await other.text()).toBe('There is no such job.')
    const anonymous = await fetch(new URL(`/api/boq/jobs/${job.id}/geometry`, server.url))
    expect(anonymous.status).toBe(401)
  })
})
