import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { TakeoffRule } from '#contract/takeoff-rules.ts'
import { billLine, floorPlanBoq } from '#contract/testing/boq.ts'
import type { CloudAccess } from '../auth/cloud-access.ts'
import { priceWithTables } from '../boq/price/price.ts'
import { createBillPool } from '../jobs/bill-pool.ts'
import type { JobRecord } from '../jobs/types.ts'
import { listeners } from '../lib/listeners.ts'
import { log } from '../log.ts'
import { openStores, type Stores } from '../stores.ts'
import { contextFor, createFakeCloud, TEST_TOKEN_KEY } from '../testing/jobs/fakes.ts'
import { createTestDatabase, type TestDatabase } from '../testing/postgres.ts'
import { partVersions } from './drawing-parts.ts'
import { type ProjectBillsService, startProjectBills } from './service.ts'
import { partKeyText } from './types.ts'

// The stores as the server opens them (a job's end told as the server tells it) and the project
// bills' service on a bill pool of its own: a job of a project with a bill ends, and its drawing's
// part is in the bill store without anyone asking for the bill.

const WALLS: TakeoffRule[] = [
  { match: 'length', code: '22.10', description: 'Walls', unit: 'm', rate: 3 },
]
const VERSIONS = { rulesVersion: 1, classificationVersion: 0, settingsVersion: 0 }
const TABLES = { rules: { version: 1 }, classification: { version: 0 }, settings: { version: 0 } }
const versions = partVersions(TABLES as Parameters<typeof partVersions>[0])

/** A kept bill of `metres` of walls priced at extraction with the rules saved (version 1). */
function pricedBill(metres: number): Uint8Array {
  const measured = floorPlanBoq({
    bill: [
      billLine({
        ref: 'B1',
        kind: 'length',
        description: 'Walls',
        breakdown: [{ quantity: metres, count: 1, handles: ['1A'], quantities: [metres] }],
      }),
    ],
    warnings: [],
  })
  const priced = priceWithTables(measured, { rules: WALLS, classification: [], versions: VERSIONS })
  return new TextEncoder().encode(JSON.stringify({ ...measured, priced }))
}

const STORES: [string, () => Promise<TestDatabase | undefined>][] = [
  ['embedded', async () => undefined],
  ['PostgreSQL', createTestDatabase],
]

describe.each(STORES)('a drawing’s part made when its job ends: %s store', (_name, database) => {
  let dataDir: string
  let db: TestDatabase | undefined
  let stores: Stores
  let pool: ReturnType<typeof createBillPool>
  let service: ProjectBillsService
  let storage = 0

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'boq-parts-on-job-end-'))
    db = await database()
    const jobEnded = listeners<JobRecord>((error) => {
      throw error
    })
    stores = await openStores({
      config: {
        dataDir,
        databaseUrl: db?.url ?? null,
        jobRetentionDays: 90,
        jobRecoverySeconds: 60,
      },
      tokenKey: TEST_TOKEN_KEY,
      jobEnded: jobEnded.notify,
    })
    const saved = await stores.rules.saveRules('p1', 'rules', 0, WALLS, 'ann')
    expect(saved).toHaveProperty('saved')
    pool = createBillPool({ threads: 1 })
    const access: CloudAccess = {
      session: () => Promise.reject(new Error('No session in this test.')),
      run: (_c, fn) => fn(contextFor('ann')),
    }
    service = await startProjectBills({
      bills: stores.bills,
      jobs: stores.jobs,
      rules: stores.rules,
      cloud: createFakeCloud().cloud,
      access,
      pool,
      jobEnded,
    })
  })

  afterEach(async () => {
    vi.restoreAllMocks()
    await service?.close()
    await pool?.close()
    await stores?.close()
    await db?.drop()
    await rm(dataDir, { recursive: true, force: true })
  })

  const makeBill = (projectId: string) =>
    stores.bills.create({
      projectId,
      name: 'Plans',
      folderIds: ['f1'],
      itemIds: [],
      createdBy: 'Ann',
    })

  /** A job of `projectId` claimed and ended with `json` as its kept bill, as the runner ends one. */
  async function endJob(projectId: string, json: Uint8Array): Promise<string> {
    const { job } = await stores.jobs.submit(
      {
        fileName: 'plan.dwg',
        projectId,
        fileFolderId: 'f1',
        fileStorageId: `plan-v${++storage}`,
        context: contextFor('ann'),
      },
      { maxActivePerUser: 10 },
    )
    await stores.jobs.claim()
    await stores.jobs.notePricedWith(job.id, VERSIONS)
    await stores.jobs.succeed(
      job.id,
      { fileName: 'plan BOQ.xlsx', itemId: 'x', versionNumber: 1, jsonKept: true },
      { xlsx: new Uint8Array(1), csv: new Uint8Array(1), json },
    )
    return job.id
  }

  const keptPart = async (jobId: string) =>
    (await stores.bills.parts([{ jobId, versions }])).get(partKeyText({ jobId, versions }))

  it('keeps the part in the bill store, no bill asked for', async () => {
    await makeBill('p1')
    const jobId = await endJob('p1', pricedBill(10))
    await vi.waitFor(async () => expect(await keptPart(jobId)).toBeDefined(), {
      timeout: 30_000,
      interval: 50,
    })
    const part = JSON.parse(new TextDecoder().decode(await keptPart(jobId))) as {
      part: { lines: unknown[]; total: number }
    }
    expect(part.part.lines).toHaveLength(1)
    expect(part.part.total).toBe(30)
  })

  it('makes no part for a project without a project bill', async () => {
    await makeBill('p1')
    const elsewhere = await endJob('p2', pricedBill(10))
    // Ended after it, in the same queue: once it is kept, the other was looked at.
    const after = await endJob('p1', pricedBill(20))
    await vi.waitFor(async () => expect(await keptPart(after)).toBeDefined(), { timeout: 30_000 })
    expect(await keptPart(elsewhere)).toBeUndefined()
  })

  it('says an unreadable kept bill in the log, and the job has ended all the same', async () => {
    const warn = vi.spyOn(log, 'warn')
    await makeBill('p1')
    const broken = await endJob('p1', new TextEncoder().encode('{"not a bill'))
    expect((await stores.jobs.get(broken))?.status).toBe('succeeded')
    const next = await endJob('p1', pricedBill(10))
    await vi.waitFor(async () => expect(await keptPart(next)).toBeDefined(), { timeout: 30_000 })
    expect(await keptPart(broken)).toBeUndefined()
    expect(warn).toHaveBeenCalledWith(
      'project bills: a drawing’s part was not made',
      expect.objectContaining({ jobId: broken }),
    )
  })
})
