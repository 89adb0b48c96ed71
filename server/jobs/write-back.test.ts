import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { contextFor, createFakeCloud, newJobFor } from '../testing/jobs/fakes.ts'
import { openTempJobStore } from '../testing/jobs/temp-store.ts'
import type { JobRecord, JobStore } from './types.ts'
import { writeBackOnce } from './write-back.ts'

let store: JobStore
let fake: ReturnType<typeof createFakeCloud>
const ctx = contextFor('ann')
const bytes = new TextEncoder().encode('xlsx')

beforeEach(async () => {
  store = await openTempJobStore('boq-write-back-')
  fake = createFakeCloud()
  fake.folders.add('p1/f1')
})

afterEach(async () => {
  await store.close()
})

/** A job as a worker holds it after claiming it. */
async function claimedJob(): Promise<JobRecord> {
  await store.submit(newJobFor('ann', 's1'), { maxActivePerUser: 5 })
  const claimed = await store.claim()
  return claimed?.job as JobRecord
}

const versionsOf = (name: string) => fake.items.get(`p1/f1/${name}`)?.versions.length ?? 0

describe('writeBackOnce', () => {
  it('writes the result as the next version and notes it before and after', async () => {
    await fake.cloud.upload(ctx, {
      projectId: 'p1',
      folderId: 'f1',
      fileName: 'plan BOQ.xlsx',
      bytes,
    })
    const job = await claimedJob()
    const written = await writeBackOnce(fake.cloud, store, ctx, job, bytes)
    expect(written).toMatchObject({ fileName: 'plan BOQ.xlsx', versionNumber: 2 })
    expect((await store.get(job.id))?.writeBack).toEqual({
      fileName: 'plan BOQ.xlsx',
      before: 1,
      written: { itemId: written.itemId, versionNumber: 2 },
    })
  })

  it('does not write again for a job whose earlier run wrote and noted it', async () => {
    const job = await claimedJob()
    const first = await writeBackOnce(fake.cloud, store, ctx, job, bytes)
    const again = await writeBackOnce(
      fake.cloud,
      store,
      ctx,
      (await store.get(job.id)) as JobRecord,
      bytes,
    )
    expect(again).toEqual(first)
    expect(versionsOf('plan BOQ.xlsx')).toBe(1)
  })

  it('takes the version an earlier run wrote but stopped before noting', async () => {
    const job = await claimedJob()
    // The earlier run noted the folder, uploaded, and its worker died before the second note.
    await store.noteWriteBack(job.id, { fileName: 'plan BOQ.xlsx', before: 0 })
    await fake.cloud.upload(ctx, {
      projectId: 'p1',
      folderId: 'f1',
      fileName: 'plan BOQ.xlsx',
      bytes,
    })

    const rerun = (await store.get(job.id)) as JobRecord
    const written = await writeBackOnce(fake.cloud, store, ctx, rerun, bytes)
    expect(written.versionNumber).toBe(1)
    expect(versionsOf('plan BOQ.xlsx')).toBe(1)
  })

  it('writes when an earlier run noted the folder but never uploaded', async () => {
    const job = await claimedJob()
    await store.noteWriteBack(job.id, { fileName: 'plan BOQ.xlsx', before: 0 })
    const rerun = (await store.get(job.id)) as JobRecord
    const written = await writeBackOnce(fake.cloud, store, ctx, rerun, bytes)
    expect(written.versionNumber).toBe(1)
    expect(versionsOf('plan BOQ.xlsx')).toBe(1)
  })
})
