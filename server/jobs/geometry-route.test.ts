import type { Hono } from 'hono'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { decodeGeometry, GEOMETRY_CONTENT_TYPE } from '#contract/drawing-geometry.ts'
import type { Job } from '#contract/jobs.ts'
import { contextFor, createFakeCloud, createFakeExtractor } from '../testing/jobs/fakes.ts'
import { jobsRoutesApp } from '../testing/jobs/routes-app.ts'
import { openTempJobStore } from '../testing/jobs/temp-store.ts'
import { geometryBuilds } from './geometry-builds.ts'
import type { JobStore } from './types.ts'

// GET /jobs/{id}/geometry for a job kept without geometry, in process (the user comes from a
// header, errors map as server/http does, a fake engine); over real HTTP with the real engine in
// drawing.http.test.ts.

let store: JobStore
let app: Hono
let cloud: ReturnType<typeof createFakeCloud>
let engine: ReturnType<typeof createFakeExtractor>

const MAX_BYTES = 1024 * 1024

beforeEach(async () => {
  store = await openTempJobStore('boq-geometry-route-')
  cloud = createFakeCloud()
  cloud.addDrawing('s1', new TextEncoder().encode('AC1032 a drawing'))
  cloud.addDrawing('damaged', new TextEncoder().encode('CORRUPT'))
  cloud.addDrawing('undrawable', new TextEncoder().encode('NOGEOMETRY'))
  cloud.addDrawing('big', new Uint8Array(2 * MAX_BYTES))
  engine = createFakeExtractor()
  const options = { store, cloud: cloud.cloud, maxFileBytes: MAX_BYTES, maxQueuedPerUser: 5 }
  app = jobsRoutesApp({
    ...options,
    geometries: geometryBuilds({ ...options, extractor: engine.extractor }),
  })
})

afterEach(async () => {
  await store.close()
})

/** A succeeded job of the user's, recorded as before geometry was kept: none with its results. */
async function oldJob(user: string, fileStorageId: string): Promise<Job> {
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
  await store.claim()
  const bytes = new Uint8Array(1)
  await store.succeed(
    job.id,
    { fileName: 'plan BOQ.xlsx', itemId: 'i1', versionNumber: 1, jsonKept: true },
    { xlsx: bytes, csv: bytes, json: bytes },
  )
  return (await (await get(`/api/boq/jobs/${job.id}`, user)).json()) as Job
}

const get = (path: string, user?: string) =>
  app.request(path, { headers: user ? { 'x-user': user } : {} })

describe('GET /api/boq/jobs/{id}/geometry of a job kept without it', () => {
  it('builds it from the drawing on the first request and keeps it; the next reads the kept one', async () => {
    const job = await oldJob('ann', 's1')
    expect(job.result?.geometryUrl).toBe(`/api/boq/jobs/${job.id}/geometry`)
    expect(await store.readResult(job.id, 'geometry')).toBeUndefined()

    const first = await get(job.result?.geometryUrl ?? '', 'ann')
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe(GEOMETRY_CONTENT_TYPE)
    expect(first.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/)
    expect(decodeGeometry(await first.arrayBuffer()).handles).toEqual(['A1'])
    expect(engine.geometries).toBe(1)
    expect(await store.readResult(job.id, 'geometry')).toBeDefined()

    const second = await get(job.result?.geometryUrl ?? '', 'ann')
    expect(decodeGeometry(await second.arrayBuffer()).handles).toEqual(['A1'])
    expect(engine.geometries).toBe(1)
  })

  it('builds once for requests that arrive while it is being built', async () => {
    const job = await oldJob('ann', 's1')
    const release = engine.hold()
    const answers = Promise.all([1, 2, 3].map(() => get(job.result?.geometryUrl ?? '', 'ann')))
    // Each request reaches the build before it is let go.
    while (engine.geometries === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    await new Promise((resolve) => setTimeout(resolve, 20))
    release()
    for (const answer of await answers) {
      expect(answer.status).toBe(200)
      expect(decodeGeometry(await answer.arrayBuffer()).handles).toEqual(['A1'])
    }
    expect(engine.geometries).toBe(1)
  })

  it('answers 404 with a plain reason when the drawing version is gone, keeping nothing', async () => {
    const job = await oldJob('ann', 'gone')
    const response = await get(job.result?.geometryUrl ?? '', 'ann')
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await response.text()).toBe(
      'The drawing version this job read is no longer in the cloud, so it cannot be drawn.',
    )
    expect(await store.readResult(job.id, 'geometry')).toBeUndefined()
  })

  it('answers 422 with a plain reason for a drawing that cannot be read or drawn, keeping nothing', async () => {
    const damaged = await oldJob('ann', 'damaged')
    const response = await get(damaged.result?.geometryUrl ?? '', 'ann')
    expect(response.status).toBe(422)
    expect(await response.text()).toBe(
      'The drawing this job read can no longer be read: The drawing is damaged and cannot be read.',
    )
    expect(await store.readResult(damaged.id, 'geometry')).toBeUndefined()

    const undrawable = await oldJob('ann', 'undrawable')
    const again = await get(undrawable.result?.geometryUrl ?? '', 'ann')
    expect(again.status).toBe(422)
    expect(await again.text()).toMatch(/could not be drawn/)
    expect(await store.readResult(undrawable.id, 'geometry')).toBeUndefined()
  })

  it('refuses a drawing above the size limit with 413, keeping nothing', async () => {
    const job = await oldJob('ann', 'big')
    const response = await get(job.result?.geometryUrl ?? '', 'ann')
    expect(response.status).toBe(413)
    expect(await response.text()).toMatch(/The drawing is 2\.0 MB; the largest .* is 1\.0 MB/)
    expect(engine.geometries).toBe(0)
  })

  it("answers 404 for another user's job, for a job without a result and an unknown id; 401 without a session", async () => {
    const job = await oldJob('ann', 's1')
    const other = await get(`/api/boq/jobs/${job.id}/geometry`, 'bob')
    expect(other.status).toBe(404)
    expect(await other.text()).toBe('There is no such job.')
    const { job: queued } = await store.submit(
      {
        fileName: 'plan.dwg',
        projectId: 'p1',
        fileFolderId: 'f1',
        fileStorageId: 's2',
        context: contextFor('ann'),
      },
      { maxActivePerUser: 5 },
    )
    const pending = await get(`/api/boq/jobs/${queued.id}/geometry`, 'ann')
    expect(pending.status).toBe(404)
    expect(await pending.text()).toBe('This job has no result yet.')
    expect((await get('/api/boq/jobs/nope/geometry', 'ann')).status).toBe(404)
    expect((await get(`/api/boq/jobs/${job.id}/geometry`)).status).toBe(401)
    expect(engine.geometries).toBe(0)
  })
})
