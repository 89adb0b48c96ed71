import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AppError } from '../errors.ts'
import { contextFor, newJobFor, TEST_TOKEN_KEY } from '../testing/jobs/fakes.ts'
import { openEmbeddedJobStore } from './embedded-store.ts'
import { SIGN_IN_AGAIN, STOPPED_WHILE_EXTRACTING } from './failure.ts'
import type { JobChange, JobStore } from './types.ts'

let dataDir: string
const open: JobStore[] = []

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'boq-jobs-store-'))
})

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()))
  await rm(dataDir, { recursive: true, force: true })
})

async function openStore(
  options: { tokenKey?: Uint8Array; onChange?: (change: JobChange) => void } = {},
) {
  const store = await openEmbeddedJobStore({
    dataDir,
    tokenKey: TEST_TOKEN_KEY,
    log: () => {},
    ...options,
  })
  open.push(store)
  return store
}

const newJob = (userId: string, storageId: string) => newJobFor(userId, storageId)

const limits = { maxActivePerUser: 3 }

describe('embedded job store', () => {
  it('keeps jobs across a reopen, newest first per user', async () => {
    const store = await openStore()
    const a = (await store.submit(newJob('ann', 's1'), limits)).job
    await new Promise((r) => setTimeout(r, 5))
    const b = (await store.submit(newJob('ann', 's2'), limits)).job
    await store.submit(newJob('bob', 's3'), limits)
    await store.close()

    const again = await openStore()
    const ids = (await again.listByUser('ann')).map((j) => j.id)
    expect(ids).toEqual([b.id, a.id])
    expect(await again.get(a.id)).toMatchObject({
      status: 'queued',
      fileStorageId: 's1',
      userId: 'ann',
    })
  })

  it('answers the active job for a duplicate submission, per user', async () => {
    const store = await openStore()
    const first = await store.submit(newJob('ann', 's1'), limits)
    const second = await store.submit(newJob('ann', 's1'), limits)
    expect(first.created).toBe(true)
    expect(second).toMatchObject({ created: false, job: { id: first.job.id } })
    const bobs = await store.submit(newJob('bob', 's1'), limits)
    expect(bobs.created).toBe(true)
    expect(bobs.job.id).not.toBe(first.job.id)

    // Once finished, the same version can be extracted again.
    await store.claim()
    await store.fail(first.job.id, 'no')
    expect((await store.submit(newJob('ann', 's1'), limits)).created).toBe(true)
  })

  it('keeps the units chosen with the job, across a reopen; a duplicate keeps the first one', async () => {
    const store = await openStore()
    const units = { system: 'imperial', drawingUnits: 'cm' } as const
    const chosen = (await store.submit({ ...newJob('ann', 's1'), units }, limits)).job
    const plain = (await store.submit(newJob('ann', 's2'), limits)).job
    expect(chosen.units).toEqual(units)
    expect(plain).not.toHaveProperty('units')
    const again = await store.submit(
      { ...newJob('ann', 's1'), units: { system: 'metric' } },
      limits,
    )
    expect(again).toMatchObject({ created: false, job: { id: chosen.id, units } })
    await store.close()

    const reopened = await openStore()
    expect((await reopened.get(chosen.id))?.units).toEqual(units)
    expect(await reopened.get(plain.id)).not.toHaveProperty('units')
    expect((await reopened.claim())?.job).toMatchObject({ id: chosen.id, units })
  })

  it('keeps where the drawing sits and the version read, learnt at submit or later, across a reopen', async () => {
    const store = await openStore()
    const folder = { name: 'Level 1', hubId: 'h1', path: ['top', 'f1'] }
    const located = (
      await store.submit({ ...newJob('ann', 's1'), fileVersionNumber: 3, folder }, limits)
    ).job
    const later = (await store.submit({ ...newJob('ann', 's2'), folder: { hubId: 'h1' } }, limits))
      .job
    expect(later).not.toHaveProperty('fileVersionNumber')
    await store.setFileVersionNumber(later.id, 5)
    folder.path.push('changed by the caller afterwards')
    await store.close()

    const reopened = await openStore()
    expect(await reopened.get(located.id)).toMatchObject({
      fileVersionNumber: 3,
      folder: { name: 'Level 1', hubId: 'h1', path: ['top', 'f1'] },
    })
    expect(await reopened.get(later.id)).toMatchObject({
      fileVersionNumber: 5,
      folder: { hubId: 'h1' },
    })
    await expect(reopened.setFileVersionNumber('nope', 1)).rejects.toMatchObject({ status: 404 })
  })

  it('refuses more queued jobs than the per-user limit with 429', async () => {
    const store = await openStore()
    for (const s of ['s1', 's2', 's3']) await store.submit(newJob('ann', s), limits)
    const refused = store.submit(newJob('ann', 's4'), limits)
    await expect(refused).rejects.toBeInstanceOf(AppError)
    await expect(refused).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/limit is 3/),
    })
    expect((await store.submit(newJob('bob', 's4'), limits)).created).toBe(true)
  })

  it('hands queued jobs out oldest first, once, with the captured context', async () => {
    const store = await openStore()
    const a = (await store.submit(newJob('ann', 's1'), limits)).job
    const b = (await store.submit(newJob('bob', 's2'), limits)).job
    const [first, second, none] = await Promise.all([store.claim(), store.claim(), store.claim()])
    expect(first?.job).toMatchObject({ id: a.id, status: 'running', attempts: 1 })
    expect(first?.context).toEqual(contextFor('ann'))
    expect(second?.job.id).toBe(b.id)
    expect(none).toBeUndefined()
  })

  it('seals tokens on disk and forgets them once the job is finished', async () => {
    const store = await openStore()
    const { job } = await store.submit(newJob('ann', 's1'), limits)
    const record = () => readFile(join(dataDir, 'jobs', job.id, 'job.json'), 'utf8')
    expect(await record()).not.toContain('token-ann')
    expect(JSON.parse(await record()).credentials).toEqual(expect.any(String))
    await store.claim()
    await store.succeed(
      job.id,
      { fileName: 'plan BOQ.xlsx', itemId: 'i1', versionNumber: 1 },
      {
        xlsx: new Uint8Array([1, 2]),
        csv: new TextEncoder().encode('a,b'),
        json: new TextEncoder().encode('{}'),
      },
    )
    expect(JSON.parse(await record()).credentials).toBeUndefined()
    expect(await store.readResult(job.id, 'xlsx')).toEqual(new Uint8Array([1, 2]))
    expect(new TextDecoder().decode(await store.readResult(job.id, 'csv'))).toBe('a,b')
  })

  it('fails a job found running at the next open, at once: the drawing may be what stopped the server', async () => {
    const store = await openStore()
    const { job } = await store.submit(newJob('ann', 's1'), limits)
    const waiting = (await store.submit(newJob('ann', 's2'), limits)).job
    await store.claim()
    // No close: as after kill -9.
    const second = await openStore()
    const failed = await second.get(job.id)
    expect(failed).toMatchObject({ status: 'failed', error: STOPPED_WHILE_EXTRACTING, attempts: 1 })
    expect(STOPPED_WHILE_EXTRACTING).toMatch(
      /^The server stopped while extracting this drawing, so it was not tried again: the drawing may be one that stops the reader\. Try it again, or ask your administrator\.$/,
    )
    // Its token is gone with it; the job queued behind it runs; the same drawing can be asked again.
    const record = JSON.parse(await readFile(join(dataDir, 'jobs', job.id, 'job.json'), 'utf8'))
    expect(record.credentials).toBeUndefined()
    expect((await second.claim())?.job).toMatchObject({ id: waiting.id, attempts: 1 })
    expect(await second.claim()).toBeUndefined()
    expect((await second.submit(newJob('ann', 's1'), limits)).created).toBe(true)

    // A later open changes nothing more.
    await second.close()
    const third = await openStore()
    expect(await third.get(job.id)).toMatchObject({ status: 'failed', attempts: 1 })
  })

  it('runs again a job found running that had begun writing its BOQ back: its drawing was read', async () => {
    const store = await openStore()
    const { job } = await store.submit(newJob('ann', 's1'), limits)
    await store.claim()
    await store.noteWriteBack(job.id, {
      fileName: 'plan BOQ.xlsx',
      before: 0,
      written: { itemId: 'i1', versionNumber: 1 },
    })
    // No close: as after kill -9 between the upload and the job's end.
    const second = await openStore()
    expect(await second.get(job.id)).toMatchObject({ status: 'queued', attempts: 1 })
    const claimed = await second.claim()
    expect(claimed?.job).toMatchObject({
      id: job.id,
      attempts: 2,
      writeBack: { written: { itemId: 'i1', versionNumber: 1 } },
    })
    expect(claimed?.context.user.userId).toBe('ann')
  })

  it('starts past a record it cannot use, naming its file and what is wrong, and keeps the rest', async () => {
    const logged: string[] = []
    const store = await openEmbeddedJobStore({
      dataDir,
      tokenKey: TEST_TOKEN_KEY,
      log: (m) => logged.push(m),
    })
    open.push(store)
    const { job } = await store.submit(newJob('ann', 's1'), limits)
    await store.close()
    const bad = {
      'empty object': '{}',
      null: 'null',
      'job without fields': '{"version":1,"job":{}}',
      'wrong status': JSON.stringify({ version: 1, job: { ...job, status: 'done' } }),
      'another job': JSON.stringify({ version: 1, job }),
      'not JSON': '{"version":1,',
    }
    const ids = Object.keys(bad).map((_, i) => `00000000-0000-4000-8000-00000000000${i}`)
    for (const [i, text] of Object.values(bad).entries()) {
      await mkdir(join(dataDir, 'jobs', ids[i] ?? ''))
      await writeFile(join(dataDir, 'jobs', ids[i] ?? '', 'job.json'), text)
    }
    const again = await openEmbeddedJobStore({
      dataDir,
      tokenKey: TEST_TOKEN_KEY,
      log: (m) => logged.push(m),
    })
    open.push(again)
    expect(await again.get(job.id)).toMatchObject({ status: 'queued' })
    for (const id of ids) {
      expect(await again.get(id)).toBeUndefined()
      expect(logged).toContainEqual(
        expect.stringContaining(
          `jobs: skipped the unreadable record ${join(dataDir, 'jobs', id, 'job.json')}: `,
        ),
      )
    }
    expect(logged.find((m) => m.includes(ids[2] ?? '-'))).toMatch(/job\.id: /)
    expect(logged.find((m) => m.includes(ids[4] ?? '-'))).toMatch(/it names job /)
    // Left on disk for a person to look at.
    expect(await readFile(join(dataDir, 'jobs', ids[0] ?? '', 'job.json'), 'utf8')).toBe('{}')
  })

  it('tells of every change of status once it is on disk', async () => {
    const changes: JobChange[] = []
    const store = await openStore({ onChange: (change) => changes.push(change) })
    const seen = () => changes.splice(0).map((c) => [c.previous?.status ?? null, c.job.status])
    const a = (await store.submit(newJob('ann', 's1'), limits)).job
    const b = (await store.submit(newJob('ann', 's2'), limits)).job
    expect(seen()).toEqual([
      [null, 'queued'],
      [null, 'queued'],
    ])
    await store.claim()
    await store.setProgress(a.id, 0.5)
    await store.setFileVersionNumber(a.id, 2)
    await store.release(a.id)
    expect(seen()).toEqual([
      ['queued', 'running'],
      ['running', 'queued'],
    ])
    await store.claim()
    await store.succeed(
      a.id,
      { fileName: 'plan BOQ.xlsx', itemId: 'i1', versionNumber: 1 },
      { xlsx: new Uint8Array([1]), csv: new Uint8Array([2]), json: new Uint8Array([3]) },
    )
    await store.claim()
    await store.fail(b.id, 'no')
    expect(changes.map((c) => [c.job.id, c.job.status])).toEqual([
      [a.id, 'running'],
      [a.id, 'succeeded'],
      [b.id, 'running'],
      [b.id, 'failed'],
    ])
    expect(changes[3]?.job.error).toBe('no')
    changes.length = 0

    // At open: a job left running is failed, and said so.
    const c = (await store.submit(newJob('bob', 's3'), limits)).job
    await store.claim()
    changes.length = 0
    const reopened = await openStore({ onChange: (change) => changes.push(change) })
    expect(changes.map((x) => [x.job.id, x.previous?.status, x.job.status])).toEqual([
      [c.id, 'running', 'failed'],
    ])
    expect(await reopened.get(c.id)).toMatchObject({ status: 'failed' })
  })

  it('fails a queued job whose sealed token cannot be opened any more', async () => {
    const store = await openStore({ tokenKey: new Uint8Array(32).fill(2) })
    const { job } = await store.submit(newJob('ann', 's1'), limits)
    await store.close()
    const other = await openStore({ tokenKey: new Uint8Array(32).fill(3) })
    expect(await other.claim()).toBeUndefined()
    expect(await other.get(job.id)).toMatchObject({ status: 'failed', error: SIGN_IN_AGAIN })
  })

  it('ignores what a kill in the middle of a write leaves behind', async () => {
    const store = await openStore()
    const { job } = await store.submit(newJob('ann', 's1'), limits)
    await store.close()
    const jobDir = join(dataDir, 'jobs', job.id)
    await writeFile(join(jobDir, 'job.json.abc123.tmp'), '{"torn')
    const orphan = join(dataDir, 'jobs', '00000000-0000-4000-8000-000000000000')
    await mkdir(orphan)
    const again = await openStore()
    expect(await again.get(job.id)).toMatchObject({ status: 'queued' })
    expect(await readdir(jobDir)).toEqual(['job.json'])
    await expect(readdir(orphan)).rejects.toThrow()
  })

  it('puts a released job back at the head of the queue without counting the attempt', async () => {
    const store = await openStore()
    const a = (await store.submit(newJob('ann', 's1'), limits)).job
    await store.submit(newJob('ann', 's2'), limits)
    await store.claim()
    await store.release(a.id)
    expect((await store.claim())?.job).toMatchObject({ id: a.id, attempts: 1 })
  })

  it('deletes finished jobs past the retention, with their folders, when it opens', async () => {
    const store = await openStore()
    const old = (await store.submit(newJob('ann', 's1'), limits)).job
    const recent = (await store.submit(newJob('ann', 's2'), limits)).job
    for (const id of [old.id, recent.id]) {
      await store.claim()
      await store.fail(id, 'no')
    }
    await store.close()
    const record = join(dataDir, 'jobs', old.id, 'job.json')
    const stored = JSON.parse(await readFile(record, 'utf8'))
    stored.job.createdAt = new Date(Date.now() - 91 * 24 * 60 * 60 * 1000).toISOString()
    await writeFile(record, JSON.stringify(stored))

    const again = await openStore()
    expect(await again.get(old.id)).toBeUndefined()
    await expect(readdir(join(dataDir, 'jobs', old.id))).rejects.toThrow()
    expect(await again.get(recent.id)).toMatchObject({ status: 'failed' })
  })
})
