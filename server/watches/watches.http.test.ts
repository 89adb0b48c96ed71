import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Job, JobListSchema } from '#contract/jobs.ts'
import { type Watch, WatchListSchema, WatchSchema } from '#contract/watches.ts'
import { decodeId } from '../cloud/local/ids.ts'
import { localCloudRoot } from '../cloud/local/local-cloud.ts'
import { loadConfig } from '../config.ts'
import { FIXTURES } from '../testing/boq/fixtures.ts'
import type { TestClient } from '../testing/client.ts'
import { type DrawingRef, findDrawing, makeSeedDir } from '../testing/jobs/drawings.ts'
import { createFakeExtractor } from '../testing/jobs/fakes.ts'
import { severalUsersBackends } from '../testing/jobs/several-users.ts'
import { waitFor } from '../testing/jobs/wait.ts'
import { startTestServer, type TestServer } from '../testing/start-test-server.ts'

// Watched folders in local mode over real HTTP: real sign-in, the local cloud on disk, files
// dropped into a watched folder by hand with nobody listing it, the poller looking every second.
// The engine is the fake one (the bill's figures are not what is tested here).

let server: TestServer
let seedDir: string
let ann: TestClient
let bob: TestClient
let drawing: DrawingRef
let folderOnDisk: string
const engine = createFakeExtractor()

beforeAll(async () => {
  seedDir = await makeSeedDir(['example_2018.dwg'])
  const dataDir = join(seedDir, 'data')
  const config = loadConfig({ BOQ_DATA_DIR: dataDir, BOQ_USER_NAME: 'Test User', BOQ_SEED_DIR: '' })
  const users = severalUsersBackends(config)
  server = await startTestServer({
    dataDir,
    seed: seedDir,
    env: { BOQ_WATCH_POLL_SECONDS: '1', BOQ_MAX_QUEUED_PER_USER: '2', BOQ_WORKERS: '1' },
    backends: users.backends,
    extractor: engine.extractor,
  })
  ann = await users.signInAs(server.url, 'ann')
  bob = await users.signInAs(server.url, 'bob')
  drawing = await findDrawing(ann.json, 'example_2018.dwg')
  folderOnDisk = join(
    localCloudRoot(dataDir),
    ...(decodeId('folder', drawing.folderId) ?? '').split('/'),
  )
}, 60_000)

afterAll(async () => {
  await server?.close()
  await rm(seedDir, { recursive: true, force: true })
})

