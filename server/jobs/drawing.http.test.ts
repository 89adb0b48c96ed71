import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Boq } from '#contract/boq.ts'
import {
  decodeGeometry,
  GEOMETRY_CONTENT_TYPE,
  geometryCounts,
} from '#contract/drawing-geometry.ts'
import type { Job } from '#contract/jobs.ts'
import type { TestClient } from '../testing/client.ts'
import { type DrawingRef, findDrawing, makeSeedDir } from '../testing/jobs/drawings.ts'
import { extractBody, postExtract, waitForJob } from '../testing/jobs/jobs-api.ts'
import { startSeveralUsersServer } from '../testing/jobs/several-users.ts'
import type { TestServer } from '../testing/start-test-server.ts'

// A job's geometry over real HTTP on loopback: real sign-in, the local cloud seeded with sample
// fixtures, real jobs and the real engine; a job recorded without geometry is one whose kept
// geometry file is removed.

let server: TestServer
let seedDir: string
let ann: TestClient
let bob: TestClient
let drawing: DrawingRef
let job: Job
let other: Job

beforeAll(async () => {
  seedDir = await makeSeedDir(['example_2018.dwg', 'sample_2018.dwg'])
  const started = await startSeveralUsersServer('boq-drawing-http-', seedDir, { BOQ_WORKERS: '1' })
  server = started.server
  ann = await started.signInAs(server.url, 'ann')
  bob = await started.signInAs(server.url, 'bob')
  drawing = await findDrawing(ann.json, 'example_2018.dwg')
  const response = await postExtract(ann, extractBody(drawing))
  job = await waitForJob(ann, ((await response.json()) as Job).id)
  const small = await postExtract(ann, extractBody(await findDrawing(ann.json, 'sample_2018.dwg')))
  other = await waitForJob(ann, ((await small.json()) as Job).id)
}, 90_000)

afterAll(async () => {
  await server?.close()
  await rm(server?.dataDir ?? '', { recursive: true, force: true })
  await rm(seedDir, { recursive: true, force: true })
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

describe('GET /api/boq/jobs/{id}/geometry of a job recorded without geometry, over HTTP', () => {
  const keptFile = (id: string) => join(server.dataDir, 'jobs', id, 'result.geometry')

  it('builds it from the drawing on the first request and keeps it; the next answers the kept one', async () => {
    const path = `/api/boq/jobs/${job.id}/geometry`
    const before = decodeGeometry(await (await ann(path)).arrayBuffer())
    await rm(keptFile(job.id))
    const shown = (await (await ann(`/api/boq/jobs/${job.id}`)).json()) as Job
    expect(shown.result?.geometryUrl).toBe(path)

    const built = await ann(path)
    expect(built.status).toBe(200)
    expect(built.headers.get('content-type')).toBe(GEOMETRY_CONTENT_TYPE)
    const geometry = decodeGeometry(await built.arrayBuffer())
    expect(geometry.handles).toEqual(before.handles)
    expect(geometryCounts(geometry)).toEqual(geometryCounts(before))
    const kept = await stat(keptFile(job.id))

    const again = await ann(path)
    expect(again.status).toBe(200)
    expect(decodeGeometry(await again.arrayBuffer()).handles).toEqual(before.handles)
    // Read, not built and written again.
    expect((await stat(keptFile(job.id))).mtimeMs).toBe(kept.mtimeMs)
  }, 60_000)

  it('answers 404 with a plain reason when the drawing is no longer in the cloud, keeping nothing', async () => {
    await rm(keptFile(other.id))
    for (const file of await cloudFiles(join(server.dataDir, 'cloud'), 'sample_2018.dwg')) {
      await rm(file)
    }
    const response = await ann(`/api/boq/jobs/${other.id}/geometry`)
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await response.text()).toBe(
      'The drawing version this job read is no longer in the cloud, so it cannot be drawn.',
    )
    await expect(stat(keptFile(other.id))).rejects.toMatchObject({ code: 'ENOENT' })
  })
})

/** Every file named `name` under `dir`. */
async function cloudFiles(dir: string, name: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries.filter((e) => e.isFile() && e.name === name).map((e) => join(e.parentPath, e.name))
}
