import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Job } from '#contract/jobs.ts'
import { signIn, type TestClient } from '../testing/client.ts'
import { childServer } from '../testing/jobs/child-server.ts'
import { findDrawing, makeSeedDir } from '../testing/jobs/drawings.ts'
import { extractBody, postExtract, waitForJob } from '../testing/jobs/jobs-api.ts'
import { STOPPED_WHILE_EXTRACTING } from './failure.ts'

// The real server as a child process (`node server/main.ts`), killed with SIGKILL in the middle
// of jobs and started again on the same BOQ_DATA_DIR: no answered job is lost, none stays
// running, and a job the process died under is failed rather than run again.

let seedDir: string
let dataDir: string

const server = childServer(() => ({
  dataDir,
  seedDir,
  env: { BOQ_WORKERS: '1', BOQ_USER_NAME: 'Restart Tester' },
}))

async function start(): Promise<TestClient> {
  return signIn((await server.start()).url)
}

async function waitForStatus(client: TestClient, id: string, status: Job['status']) {
  const deadline = Date.now() + 20_000
  for (;;) {
    const job = await client.json<Job>(`/api/boq/jobs/${id}`)
    if (job.status === status) return job
    if (job.status === 'succeeded' || job.status === 'failed') {
      throw new Error(`job ended ${job.status} before it was seen ${status}`)
    }
    if (Date.now() > deadline) throw new Error(`job still ${job.status}, never ${status}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

beforeAll(async () => {
  seedDir = await makeSeedDir(['example_2018.dwg', 'example_2000.dwg'])
  dataDir = await mkdtemp(join(tmpdir(), 'boq-jobs-restart-'))
})

afterAll(async () => {
  // childServer stops every child after each test; this one is for the folders removed below.
  await server.stop()
  await rm(dataDir, { recursive: true, force: true })
  await rm(seedDir, { recursive: true, force: true })
})

describe('kill -9 in the middle of jobs', () => {
  it('keeps every answered job: the queued one runs after the restart, the running one is failed at once', async () => {
    let client = await start()
    const runningRef = await findDrawing(client.json, 'example_2018.dwg')
    const queuedRef = await findDrawing(client.json, 'example_2000.dwg')
    const running = (await (await postExtract(client, extractBody(runningRef))).json()) as Job
    // The first job of a fresh server waits for the engine to start: it is running for a while.
    await waitForStatus(client, running.id, 'running')
    const response = await postExtract(client, extractBody(queuedRef))
    expect(response.status).toBe(202)
    const queued = (await response.json()) as Job
    expect(queued.status).toBe('queued')
    await server.kill() // right after the 202

    client = await start()
    const failed = await waitForJob(client, running.id)
    expect(failed.status).toBe('failed')
    expect(failed.error).toBe(STOPPED_WHILE_EXTRACTING)
    const done = await waitForJob(client, queued.id)
    expect(done.status, done.error).toBe('succeeded')
    const list = await client.json<{ data: Job[] }>('/api/boq/jobs')
    expect(list.data.filter((j) => j.status === 'running' || j.status === 'queued')).toEqual([])

    // The failed drawing can be extracted again when the person asks.
    const retry = await postExtract(client, extractBody(runningRef))
    expect(retry.status).toBe(202)
    const again = await waitForJob(client, ((await retry.json()) as Job).id)
    expect(again.status, again.error).toBe('succeeded')

    // What the restart failed stays failed through the next restart.
    await server.kill()
    client = await start()
    expect(await client.json<Job>(`/api/boq/jobs/${running.id}`)).toMatchObject({
      status: 'failed',
      error: STOPPED_WHILE_EXTRACTING,
    })
  })

  it('leaves no job running on disk after a graceful stop (SIGTERM): queued again, or finished', async () => {
    let client = await start()
    const drawing = await findDrawing(client.json, 'example_2000.dwg')
    const job = (await (await postExtract(client, extractBody(drawing))).json()) as Job
    await waitForStatus(client, job.id, 'running')
    await server.stop() // SIGTERM, then waits for the exit
    const record = JSON.parse(await readFile(join(dataDir, 'jobs', job.id, 'job.json'), 'utf8'))
    expect(record.job.status).not.toBe('running')
    // A job put back is not counted as an interrupted attempt, and is run again, not failed.
    if (record.job.status === 'queued') expect(record.job.attempts).toBe(0)

    client = await start()
    const done = await waitForJob(client, job.id)
    expect(done.status, done.error).toBe('succeeded')
  })
})
