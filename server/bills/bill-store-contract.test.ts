import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BillIssue, ProjectFigures } from '#contract/project-bills.ts'
import { openPostgresJobStore } from '../jobs/pg/postgres-store.ts'
import type { JobStore } from '../jobs/types.ts'
import { contextFor, TEST_TOKEN_KEY } from '../testing/jobs/fakes.ts'
import { createTestDatabase } from '../testing/postgres.ts'
import { openEmbeddedBillStore } from './embedded-bill-store.ts'
import { openPostgresBillStore } from './pg/postgres-bill-store.ts'
import { type BillStore, type IssueFiles, partKeyText } from './types.ts'

/**
 * A place bills are kept, fresh for each test: `open` makes a store on it as a process would
 * (on PostgreSQL, each on a job store's pool of its own, as several processes share one database).
 */
interface BillPlace {
  open(): Promise<BillStore>
  /** Stores opened on it see each other's bills (PostgreSQL). */
  shared: boolean
  /** The id of a job kept where the bills are (parts are kept for jobs). */
  newJobId(): Promise<string>
  remove(): Promise<void>
}

const STORES: [string, () => Promise<BillPlace>][] = [
  [
    'embedded',
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'boq-bill-store-'))
      return {
        open: () => openEmbeddedBillStore({ dataDir }),
        shared: false,
        newJobId: async () => randomUUID(),
        remove: () => rm(dataDir, { recursive: true, force: true }),
      }
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const database = await createTestDatabase()
      let jobsOfLast: JobStore | undefined
      return {
        async newJobId() {
          const { job } = await (jobsOfLast as JobStore).submit(
            {
              fileName: 'L1.dwg',
              projectId: 'p1',
              fileFolderId: 'f1',
              fileStorageId: randomUUID(),
              context: contextFor('ann'),
            },
            { maxActivePerUser: 100 },
          )
          return job.id
        },
        async open() {
          const jobs = await openPostgresJobStore({
            url: database.url,
            tokenKey: TEST_TOKEN_KEY,
            recoverySeconds: 15,
            retentionDays: 90,
            log: () => {},
          })
          const bills = openPostgresBillStore({ db: jobs.db, log: () => {} })
          jobsOfLast = jobs
          return {
            ...bills,
            async close() {
              await bills.close()
              await jobs.close()
            },
          }
        },
        shared: true,
        remove: () => database.drop(),
      }
    },
  ],
]

const figures: ProjectFigures = { units: { length: 'm', area: 'm²' }, items: [], total: 12.5 }
const versions = [{ itemId: 'i1', fileName: 'L1.dwg', versionNumber: 2, jobId: 'j1' }]
const noFiles = async (): Promise<IssueFiles> => ({})
const text = (bytes: Uint8Array | undefined) => bytes && new TextDecoder().decode(bytes)

