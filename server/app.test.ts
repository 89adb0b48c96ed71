import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Job } from '#contract/jobs.ts'
import { createClient, signIn } from './testing/client.ts'
import { findDrawing, makeSeedDir } from './testing/jobs/drawings.ts'
import { createFakeExtractor } from './testing/jobs/fakes.ts'
import { extractBody, postExtract, waitForJob } from './testing/jobs/jobs-api.ts'
import { waitFor } from './testing/jobs/wait.ts'
import { startTestServer, type TestServer } from './testing/start-test-server.ts'

const cleanups: (() => Promise<unknown>)[] = []

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function start(dataDir: string, seed: string | undefined, fake = createFakeExtractor()) {
  const server: TestServer = await startTestServer({ dataDir, seed, extractor: fake.extractor })
  cleanups.push(() => server.close())
  return { server, fake }
}

describe('createServer', () => {
  it('answers as soon as it is made, and close() stops the jobs it runs', async () => {
    const seedDir = await makeSeedDir(['example_2018.dwg'])
    const dataDir = await mkdtemp(join(tmpdir(), 'boq-create-server-'))
    cleanups.push(() => rm(seedDir, { recursive: true, force: true }))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))

    const first = await start(dataDir, seedDir)
    first.fake.hold()
    const client = await signIn(first.server.url)
    const drawing = await findDrawing(client.json, 'example_2018.dwg')
    const posted = await postExtract(client, extractBody(drawing))
    expect(posted.status).toBe(202)
    const job = (await posted.json()) as Job
    await waitFor(() => first.fake.seen.length === 1)

    await first.server.close()
    expect(first.fake.closed).toBe(true)
    await expect(fetch(`${first.server.url}/api/aps/auth/profile`)).rejects.toThrow()

    // The job a graceful close put back runs on the next server made from the same data folder;
    // the session made by the first one still holds (the keys are the data folder's).
    const second = await start(dataDir, undefined)
    const again = createClient(second.server.url)
    for (const [name, value] of client.cookies) again.cookies.set(name, value)
    expect(await waitForJob(again, job.id)).toMatchObject({ id: job.id, status: 'succeeded' })
    expect(second.fake.seen).toEqual([drawing.fileName])
  })
})
