import { describe, expect, it } from 'vitest'
import type { ProjectBill } from '#contract/project-bills.ts'
import { pricedItem } from '#contract/testing/priced-bill.ts'
import type { JsonApiResource } from '../cloud/types.ts'
import { AppError } from '../errors.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import type { BillTask } from '../jobs/bill-tasks.ts'
import type { JobRecord, JobStore } from '../jobs/types.ts'
import type { RulesStore } from '../rules/store/types.ts'
import { contextFor } from '../testing/jobs/fakes.ts'
import { assembleBill } from './assemble.ts'
import { keptPricings } from './kept-pricings.ts'

// Two drawings in folder f1, each with a finished job; the pool prices each job's bill as one
// item of 10 × its version; the rules' saved version is what the test sets.

const keptBill = new TextEncoder().encode(JSON.stringify({ units: { length: 'm', area: 'm²' } }))

function jobOf(id: string, storageId: string): JobRecord {
  return {
    id,
    status: 'succeeded',
    userId: 'ann',
    fileName: `${id}.dwg`,
    projectId: 'p1',
    fileFolderId: 'f1',
    fileStorageId: storageId,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    attempts: 1,
    result: { fileName: 'x', itemId: 'x', versionNumber: 1, jsonKept: true },
  } as JobRecord
}

function setUp(
  sources: Pick<ProjectBill, 'folderIds' | 'itemIds'> = { folderIds: ['f1'], itemIds: [] },
) {
  const jobs = [jobOf('a1', 'a-v1'), jobOf('b1', 'b-v1')]
  const versions = new Map<string, JsonApiResource[]>()
  const version = (storage: string, number: number): JsonApiResource => ({
    id: storage,
    type: 'versions',
    attributes: { versionNumber: number },
    relationships: { storage: { data: { id: storage, type: 'objects' } } },
  })
  versions.set('A', [version('a-v1', 1)])
  versions.set('B', [version('b-v1', 1)])
  const priced: string[] = []
  const pool: BillPool = {
    async run(task: BillTask) {
      if (task.kind !== 'price') throw new Error('only pricing here')
      priced.push(task.jobId)
      const quantity = task.jobId.endsWith('2') ? 20 : 10
      const item = pricedItem({ quantity, rate: task.rulesVersion ?? 0 })
      const bill = { items: [item], total: item.amount, warnings: [] }
      const json = {
        jobId: task.jobId,
        rulesVersion: task.rulesVersion,
        classificationVersion: 0,
        priced: bill,
      }
      return { bytes: new TextEncoder().encode(JSON.stringify(json)) }
    },
    async close() {},
  }
  let rulesVersion = 1
  const store = {
    listByUser: async () => [...jobs].reverse(),
    readResult: async () => keptBill,
  } as unknown as JobStore
  const rules = {
    rules: async (_projectId: string, kind: string) =>
      kind === 'rules'
        ? { version: rulesVersion, rows: [], savedBy: 'ann', savedAt: '' }
        : undefined,
  } as unknown as RulesStore
  const cloud = {
    contents: async (_ctx: unknown, _hub: string, _project: string, folderId?: string) => {
      if (folderId !== 'f1') throw new AppError(404, 'There is no such folder.')
      return [
        { id: 'A', type: 'items', attributes: { displayName: 'A.dwg' } },
        { id: 'B', type: 'items', attributes: { displayName: 'B.dwg' } },
      ] as JsonApiResource[]
    },
    versions: async (_ctx: unknown, _hub: string, _project: string, itemId: string) => {
      const found = versions.get(itemId)
      if (!found) throw new AppError(404, 'There is no such item.')
      return found
    },
  }
  const parts = { store, rules, cloud, pool, kept: keptPricings() }
  const bill: ProjectBill = {
    id: 'bill',
    projectId: 'p1',
    name: 'Plans',
    ...sources,
    createdBy: 'Ann',
    createdAt: '',
  }
  const assemble = (options?: { withPricedBills?: boolean }) =>
    assembleBill(parts, contextFor('ann'), { hubId: 'h1' }, bill, options)
  return {
    assemble,
    priced,
    newVersion() {
      versions.set('B', [version('b-v2', 2), ...(versions.get('B') ?? [])])
      jobs.push(jobOf('b2', 'b-v2'))
    },
    newRules() {
      rulesVersion++
    },
  }
}

describe('assembling a project bill', () => {
  it('prices each drawing once, then only a drawing with a new job, or all with new rules', async () => {
    const bills = setUp()
    const first = await bills.assemble()
    expect(bills.priced.sort()).toEqual(['a1', 'b1'])
    expect(first.answer.priced.total).toBe(20)

    bills.priced.length = 0
    const again = await bills.assemble()
    expect(bills.priced).toEqual([])
    expect(again.answer).toEqual(first.answer)

    bills.newVersion()
    const newer = await bills.assemble()
    expect(bills.priced).toEqual(['b2'])
    expect(newer.answer.priced.total).toBe(30)
    expect(newer.answer.drawings.find((one) => one.itemId === 'B')).toMatchObject({
      versionNumber: 2,
      jobId: 'b2',
    })

    bills.priced.length = 0
    bills.newRules()
    const repriced = await bills.assemble()
    expect(bills.priced.sort()).toEqual(['a1', 'b2'])
    expect(repriced.answer.priced.total).toBe(60)
  })

  it('prices every drawing again when their priced bills are wanted (to write files from)', async () => {
    const bills = setUp()
    await bills.assemble()
    bills.priced.length = 0
    const withBills = await bills.assemble({ withPricedBills: true })
    expect(bills.priced.sort()).toEqual(['a1', 'b1'])
    expect(withBills.priced.map((one) => one.fileName).sort()).toEqual(['A.dwg', 'B.dwg'])
    expect((await bills.assemble()).priced).toEqual([])
  })

  it('says a folder or drawing of the bill that is gone from the cloud, and assembles the rest', async () => {
    const bills = setUp({ folderIds: ['f1', 'f-deleted'], itemIds: ['A', 'deleted-item'] })
    const { answer } = await bills.assemble()
    expect(answer.drawings.map((one) => one.itemId).sort()).toEqual(['A', 'B'])
    expect(answer.priced.total).toBe(20)
    expect(answer.warnings).toEqual([
      {
        itemId: 'f-deleted',
        fileName: 'A folder of this bill',
        warning:
          'The folder is no longer in the cloud (deleted, moved, or no longer yours to see): its drawings are left out.',
      },
      {
        itemId: 'deleted-item',
        fileName: 'A drawing of this bill',
        warning:
          'The drawing is no longer in the cloud (deleted, moved, or no longer yours to see): left out.',
      },
    ])
  })
})
