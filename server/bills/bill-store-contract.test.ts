import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ProjectFigures } from '../../contract/project-bills.ts'
import { openEmbeddedBillStore } from './embedded-bill-store.ts'
import type { BillStore } from './types.ts'

/** Each implementation of the seam, opened over a fresh place (removed after each test). */
const STORES: [string, () => Promise<{ store: BillStore; remove(): Promise<void> }>][] = [
  [
    'embedded',
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'boq-bill-store-'))
      const store = await openEmbeddedBillStore({ dataDir })
      return { store, remove: () => rm(dataDir, { recursive: true, force: true }) }
    },
  ],
]

const figures: ProjectFigures = { units: { length: 'm', area: 'm²' }, items: [], total: 12.5 }
const versions = [{ itemId: 'i1', fileName: 'L1.dwg', versionNumber: 2, jobId: 'j1' }]

describe.each(STORES)('the BillStore contract: %s store', (_name, open) => {
  let opened: Awaited<ReturnType<typeof open>> | undefined
  const storeOf = async () => {
    opened = await open()
    return opened.store
  }
  afterEach(async () => {
    await opened?.store.close()
    await opened?.remove()
    opened = undefined
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
    expect(await store.issue('p2', a.id, { name: 'x', issuedBy: 'Bob', versions, figures })).toBe(
      undefined,
    )
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
    await store.issue('p1', a.id, { name: 'Tender', issuedBy: 'Ann', versions, figures })
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
    })
    expect(first).toMatchObject({ number: 1, name: 'Tender', issuedBy: 'Ann', versions, figures })
    const second = await store.issue('p1', a.id, {
      name: 'Revision B',
      issuedBy: 'Bob',
      versions: [],
      figures: { ...figures, total: 20 },
    })
    expect(second?.number).toBe(2)
    expect(await store.issues('p1', a.id)).toEqual([first, second])
  })

  it('gives issues made at once a number each, never one twice', async () => {
    const store = await storeOf()
    const a = await store.create(newBill('p1', 'Tender'))
    const made = await Promise.all(
      ['A', 'B', 'C', 'D', 'E'].map((name) =>
        store.issue('p1', a.id, { name, issuedBy: 'Ann', versions, figures }),
      ),
    )
    expect(made.map((issue) => issue?.number).sort()).toEqual([1, 2, 3, 4, 5])
    expect((await store.issues('p1', a.id)).map((issue) => issue.number)).toEqual([1, 2, 3, 4, 5])
  })
})