const post = (client: TestClient, body: unknown) =>
  client('/api/boq/watches', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

async function jobsOf(client: TestClient): Promise<Job[]> {
  return v.parse(JobListSchema, await client.json('/api/boq/jobs')).data
}

async function watchesOf(client: TestClient): Promise<Watch[]> {
  return v.parse(WatchListSchema, await client.json('/api/boq/watches')).data
}

/** Waits until the watch has started `count` jobs and all of them have ended. */
function watchJobsEnded(client: TestClient, watchId: string, count: number): Promise<Job[]> {
  return waitFor(
    async () => {
      const jobs = (await jobsOf(client)).filter((job) => job.watchId === watchId)
      return jobs.length === count && jobs.every((job) => job.status === 'succeeded') && jobs
    },
    `${count} succeeded jobs of the watch`,
    30_000,
  )
}

describe('watched folders (local cloud)', () => {
  let watch: Watch

  it('refuses a watch without sign-in, with a bad body, or on a folder the person cannot see', async () => {
    const anonymous = await fetch(`${server.url}/api/boq/watches`)
    expect(anonymous.status).toBe(401)
    const bad = await post(ann, { projectId: drawing.projectId })
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('fileFolderId')
    const unseen = await post(ann, {
      projectId: drawing.projectId,
      fileFolderId: `${drawing.folderId}nope`,
    })
    expect(unseen.status).toBe(404)
    expect(await watchesOf(ann)).toEqual([])
  })

  it('watches a folder: 201 with the watch, listed; the drawings already there get no job', async () => {
    const response = await post(ann, {
      projectId: drawing.projectId,
      fileFolderId: drawing.folderId,
      units: { system: 'metric' },
    })
    expect(response.status).toBe(201)
    watch = v.parse(WatchSchema, await response.json())
    expect(watch).toMatchObject({
      projectId: drawing.projectId,
      fileFolderId: drawing.folderId,
      state: 'active',
      pausedReason: null,
      units: { system: 'metric' },
      consentUrl: null,
    })
    expect(watch.folder.hubId).toBe(drawing.hubId)
    expect((await watchesOf(ann)).map((w) => w.id)).toEqual([watch.id])
    // Watching the same folder again answers the same watch.
    const again = await post(ann, { projectId: drawing.projectId, fileFolderId: drawing.folderId })
    expect(again.status).toBe(200)
    expect(((await again.json()) as Watch).id).toBe(watch.id)
    // Another person sees none of it.
    expect(await watchesOf(bob)).toEqual([])
  })

  it('a drawing dropped into the folder by hand gets its job in the owner’s name, with the watch’s units', async () => {
    await writeFile(join(folderOnDisk, 'dropped.dwg'), 'first version')
    const [job] = await watchJobsEnded(ann, watch.id, 1)
    expect(job).toMatchObject({
      fileName: 'dropped.dwg',
      fileVersionNumber: 1,
      units: { system: 'metric' },
      watchId: watch.id,
      status: 'succeeded',
    })
    expect(job?.result?.comparedWith).toBeNull()
    // The bill written back beside it is not a drawing: it starts nothing.
    expect(await readdir(folderOnDisk)).toContain('dropped BOQ.xlsx')
    expect(engine.seen.filter((name) => name === 'example_2018.dwg')).toEqual([])
  })

  it('a new version of it gets a job whose bill is compared with the previous version’s', async () => {
    await writeFile(join(folderOnDisk, 'dropped.dwg'), 'second version, longer')
    const jobs = await watchJobsEnded(ann, watch.id, 2)
    const second = jobs.find((job) => job.fileVersionNumber === 2)
    expect(second?.result?.comparedWith).toMatchObject({ versionNumber: 1 })
    expect(second?.result?.changedLines).toBe(1)
    expect(engine.seen.filter((name) => name === 'dropped.dwg')).toHaveLength(2)
  })

  it('a drawing uploaded into the folder gets its job too', async () => {
    const body = new FormData()
    body.set('projectId', drawing.projectId)
    body.set('folderId', drawing.folderId)
    const bytes = await readFile(join(FIXTURES, 'sample_2018.dwg'))
    body.set('file', new Blob([bytes]), 'uploaded.dwg')
    const uploaded = await ann('/api/local/upload', { method: 'POST', body })
    expect(uploaded.status).toBe(201)
    const jobs = await watchJobsEnded(ann, watch.id, 3)
    expect(jobs.map((job) => job.fileName)).toContain('uploaded.dwg')
  })

  it('many drawings at once are all queued within the person’s job limit, none dropped', async () => {
    const release = engine.hold()
    try {
      for (let i = 0; i < 5; i++)
        await writeFile(join(folderOnDisk, `batch-${i}.dwg`), `batch ${i}`)
      // Two run or wait (the limit), the three others wait for a place.
      await waitFor(async () => (await watchesOf(ann))[0]?.waiting === 3, 'three versions waiting')
      const active = (await jobsOf(ann)).filter(
        (job) => job.status === 'queued' || job.status === 'running',
      )
      expect(active).toHaveLength(2)
    } finally {
      release()
    }
    await watchJobsEnded(ann, watch.id, 8)
    expect((await watchesOf(ann))[0]?.waiting).toBe(0)
  })

  it('ends a watch: 204, another person’s is a 404, and new drawings start nothing', async () => {
    const foreign = await bob(`/api/boq/watches/${watch.id}`, { method: 'DELETE' })
    expect(foreign.status).toBe(404)
    const ended = await ann(`/api/boq/watches/${watch.id}`, { method: 'DELETE' })
    expect(ended.status).toBe(204)
    expect(await watchesOf(ann)).toEqual([])
    const before = (await jobsOf(ann)).length
    await writeFile(join(folderOnDisk, 'after.dwg'), 'not watched')
    // The drawing is listed (and recorded) by the tree; a poller still running would queue it.
    await findDrawing(ann.json, 'after.dwg')
    await new Promise((resolve) => setTimeout(resolve, 2500))
    expect((await jobsOf(ann)).length).toBe(before)
  })
})
