import { describe, expect, it } from 'vitest'
import { AppError } from '../errors.ts'
import { contextFor, newJobFor } from '../testing/jobs/fakes.ts'
import { STORE_PLACES, storesIn } from '../testing/jobs/store-places.ts'
import { SIGN_IN_AGAIN } from './failure.ts'

const newJob = (userId: string, storageId: string) =>
  newJobFor(userId, storageId, {
    fileVersionNumber: 2,
    folder: { name: 'Plans', hubId: 'h1', path: ['f0', 'f1'] },
    units: { system: 'metric', drawingUnits: 'mm' },
  })

const limits = { maxActivePerUser: 3 }
const files = (text: string) => ({
  xlsx: new TextEncoder().encode(`${text}.xlsx`),
  csv: new TextEncoder().encode(`${text}.csv`),
  json: new TextEncoder().encode(`{"${text}":1}`),
})

describe.each(STORE_PLACES)('the JobStore contract: %s store', (_name, makePlace) => {
  const { openStore, closeStore } = storesIn(makePlace)

  it('keeps what was submitted, lists a user’s jobs newest first, and only theirs', async () => {
    const store = await openStore()
    const a = (await store.submit(newJob('ann', 's1'), limits)).job
    await new Promise((r) => setTimeout(r, 5))
    const b = (await store.submit(newJob('ann', 's2'), limits)).job
    await store.submit(newJob('bob', 's3'), limits)

    expect((await store.listByUser('ann')).map((j) => j.id)).toEqual([b.id, a.id])
    expect(await store.get(a.id)).toEqual(a)
    expect(a).toMatchObject({
      status: 'queued',
      userId: 'ann',
      fileStorageId: 's1',
      fileVersionNumber: 2,
      folder: { name: 'Plans', hubId: 'h1', path: ['f0', 'f1'] },
      units: { system: 'metric', drawingUnits: 'mm' },
      attempts: 0,
    })
  })

  it('answers nothing for an unknown or malformed id', async () => {
    const store = await openStore()
    expect(await store.get('00000000-0000-4000-8000-000000000000')).toBeUndefined()
    expect(await store.get('not-an-id')).toBeUndefined()
    expect(await store.readResult('not-an-id', 'xlsx')).toBeUndefined()
  })

  it('answers the active job for a duplicate, per user, and a new one once it ended', async () => {
    const store = await openStore()
    const first = await store.submit(newJob('ann', 's1'), limits)
    const again = await store.submit(newJob('ann', 's1'), limits)
    expect(again).toEqual({ created: false, job: first.job })
    const bobs = await store.submit(newJob('bob', 's1'), limits)
    expect(bobs.created).toBe(true)

    const claimed = await store.claim()
    await store.fail(claimed?.job.id as string, 'no')
    expect((await store.submit(newJob('ann', 's1'), limits)).created).toBe(true)
  })

  it('refuses a submission past the per-user limit with a 429 that says the limit', async () => {
    const store = await openStore()
    for (const s of ['s1', 's2', 's3']) await store.submit(newJob('ann', s), limits)
    const refused = await store.submit(newJob('ann', 's4'), limits).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(AppError)
    expect(refused).toMatchObject({ status: 429 })
    expect((refused as Error).message).toContain('the limit is 3')
    expect((await store.submit(newJob('bob', 's4'), limits)).created).toBe(true)
  })

  it('hands each queued job out once, oldest first, with the credentials it was queued with', async () => {
    const store = await openStore()
    const a = (await store.submit(newJob('ann', 's1'), limits)).job
    await new Promise((r) => setTimeout(r, 5))
    const b = (await store.submit(newJob('bob', 's2'), limits)).job

    const first = await store.claim()
    const second = await store.claim()
    expect(await store.claim()).toBeUndefined()
    expect(first?.job).toMatchObject({ id: a.id, status: 'running', attempts: 1 })
    expect(first?.context).toEqual(contextFor('ann'))
    expect(second?.job.id).toBe(b.id)
    expect(await store.get(a.id)).toMatchObject({ status: 'running', attempts: 1 })
  })

  it('shows progress while running, keeps the results, and serves them once succeeded', async () => {
    const store = await openStore()
    const { job } = await store.submit(newJob('ann', 's1'), limits)
    await store.claim()
    await store.setProgress(job.id, 0.5)
    expect((await store.get(job.id))?.progress).toBe(0.5)
    expect(await store.readResult(job.id, 'xlsx')).toBeUndefined()

    await store.noteWriteBack(job.id, { fileName: 'plan.boq.xlsx', before: 0 })
    const result = { fileName: 'plan.boq.xlsx', itemId: 'i1', versionNumber: 1, jsonKept: true }
    await store.succeed(job.id, result, files('done'))
    const done = await store.get(job.id)
    expect(done).toMatchObject({ status: 'succeeded', result })
    expect(done?.progress).toBeUndefined()
    expect(done?.writeBack).toEqual({ fileName: 'plan.boq.xlsx', before: 0 })
    expect(new TextDecoder().decode(await store.readResult(job.id, 'csv'))).toBe('done.csv')
    expect(new TextDecoder().decode(await store.readResult(job.id, 'json'))).toBe('{"done":1}')
    expect(await store.readResult(job.id, 'geometry')).toBeUndefined()
  })

  it("keeps a job's drawing geometry with its bill when there is one", async () => {
    const store = await openStore()
    const { job } = await store.submit(newJob('ann', 's1'), limits)
    await store.claim()
    const geometry = new Uint8Array([66, 79, 81, 71, 1, 2, 3])
    const result = { fileName: 'plan.boq.xlsx', itemId: 'i1', versionNumber: 1, geometryKept: true }
    await store.succeed(job.id, result, { ...files('done'), geometry })
    expect((await store.get(job.id))?.result).toEqual(result)
    expect(await store.readResult(job.id, 'geometry')).toEqual(geometry)
  })

  it('keeps a geometry built later with a succeeded job only, for good', async () => {
    const store = await openStore()
    const { job } = await store.submit(newJob('ann', 's1'), limits)
    const first = new Uint8Array([66, 79, 81, 71, 1])
    // Not yet succeeded: nothing to keep it with.
    await store.keepGeometry(job.id, first)
    await store.claim()
    await store.succeed(job.id, { fileName: 'x', itemId: 'i1', versionNumber: 1 }, files('done'))
    expect(await store.readResult(job.id, 'geometry')).toBeUndefined()
    await store.keepGeometry(job.id, first)
    expect(await store.readResult(job.id, 'geometry')).toEqual(first)
    await store.keepGeometry('00000000-0000-4000-8000-000000000000', first)
    await closeStore(store)
    await closeStore(store)
    const reopened = await openStore()
    expect(await reopened.readResult(job.id, 'geometry')).toEqual(first)
  })

  it('records a failure with its reason and serves no results', async () => {
    const store = await openStore()
    const { job } = await store.submit(newJob('ann', 's1'), limits)
    await store.claim()
    await store.setFileVersionNumber(job.id, 7)
    await store.fail(job.id, 'The drawing could not be read.')
    expect(await store.get(job.id)).toMatchObject({
      status: 'failed',
      error: 'The drawing could not be read.',
      fileVersionNumber: 7,
    })
    expect(await store.readResult(job.id, 'xlsx')).toBeUndefined()
  })

  it('puts a released job back in the queue without counting the attempt', async () => {
    const store = await openStore()
    const { job } = await store.submit(newJob('ann', 's1'), limits)
    await store.claim()
    await store.release(job.id)
    expect(await store.get(job.id)).toMatchObject({ status: 'queued', attempts: 0 })
    const again = await store.claim()
    expect(again?.job).toMatchObject({ id: job.id, attempts: 1 })
    expect(await store.claim()).toBeUndefined()
  })

  it('fails a job whose sealed sign-in cannot be opened, asking to sign in again', async () => {
    const writer = await openStore()
    const { job } = await writer.submit(newJob('ann', 's1'), limits)
    await closeStore(writer)
    const otherKey = new Uint8Array(32).fill(9)
    const reader = await openStore({ tokenKey: otherKey })
    expect(await reader.claim()).toBeUndefined()
    expect(await reader.get(job.id)).toMatchObject({ status: 'failed', error: SIGN_IN_AGAIN })
  })

  it('tells listeners of a queued job, and the job log of every change of status', async () => {
    const changes: string[] = []
    const store = await openStore({
      onChange: (c) => changes.push(`${c.previous?.status ?? 'new'}→${c.job.status}`),
    })
    let told = 0
    const stop = store.onQueued(() => told++)
    const { job } = await store.submit(newJob('ann', 's1'), limits)
    await expect.poll(() => told).toBeGreaterThan(0)
    stop()
    await store.claim()
    await store.succeed(job.id, { fileName: 'x', itemId: 'i', versionNumber: 1 }, files('x'))
    expect(changes).toEqual(['new→queued', 'queued→running', 'running→succeeded'])
  })

  it('keeps a re-priced bill as the bill of record: its files and the job change together', async () => {
    const store = await openStore()
    const { job } = await store.submit(newJob('ann', 's1'), limits)
    const bill = (text: string, written?: { itemId: string; versionNumber: number }) => ({
      pricedWith: { rulesVersion: 2, classificationVersion: 1 },
      files: files(text),
      result: { warnings: [`${text} warns`], warningCount: 1 },
      ...(written ? { written } : {}),
    })
    // Only a succeeded job has a bill to replace.
    await expect(store.keepBillOfRecord(job.id, bill('early'))).rejects.toMatchObject({
      status: 409,
    })
    await expect(
      store.keepBillOfRecord('00000000-0000-4000-8000-000000000000', bill('none')),
    ).rejects.toMatchObject({ status: 404 })
    await store.claim()
    await store.succeed(
      job.id,
      {
        fileName: 'x BOQ.xlsx',
        itemId: 'i',
        versionNumber: 1,
        warnings: ['old'],
        warningCount: 1,
        comparedWith: { jobId: 'j0', fileName: 'x.dwg', versionNumber: 1 },
        changedLines: 3,
        jsonKept: true,
      },
      { ...files('extracted'), geometry: new Uint8Array([1, 2]) },
    )
    await store.notePricedWith(job.id, { rulesVersion: 1, classificationVersion: 0 })

    await store.keepBillOfRecord(job.id, bill('again', { itemId: 'i', versionNumber: 2 }))
    const text = async (format: 'xlsx' | 'csv' | 'json') =>
      new TextDecoder().decode(await store.readResult(job.id, format))
    expect(await Promise.all([text('xlsx'), text('csv'), text('json')])).toEqual([
      'again.xlsx',
      'again.csv',
      '{"again":1}',
    ])
    // The geometry is the drawing's: it stays.
    expect(await store.readResult(job.id, 'geometry')).toEqual(new Uint8Array([1, 2]))
    const after = await store.get(job.id)
    expect(after?.pricedWith).toEqual({ rulesVersion: 2, classificationVersion: 1 })
    // What the job says of its result is the new bill's (compared with none: no Changes sheet).
    expect(after?.result).toEqual({
      fileName: 'x BOQ.xlsx',
      itemId: 'i',
      versionNumber: 2,
      warnings: ['again warns'],
      warningCount: 1,
      jsonKept: true,
    })

    // Kept again, and by a store opened afterwards, it is the newest that answers.
    await store.keepBillOfRecord(job.id, bill('third'))
    expect(await text('csv')).toBe('third.csv')
    expect((await store.get(job.id))?.result?.versionNumber).toBe(2)
    await closeStore(store)
    const reopened = await openStore()
    expect(new TextDecoder().decode(await reopened.readResult(job.id, 'json'))).toBe('{"third":1}')
  })

  it('keeps the bill’s part with its bill of record: replaced with it, or gone when it has none', async () => {
    const store = await openStore()
    const { job } = await store.submit(newJob('ann', 's1'), limits)
    await store.claim()
    const part = (text: string) => new TextEncoder().encode(`{"part":"${text}"}`)
    await store.succeed(
      job.id,
      { fileName: 'x', itemId: 'i', versionNumber: 1 },
      { ...files('extracted'), part: part('extracted') },
    )
    const partNow = async () => {
      const bytes = await store.readResult(job.id, 'part')
      return bytes && new TextDecoder().decode(bytes)
    }
    expect(await partNow()).toBe('{"part":"extracted"}')
    const pricedWith = { rulesVersion: 2, classificationVersion: 0 }
    const result = { warnings: [], warningCount: 0 }
    await store.keepBillOfRecord(job.id, {
      pricedWith,
      files: { ...files('again'), part: part('again') },
      result,
    })
    expect(await partNow()).toBe('{"part":"again"}')
    // A bill of record given without a part: the part of the bill it replaced is not its own.
    await store.keepBillOfRecord(job.id, { pricedWith, files: files('third'), result })
    expect(await partNow()).toBeUndefined()
    expect(new TextDecoder().decode(await store.readResult(job.id, 'json'))).toBe('{"third":1}')
  })

  it('records the rules versions a job was re-priced with', async () => {
    const store = await openStore()
    const { job } = await store.submit(newJob('ann', 's1'), limits)
    await store.claim()
    await store.succeed(job.id, { fileName: 'x', itemId: 'i', versionNumber: 1 }, files('x'))
    await store.notePricedWith(job.id, { rulesVersion: 3, classificationVersion: 0 })
    expect(await store.get(job.id)).toMatchObject({
      status: 'succeeded',
      pricedWith: { rulesVersion: 3, classificationVersion: 0 },
    })
  })
})
