import { randomBytes } from 'node:crypto'
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Job, JobSchema } from '#contract/jobs.ts'
import {
  type AssembledBill,
  AssembledBillSchema,
  ProjectBillSchema,
} from '#contract/project-bills.ts'
import { fixturePath } from '../testing/boq/fixtures.ts'
import { signIn, type TestClient } from '../testing/client.ts'
import { type DrawingRef, findDrawing, makeSeedDir } from '../testing/jobs/drawings.ts'
import { extractBody, postExtract, waitForJob } from '../testing/jobs/jobs-api.ts'
import { createTestDatabase } from '../testing/postgres.ts'
import { startTestServer, type TestServer } from '../testing/start-test-server.ts'

// The real server and engine over loopback, on either store: plan.dwg (2004_HatchG.dwg) is
// extracted with the project's rules at version 1, and a project bill made over its folder.
// The rules change; then the server is started again (another process), the job's kept bill
// gone from its store: what the bill took of the drawing was kept, so it is answered as before.
// A new job keeps its part with its bill of record: a bill over it needs no bill of record.

const rules = (rate: number) => [
  { match: 'length', code: 'B.10', description: 'Linework', rate },
  { match: 'area', ignore: true },
  { match: 'count', code: 'D.10', description: 'Placed blocks', rate },
]

interface Store {
  env: Record<string, string>
  /** Takes the job's kept BOQ JSON out of the store, as if it could no longer be read. */
  loseKeptBill(dataDir: string, jobId: string): Promise<void>
  drop(): Promise<void>
}

const STORES: [string, () => Promise<Store>][] = [
  [
    'embedded',
    async () => ({
      env: {},
      async loseKeptBill(dataDir, jobId) {
        const dir = join(dataDir, 'jobs', jobId)
        for (const name of await readdir(dir)) {
          if (/^result(-\d+)?\.json$/.test(name)) await rm(join(dir, name))
        }
      },
      drop: async () => {},
    }),
  ],
  [
    'PostgreSQL',
    async () => {
      const database = await createTestDatabase()
      return {
        env: { BOQ_DATABASE_URL: database.url, SESSION_SECRET: randomBytes(32).toString('hex') },
        async loseKeptBill(_dataDir, jobId) {
          const client = new pg.Client({ connectionString: database.url })
          await client.connect()
          try {
            await client.query(`DELETE FROM boq_results WHERE job_id = $1 AND format = 'json'`, [
              jobId,
            ])
          } finally {
            await client.end()
          }
        },
        drop: () => database.drop(),
      }
    },
  ],
]

describe.each(STORES)('a project bill’s parts, kept: %s store', (_name, makeStore) => {
  let store: Store
  let dataDir: string
  let seedDir: string
  let server: TestServer | undefined
  let client: TestClient
  let plan: DrawingRef
  let second: DrawingRef

  const start = async (seed: boolean) => {
    server = await startTestServer({
      dataDir,
      env: store.env,
      ...(seed ? { seed: seedDir } : {}),
    })
    client = await signIn(server.url)
  }
  const bills = () => `/api/boq/projects/${encodeURIComponent(plan.projectId)}/bills`
  const assembled = async (id: string): Promise<AssembledBill> =>
    v.parse(AssembledBillSchema, await client.json(`${bills()}/${id}`))
  const jobNow = async (id: string) => v.parse(JobSchema, await client.json(`/api/boq/jobs/${id}`))

  async function extracted(drawing: DrawingRef): Promise<Job> {
    const posted = await postExtract(client, extractBody(drawing))
    expect(posted.status).toBe(202)
    const job = await waitForJob(client, ((await posted.json()) as Job).id, { timeoutMs: 90_000 })
    expect(job.status).toBe('succeeded')
    return job
  }

  async function billOver(body: { folderIds?: string[]; itemIds?: string[] }) {
    const made = await client(bills(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Plans', ...body }),
    })
    expect(made.status).toBe(201)
    return v.parse(ProjectBillSchema, await made.json())
  }

  async function saveRules(rate: number): Promise<void> {
    const path = `/api/boq/projects/${encodeURIComponent(plan.projectId)}/rules`
    const current = await client(path)
    await current.body?.cancel()
    const saved = await client(path, {
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        'if-match': current.headers.get('etag') ?? '',
      },
      body: JSON.stringify({ rules: rules(rate) }),
    })
    expect(saved.status).toBe(200)
    await saved.body?.cancel()
  }

  beforeAll(async () => {
    store = await makeStore()
    dataDir = await mkdtemp(join(tmpdir(), 'boq-bill-parts-'))
    seedDir = await makeSeedDir([])
    await copyFile(fixturePath('2004_HatchG.dwg'), join(seedDir, 'plan.dwg'))
    await copyFile(fixturePath('r11_block.dwg'), join(seedDir, 'second.dwg'))
    await start(true)
    plan = await findDrawing(client.json, 'plan.dwg')
    second = await findDrawing(client.json, 'second.dwg')
  }, 60_000)

  afterAll(async () => {
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
    await rm(seedDir, { recursive: true, force: true })
    await store?.drop()
  })

  it('takes the bill of record as it is, prices an older one, and another process reads the parts', async () => {
    await saveRules(2)
    const job = await extracted(plan)
    expect(job.pricedWith).toMatchObject({ rulesVersion: 1 })
    const bill = await billOver({ itemIds: [plan.itemId] })

    const atTwo = await assembled(bill.id)
    expect(atTwo.drawings).toEqual([expect.objectContaining({ state: 'billed', jobId: job.id })])
    expect(atTwo.priced.total).toBeGreaterThan(0)
    const linework = (answer: AssembledBill) =>
      answer.priced.items.find((item) => item.code === 'B.10')
    expect(linework(atTwo)?.rate).toBe(2)

    // New rules: the bill is priced with them; the person's job keeps its own bill of record.
    await saveRules(4)
    const atFour = await assembled(bill.id)
    expect(linework(atFour)?.rate).toBe(4)
    expect(atFour.priced.total).toBeCloseTo(2 * atTwo.priced.total, 6)
    expect((await jobNow(job.id)).pricedWith).toMatchObject({ rulesVersion: 1 })

    // Another process, the job's kept bill gone: the drawing's part is read from the store.
    await server?.close()
    server = undefined
    await store.loseKeptBill(dataDir, job.id)
    await start(false)
    const elsewhere = await assembled(bill.id)
    expect(elsewhere.priced).toEqual(atFour.priced)
    expect(elsewhere.drawings).toEqual(atFour.drawings)

    // Rules it has no part for need the kept bill: the drawing says it cannot be read.
    await saveRules(5)
    const atFive = await assembled(bill.id)
    expect(atFive.drawings).toEqual([
      expect.objectContaining({
        state: 'failed',
        reason: expect.stringMatching(/cannot be read|extract it again/),
      }),
    ])
  }, 300_000)

  it('reads the part a new job kept with its bill of record, not the bill of record', async () => {
    const job = await extracted(second)
    // Its bill of record gone, and no project bill asked for it before: only its part is left.
    await store.loseKeptBill(dataDir, job.id)
    const bill = await billOver({ itemIds: [second.itemId] })
    const answer = await assembled(bill.id)
    expect(answer.drawings).toEqual([expect.objectContaining({ state: 'billed', jobId: job.id })])
    expect(answer.measured.length).toBeGreaterThan(0)
    expect(answer.priced.items.length).toBeGreaterThan(0)
    expect(answer.priced.items.every((item) => item.rate === 5)).toBe(true)
  }, 120_000)
})
