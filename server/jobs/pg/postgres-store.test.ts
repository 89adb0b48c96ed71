import pg from 'pg'
import { PgBoss } from 'pg-boss'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { contextFor, newJobFor, TEST_TOKEN_KEY } from '../../testing/jobs/fakes.ts'
import { createTestDatabase, type TestDatabase } from '../../testing/postgres.ts'
import { workerStoppedMessage } from '../failure.ts'
import type { JobStore } from '../types.ts'
import { openPostgresJobStore } from './postgres-store.ts'
import { CRASH_RETRIES, EXTRACT_QUEUE } from './queue.ts'

// What only a shared store must do: several stores (as in several processes) on one database.
// A worker's death is played by failing its queue entry through pg-boss, as pg-boss's own
// supervision does once the heartbeats stop (the real thing is in cluster.http.test.ts).

let database: TestDatabase
const open: JobStore[] = []
let boss: PgBoss | undefined

beforeEach(async () => {
  database = await createTestDatabase()
})

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()))
  await boss?.stop({ graceful: false })
  boss = undefined
  await database.drop()
})

async function openStore(): Promise<JobStore> {
  const store = await openPostgresJobStore({
    url: database.url,
    tokenKey: TEST_TOKEN_KEY,
    recoverySeconds: 15,
    retentionDays: 90,
    log: () => {},
  })
  open.push(store)
  return store
}

const newJob = (userId: string, storageId: string) => newJobFor(userId, storageId)

/** The worker running the job dies: its queue entry is failed, and pg-boss retries it. */
async function workerDies(jobId: string): Promise<void> {
  boss ??= await new PgBoss({ connectionString: database.url, supervise: false }).start()
  const [entry] = await boss.findJobs(EXTRACT_QUEUE, { data: { jobId } })
  if (!entry) throw new Error(`no queue entry for ${jobId}`)
  await boss.fail(EXTRACT_QUEUE, entry.id)
}

async function sql<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  try {
    return (await client.query(text, values)).rows as T[]
  } finally {
    await client.end()
  }
}

describe('the PostgreSQL job store, shared by several processes', () => {
  it('takes each submission once, whichever store is asked, under the per-user limit', async () => {
    const [a, b] = await Promise.all([openStore(), openStore()])
    const limits = { maxActivePerUser: 4 }
    const answers = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a : b).submit(newJob('ann', `s${i % 6}`), limits),
      ),
    )
    const created = answers.filter((x) => x.status === 'fulfilled' && x.value.created)
    const refused = answers.filter((x) => x.status === 'rejected')
    expect(created).toHaveLength(4)
    expect(refused.length).toBeGreaterThan(0)
    for (const r of refused)
      expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 429 })
    expect(await a.listByUser('ann')).toHaveLength(4)

    // Claimed by both at once: each job by exactly one.
    const claims = await Promise.all([a, b, a, b, a, b].map((s) => s.claim()))
    const ids = claims.flatMap((c) => (c ? [c.job.id] : []))
    expect(ids).toHaveLength(4)
    expect(new Set(ids).size).toBe(4)
  })

  it('shows a worker’s progress to every other process', async () => {
    const [web, worker] = await Promise.all([openStore(), openStore()])
    const { job } = await web.submit(newJob('ann', 's1'), { maxActivePerUser: 3 })
    await worker.claim()
    await worker.setProgress(job.id, 0.42)
    expect((await web.get(job.id))?.progress).toBeCloseTo(0.42)
  })

  it('gives the job of a worker that died to another, which alone may end it', async () => {
    const [dead, alive] = await Promise.all([openStore(), openStore()])
    const { job } = await dead.submit(newJob('ann', 's1'), { maxActivePerUser: 3 })
    expect((await dead.claim())?.job.attempts).toBe(1)
    await workerDies(job.id)

    const again = await alive.claim()
    expect(again?.job).toMatchObject({ id: job.id, status: 'running', attempts: 2 })
    expect(again?.context).toEqual(contextFor('ann'))
    // The first worker was only slow, not dead: what it says now changes nothing.
    await dead.fail(job.id, 'too late')
    expect(await alive.get(job.id)).toMatchObject({ status: 'running' })
    await alive.succeed(
      job.id,
      { fileName: 'plan BOQ.xlsx', itemId: 'i1', versionNumber: 1 },
      { xlsx: new Uint8Array([1]), csv: new Uint8Array([2]), json: new Uint8Array([3]) },
    )
    expect(await dead.get(job.id)).toMatchObject({ status: 'succeeded' })
    expect(await dead.readResult(job.id, 'csv')).toEqual(new Uint8Array([2]))
  })

  it('fails a job whose workers died too often, saying the drawing may be the cause', async () => {
    const store = await openStore()
    const { job } = await store.submit(newJob('ann', 's1'), { maxActivePerUser: 3 })
    for (let run = 1; run <= CRASH_RETRIES + 1; run++) {
      expect((await store.claim())?.job.attempts).toBe(run)
      await workerDies(job.id)
    }
    expect(await store.claim()).toBeUndefined()
    expect(await store.get(job.id)).toMatchObject({
      status: 'failed',
      error: workerStoppedMessage(CRASH_RETRIES + 1),
    })
  })

  it('deletes finished jobs and their results past the retention, at start', async () => {
    const store = await openStore()
    const { job } = await store.submit(newJob('ann', 's1'), { maxActivePerUser: 3 })
    const { job: recent } = await store.submit(newJob('ann', 's2'), { maxActivePerUser: 3 })
    for (const id of [job.id, recent.id]) {
      await store.claim()
      await store.fail(id, 'no')
    }
    await sql(`UPDATE boq_jobs SET created_at = now() - interval '91 days' WHERE id = $1`, [job.id])
    await store.close()
    open.splice(0)

    const reopened = await openStore()
    expect(await reopened.get(job.id)).toBeUndefined()
    expect(await reopened.get(recent.id)).toMatchObject({ status: 'failed' })
  })
})