describe.each(STORES)('the BillStore contract: %s store', (_name, makePlace) => {
  let place: BillPlace | undefined
  const stores: BillStore[] = []
  const storeOf = async () => {
    place ??= await makePlace()
    const store = await place.open()
    stores.push(store)
    return store
  }
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()))
    await place?.remove()
    place = undefined
  })

  const newBill = (projectId: string, name: string) => ({
    projectId,
    name,
    folderIds: ['f1'],
    itemIds: ['i9'],
    createdBy: 'Ann',
  })

  it('keeps a bill, lists a project’s bills oldest first, and only its own', async () => {
    const store = await storeOf()
    const a = await store.create(newBill('p1', 'Tender'))
    const b = await store.create(newBill('p1', 'Services'))
    await store.create(newBill('p2', 'Elsewhere'))
    expect(a).toMatchObject({ projectId: 'p1', name: 'Tender', folderIds: ['f1'], itemIds: ['i9'] })
    expect(a.createdBy).toBe('Ann')
    expect(Date.parse(a.createdAt)).not.toBeNaN()
    expect((await store.list('p1')).map((bill) => bill.id)).toEqual([a.id, b.id])
    expect(await store.get('p1', a.id)).toEqual(a)
  })

  it('knows no bill by another project’s id, an unknown id or a malformed one', async () => {
    const store = await storeOf()
    const a = await store.create(newBill('p1', 'Tender'))
    expect(await store.get('p2', a.id)).toBeUndefined()
    expect(await store.get('p1', '00000000-0000-4000-8000-000000000000')).toBeUndefined()
    expect(await store.get('p1', '../../etc')).toBeUndefined()
    expect(await store.patch('p2', a.id, { name: 'x' })).toBeUndefined()
    expect(await store.delete('p2', a.id)).toBe(false)
    expect(
      await store.issue('p2', a.id, {
        name: 'x',
        issuedBy: 'Bob',
        versions,
        figures,
        files: noFiles,
      }),
    ).toBe(undefined)
    expect(await store.issues('p2', a.id)).toEqual([])
  })

  it('changes only what a patch names', async () => {
    const store = await storeOf()
    const a = await store.create(newBill('p1', 'Tender'))
    const patched = await store.patch('p1', a.id, { name: 'Revision B', itemIds: [] })
    expect(patched).toEqual({ ...a, name: 'Revision B', itemIds: [] })
    expect(await store.get('p1', a.id)).toEqual(patched)
  })

  it('deletes a bill with its issues', async () => {
    const store = await storeOf()
    const a = await store.create(newBill('p1', 'Tender'))
    await store.issue('p1', a.id, {
      name: 'Tender',
      issuedBy: 'Ann',
      versions,
      figures,
      files: noFiles,
    })
    expect(await store.delete('p1', a.id)).toBe(true)
    expect(await store.get('p1', a.id)).toBeUndefined()
    expect(await store.list('p1')).toEqual([])
    expect(await store.issues('p1', a.id)).toEqual([])
    expect(await store.delete('p1', a.id)).toBe(false)
  })

  it('numbers issues 1, 2, … and keeps what each froze', async () => {
    const store = await storeOf()
    const a = await store.create(newBill('p1', 'Tender'))
    const first = await store.issue('p1', a.id, {
      name: 'Tender',
      issuedBy: 'Ann',
      versions,
      figures,
      files: noFiles,
    })
    expect(first).toMatchObject({ number: 1, name: 'Tender', issuedBy: 'Ann', versions, figures })
    const second = await store.issue('p1', a.id, {
      name: 'Revision B',
      issuedBy: 'Bob',
      versions: [],
      figures: { ...figures, total: 20 },
      files: noFiles,
    })
    expect(second?.number).toBe(2)
    expect(await store.issues('p1', a.id)).toEqual([first, second])
  })

  it('gives issues made at once a number each, never one twice', async () => {
    const store = await storeOf()
    const a = await store.create(newBill('p1', 'Tender'))
    const made = await Promise.all(
      ['A', 'B', 'C', 'D', 'E'].map((name) =>
        store.issue('p1', a.id, { name, issuedBy: 'Ann', versions, figures, files: noFiles }),
      ),
    )
    expect(made.map((issue) => issue?.number).sort()).toEqual([1, 2, 3, 4, 5])
    expect((await store.issues('p1', a.id)).map((issue) => issue.number)).toEqual([1, 2, 3, 4, 5])
  })

  it('keeps the files an issue was sent as, written once its number is known', async () => {
    const store = await storeOf()
    const a = await store.create(newBill('p1', 'Tender'))
    const told: BillIssue[] = []
    const files = async (issue: BillIssue): Promise<IssueFiles> => {
      told.push(issue)
      const encode = (s: string) => new TextEncoder().encode(s)
      return { xlsx: encode(`workbook of ${issue.number}`), csv: encode(`csv of ${issue.name}`) }
    }
    const first = await store.issue('p1', a.id, {
      name: 'Tender',
      issuedBy: 'Ann',
      versions,
      figures,
      files,
    })
    await store.issue('p1', a.id, { name: 'B', issuedBy: 'Ann', versions, figures, files })
    expect(told.map((issue) => [issue.number, issue.name])).toEqual([
      [1, 'Tender'],
      [2, 'B'],
    ])
    expect(told[0]).toEqual({
      number: 1,
      name: 'Tender',
      issuedAt: first?.issuedAt,
      issuedBy: 'Ann',
      versions,
    })
    expect(text(await store.issueFile('p1', a.id, 1, 'xlsx'))).toBe('workbook of 1')
    expect(text(await store.issueFile('p1', a.id, 2, 'csv'))).toBe('csv of B')
    expect(await store.issueFile('p1', a.id, 3, 'xlsx')).toBeUndefined()
    expect(await store.issueFile('p2', a.id, 1, 'xlsx')).toBeUndefined()
    expect(await store.issueFile('p1', a.id, 2 ** 40, 'xlsx')).toBeUndefined()
    expect(await store.issueFile('p1', 'not-a-bill', 1, 'xlsx')).toBeUndefined()
  })

  it('keeps no issue whose files could not be written, and gives its number to the next', async () => {
    const store = await storeOf()
    const a = await store.create(newBill('p1', 'Tender'))
    const failing = async (): Promise<IssueFiles> => {
      throw new Error('the workbook could not be written')
    }
    await expect(
      store.issue('p1', a.id, {
        name: 'Tender',
        issuedBy: 'Ann',
        versions,
        figures,
        files: failing,
      }),
    ).rejects.toThrow('the workbook could not be written')
    expect(await store.issues('p1', a.id)).toEqual([])
    const next = await store.issue('p1', a.id, {
      name: 'Tender',
      issuedBy: 'Ann',
      versions,
      figures,
      files: noFiles,
    })
    expect(next?.number).toBe(1)
  })

  it('gives two processes issuing at once a number each, and both see every bill', async () => {
    const one = await storeOf()
    const two = place?.shared ? await storeOf() : one
    const a = await one.create(newBill('p1', 'Tender'))
    expect(await two.get('p1', a.id)).toEqual(a)
    const made = await Promise.all(
      [one, two, one, two].map((store, i) =>
        store.issue('p1', a.id, {
          name: `I${i}`,
          issuedBy: 'Ann',
          versions,
          figures,
          files: noFiles,
        }),
      ),
    )
    expect(made.map((issue) => issue?.number).sort()).toEqual([1, 2, 3, 4])
    expect((await two.issues('p1', a.id)).map((issue) => issue.number)).toEqual([1, 2, 3, 4])
  })

  it('keeps a drawing’s part by job and versions, once, seen by every process', async () => {
    const one = await storeOf()
    const two = place?.shared ? await storeOf() : one
    const jobId = (await place?.newJobId()) as string
    const other = (await place?.newJobId()) as string
    const encode = (s: string) => new TextEncoder().encode(s)
    const key = { jobId, versions: 'p1.r2.c0.s1' }
    expect(await one.parts([key])).toEqual(new Map())
    await one.keepPart(key, encode('part of r2'))
    // Kept again (another process made it too): one stays.
    await two.keepPart(key, encode('part of r2'))
    await one.keepPart({ jobId, versions: 'p1.r3.c0.s1' }, encode('part of r3'))
    const found = await two.parts([
      key,
      { jobId, versions: 'p1.r3.c0.s1' },
      { jobId, versions: 'p1.r4.c0.s1' },
      { jobId: other, versions: 'p1.r2.c0.s1' },
    ])
    expect([...found].map(([name, bytes]) => [name, text(bytes)])).toEqual([
      [partKeyText(key), 'part of r2'],
      [partKeyText({ jobId, versions: 'p1.r3.c0.s1' }), 'part of r3'],
    ])
    // An id that is no job's, or names a path, finds nothing and keeps nothing.
    for (const bad of [
      { jobId: '../../etc', versions: 'x' },
      { jobId, versions: '../x' },
    ]) {
      await one.keepPart(bad, encode('nowhere'))
      expect(await one.parts([bad])).toEqual(new Map())
    }
  })
})
