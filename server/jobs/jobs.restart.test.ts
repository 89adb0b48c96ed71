import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../e2e/support/server.ts'
import { signIn, type TestClient } from '../testing/client.ts'
import { findDrawing, makeSeedDir } from './testing/drawings.ts'
import { postExtract, waitForJob } from './testing/jobs-api.ts'
import type { JobJson } from './types.ts'

// The real server as a child process (`node server/main.ts`), killed with SIGKILL in the middle
// of jobs and started again on the same BOQ_DATA_DIR: no job is lost, none stays running.

let seedDir: string
let dataDir: string
let server: RunningServer | undefined

async function start(): Promise<{ server: RunningServer; client: TestClient }> {
  server = await startServer({
    dataDir,
    seedDir,
    env: { BOQ_WORKERS: '1', BOQ_USER_NAME: 'Restart Tester' },
  })
  return { server, client: await signIn(server.url) }
}

async function killHard(): Promise<void> {
  if (!server) return
  process.kill(server.pid, 'SIGKILL')
  await server.stop() // waits for the exit; keeps dataDir (the test owns it)
  server = undefined
}

async function waitForStatus(client: TestClient, id: string, status: JobJson['status']) {
  for (;;) {
    const job = await client.json<JobJson>(`/api/boq/jobs/${id}`)
    if (job.status === status) return job
    if (job.status === 'succeeded' || job.status === 'failed') {
      throw new Error(`job ended ${job.status} before it was seen ${status}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

beforeAll(async () => {
  seedDir = await makeSeedDir(['example_2018.dwg', 'sample_2018.dwg', 'example_2000.dwg'])
  dataDir = await mkdtemp(join(tmpdir(), 'boq-jobs-restart-'))
})

afterAll(async () => {
  await server?.stop()
  await rm(dataDir, { recursive: true, force: true })
  await rm(seedDir, { recursive: true, force: true })
})

const bodyOf = (ref: Awaited<ReturnType<typeof findDrawing>>) => ({
  fileName: ref.fileName,
  fileStorageId: ref.storageId,
  fileFolderId: ref.folderId,
  projectId: ref.projectId,
})

describe('kill -9 in the middle of jobs', () => {
  it('keeps an answered job even when killed right after the 202', async () => {
    const { client } = await start()
    const drawing = await findDrawing(client.json, 'sample_2018.dwg')
    const response = await postExtract(client, bodyOf(drawing))
    expect(response.status).toBe(202)
    const job = (await response.json()) as JobJson
    await killHard()

    const again = await start()
    const done = await waitForJob(again.client, job.id)
    expect(done.status).toBe('succeeded')
    await killHard()
  })

  it('re-runs the running job and runs the queued one after a restart; nothing stays running', async () => {
    const { client } = await start()
    const running = await findDrawing(client.json, 'example_2018.dwg')
    const queued = await findDrawing(client.json, 'example_2000.dwg')
    const first = (await (await postExtract(client, bodyOf(running))).json()) as JobJson
    const second = (await (await postExtract(client, bodyOf(queued))).json()) as JobJson
    await waitForStatus(client, first.id, 'running')
    expect((await client.json<JobJson>(`/api/boq/jobs/${second.id}`)).status).toBe('queued')
    await killHard()

    const again = await start()
    for (const id of [first.id, second.id]) {
      const done = await waitForJob(again.client, id)
      expect(done.status, done.error).toBe('succeeded')
    }
    const list = await again.client.json<{ data: JobJson[] }>('/api/boq/jobs')
    expect(list.data.filter((j) => j.status === 'running' || j.status === 'queued')).toEqual([])
    await killHard()
  })

  it('fails a job interrupted twice with a reason instead of retrying forever', async () => {
    let { client } = await start()
    const drawing = await findDrawing(client.json, 'example_2018.dwg')
    const job = (await (await postExtract(client, bodyOf(drawing))).json()) as JobJson
    await waitForStatus(client, job.id, 'running')
    await killHard()
    ;({ client } = await start())
    await waitForStatus(client, job.id, 'running')
    await killHard()

    ;({ client } = await start())
    const failed = await waitForJob(client, job.id)
    expect(failed.status).toBe('failed')
    expect(failed.error).toMatch(/server stopped while extracting this drawing \(2 times\)/)
    // The same drawing can be extracted again.
    const retry = await postExtract(client, bodyOf(drawing))
    expect(retry.status).toBe(202)
    expect((await waitForJob(client, ((await retry.json()) as JobJson).id)).status).toBe(
      'succeeded',
    )
  })

  it('leaves no job running on disk after a graceful stop (SIGTERM): queued again, or finished', async () => {
    let { client } = await start()
    const drawing = await findDrawing(client.json, 'example_2000.dwg')
    const job = (await (await postExtract(client, bodyOf(drawing))).json()) as JobJson
    await waitForStatus(client, job.id, 'running')
    await server?.stop() // SIGTERM, then waits for the exit
    server = undefined
    const record = JSON.parse(await readFile(join(dataDir, 'jobs', job.id, 'job.json'), 'utf8'))
    expect(record.job.status).not.toBe('running')
    // A job put back is not counted as an interrupted attempt.
    if (record.job.status === 'queued') expect(record.job.attempts).toBe(0)

    ;({ client } = await start())
    const done = await waitForJob(client, job.id)
    expect(done.status, done.error).toBe('succeeded')
  })
})
