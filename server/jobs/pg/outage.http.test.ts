import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CloudList } from '#contract/cloud.ts'
import type { Job } from '#contract/jobs.ts'
import { type RunningServer, startServer } from '../../../e2e/support/server.ts'
import { signIn } from '../../testing/client.ts'
import { findItems, makeSeedDir } from '../../testing/jobs/drawings.ts'
import { extractBody, postExtract, waitForJob } from '../../testing/jobs/jobs-api.ts'
import { type Postgres, startPrivatePostgres } from '../../testing/postgres.ts'

// A web process and a worker on a PostgreSQL server of the test's own, which is stopped for a
// few seconds while jobs run: the web process keeps answering (503 for what needs the jobs),
// and once the database is back every job ends, each written back once.

let postgres: Postgres
let seedDir: string
let dataDir: string
const processes: RunningServer[] = []

beforeAll(async () => {
  postgres = await startPrivatePostgres()
  seedDir = await makeSeedDir([
    '2018_Dynblocks.dwg',
    'example_2018.dwg',
    'example_2000.dwg',
    'example_2010.dwg',
    'sample_2018.dwg',
  ])
  dataDir = await mkdtemp(join(tmpdir(), 'boq-outage-'))
}, 60_000)

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()))
  await postgres?.close()
  await rm(seedDir, { recursive: true, force: true })
  await rm(dataDir, { recursive: true, force: true })
}, 60_000)

describe('the job database going away for a few seconds', () => {
  it('keeps the processes serving, and every job ends once it is back, written once', async () => {
    const env = {
      BOQ_DATABASE_URL: postgres.url,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      BOQ_WORKERS: '1',
      BOQ_JOB_RECOVERY_SECONDS: '15',
    }
    const web = await startServer({ dataDir, seedDir, env: { ...env, BOQ_ROLE: 'web' } })
    processes.push(web)
    const worker = await startServer({ dataDir, seedDir, env, worker: true })
    processes.push(worker)
    const client = await signIn(web.url)

    const drawings = await findItems(client.json, (name) => name.endsWith('.dwg'))
    expect(drawings).toHaveLength(5)
    const jobs: Job[] = []
    for (const d of drawings) {
      const answer = await postExtract(client, extractBody(d))
      expect(answer.status).toBe(202)
      jobs.push((await answer.json()) as Job)
    }
    await expect
      .poll(() => worker.output().includes('"msg":"job running"'), { timeout: 30_000, interval: 5 })
      .toBe(true)

    await postgres.stop()
    try {
      // What needs no database still answers; what does says so plainly.
      expect((await client('/api/aps/auth/profile')).status).toBe(200)
      const list = await client('/api/boq/jobs')
      expect(list.status).toBe(503)
      expect(await list.text()).toBe(
        'The job database cannot be reached just now. Try again in a moment.',
      )
      await new Promise((resolve) => setTimeout(resolve, 3000))
    } finally {
      await postgres.start()
    }

    const ended = await Promise.all(
      jobs.map((job) => waitForJob(client, job.id, { timeoutMs: 120_000 })),
    )
    for (const job of ended) expect(job).toMatchObject({ status: 'succeeded' })
    // Each drawing's result written once: one version of each result item.
    for (const job of ended) {
      const result = job.result as NonNullable<Job['result']>
      expect(result.versionNumber).toBe(1)
      const [item] = await findItems(client.json, (name) => name === result.fileName)
      const versions = await client.json<CloudList>(
        `/api/aps/hubs/${encodeURIComponent(item.hubId)}/projects/${encodeURIComponent(item.projectId)}/contents/${encodeURIComponent(item.itemId)}/versions`,
      )
      expect(versions).toHaveLength(1)
    }
    expect(web.output()).not.toMatch(/exited|cannot start/i)
  }, 180_000)
})
