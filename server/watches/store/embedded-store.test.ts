import {
  appendFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  truncate,
  writeFile,
} from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TEST_TOKEN_KEY } from '../../testing/jobs/fakes.ts'
import { openEmbeddedWatchStore } from './embedded-store.ts'
import type { NewWatch, WatchedVersion } from './types.ts'
import { RECORD_DAMAGED } from './watch-record.ts'

let dataDir: string
/** What the store logged. */
const logged: string[] = []
const open = () =>
  openEmbeddedWatchStore({
    dataDir,
    tokenKey: TEST_TOKEN_KEY,
    log: (message) => logged.push(message),
  })
const annsWatch: NewWatch = { userId: 'ann', projectId: 'p1', fileFolderId: 'f1', state: 'active' }
const fileOf = (watchId: string, name: string) => join(dataDir, 'watches', watchId, name)
const version = (id: string): WatchedVersion => ({
  fileStorageId: id,
  fileName: `${id}.dwg`,
  projectId: 'p1',
  fileFolderId: 'f1',
})

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'boq-embedded-watches-'))
})

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true })
  logged.splice(0)
})

describe('the embedded watches on disk', () => {
  it('frees at once what a process before had taken and not settled (it owned the folder)', async () => {
    const first = await open()
    const { watch } = await first.createWatch({
      userId: 'ann',
      projectId: 'p1',
      fileFolderId: 'f1',
      state: 'active',
    })
    await first.noteWatchedVersions(watch.id, [version('a'), version('b')], 'pending')
    expect(await first.takeWatchedVersions(watch.id, 2)).toHaveLength(2)
    await first.settleWatchedVersion(watch.id, 'a', { jobId: 'j1' })
    await first.close()

    const second = await open()
    expect(await second.takeWatchedVersions(watch.id, 5)).toEqual([version('b')])
    await second.close()
  })

  it('a watch deleted while its record is being written stays deleted, reopened too', async () => {
    const first = await open()
    const made = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        first.createWatch({
          userId: 'ann',
          projectId: 'p1',
          fileFolderId: `f${i}`,
          state: 'active',
        }),
      ),
    )
    // Each update is under way when its delete comes: both finish, and the watch is gone.
    await Promise.all(
      made.map(async ({ watch }) => {
        const updated = first.updateWatch(watch.id, { state: 'paused', pausedReason: 'Gone.' })
        await first.deleteWatch(watch.id)
        await updated
      }),
    )
    expect(await first.watchesOf('ann')).toEqual([])
    await first.close()

    const second = await open()
    expect(await second.allWatches()).toEqual([])
    expect(await readdir(join(dataDir, 'watches'))).toEqual(['grants'])
    await second.close()
  })

  it('leaves out a torn last line and writes the log whole again, so lines appended later hold', async () => {
    const first = await open()
    const { watch } = await first.createWatch({
      userId: 'ann',
      projectId: 'p1',
      fileFolderId: 'f1',
      state: 'active',
    })
    await first.noteWatchedVersions(watch.id, [version('a')], 'pending')
    await first.close()
    const log = join(dataDir, 'watches', watch.id, 'versions.jsonl')
    await appendFile(log, '{"state":"pending","seenAt":"2026-')

    const second = await open()
    expect(await second.waitingCount(watch.id)).toBe(1)
    await second.noteWatchedVersions(watch.id, [version('b')], 'pending')
    await second.close()
    const third = await open()
    expect(await third.waitingCount(watch.id)).toBe(2)
    expect((await readFile(log, 'utf8')).trim().split('\n')).toHaveLength(2)
    expect((await readdir(join(dataDir, 'watches', watch.id))).sort()).toEqual([
      'start.json',
      'versions.jsonl',
      'watch.json',
    ])
    await third.close()
  })

  it('leaves out a line that is not a version’s state, saying so, and keeps the rest: the watch goes on', async () => {
    const first = await open()
    const { watch } = await first.createWatch(annsWatch, [version('there')])
    await first.noteWatchedVersions(watch.id, [version('a'), version('b')], 'pending')
    await first.close()
    const log = fileOf(watch.id, 'versions.jsonl')
    await appendFile(log, '{}\n')

    const second = await open()
    expect(await second.getWatch(watch.id)).toMatchObject({ state: 'active' })
    expect(logged).toEqual([
      expect.stringMatching(/left out 1 unreadable line\(s\) of .*versions\.jsonl.*\{\}/),
    ])
    expect(await second.waitingCount(watch.id)).toBe(2)
    // A version seen after the damage is taken like any other; the one there before never is.
    expect(
      await second.noteWatchedVersions(watch.id, [version('there'), version('c')], 'pending'),
    ).toBe(1)
    expect((await second.takeWatchedVersions(watch.id, 5)).map((v) => v.fileStorageId)).toEqual([
      'a',
      'b',
      'c',
    ])
    await second.close()
    expect(await readFile(log, 'utf8')).not.toContain('{}')
  })

  it('keeps its starting point when its log is emptied: what was there before is never taken', async () => {
    const first = await open()
    const { watch } = await first.createWatch(annsWatch, [version('there'), version('too')])
    await first.noteWatchedVersions(watch.id, [version('later')], 'pending')
    await first.close()
    await truncate(fileOf(watch.id, 'versions.jsonl'), 0)

    const second = await open()
    expect(await second.getWatch(watch.id)).toMatchObject({ state: 'active' })
    // Found again by the next look: only the version seen since the watch began waits again.
    const found = [version('there'), version('too'), version('later')]
    expect(await second.noteWatchedVersions(watch.id, found, 'pending')).toBe(1)
    expect(await second.takeWatchedVersions(watch.id, 5)).toEqual([version('later')])
    await second.close()
  })

  it('keeps apart the starting point of a watch begun before it was, then holds it through an emptied log', async () => {
    // A watch as it was kept before: its starting point in its log.
    const id = '00000000-0000-4000-8000-000000000001'
    const now = new Date().toISOString()
    await mkdir(join(dataDir, 'watches', id), { recursive: true })
    await writeFile(
      fileOf(id, 'watch.json'),
      JSON.stringify({ ...annsWatch, id, createdAt: now, updatedAt: now }),
    )
    await writeFile(
      fileOf(id, 'versions.jsonl'),
      `${JSON.stringify({ state: 'baseline', seenAt: now, version: version('there') })}\n`,
    )
    await (await open()).close()
    await truncate(fileOf(id, 'versions.jsonl'), 0)

    const store = await open()
    expect(await store.noteWatchedVersions(id, [version('there'), version('new')], 'pending')).toBe(
      1,
    )
    expect(await store.takeWatchedVersions(id, 5)).toEqual([version('new')])
    await store.close()
  })

  it('pauses a watch whose starting point cannot be read, saying so: nothing there before is taken', async () => {
    const first = await open()
    const { watch } = await first.createWatch(annsWatch, [version('there')])
    await first.close()
    await truncate(fileOf(watch.id, 'start.json'), 20)

    const second = await open()
    const paused = {
      state: 'paused',
      pausedReason: RECORD_DAMAGED,
      pausedFor: 'record',
    }
    expect(await second.getWatch(watch.id)).toMatchObject(paused)
    expect(logged).toEqual([expect.stringContaining(join(dataDir, 'watches', watch.id))])
    await second.noteWatchedVersions(watch.id, [version('there')], 'pending')
    await second.close()
    // Said on every open, and kept so.
    const third = await open()
    expect(await third.getWatch(watch.id)).toMatchObject(paused)
    expect(await third.takeWatchedVersions(watch.id, 5)).toEqual([])
    await third.close()
  })

  it('pauses a watch whose log cannot be read at all, saying so', async () => {
    const first = await open()
    const { watch } = await first.createWatch(annsWatch)
    await first.close()
    await mkdir(fileOf(watch.id, 'versions.jsonl'))

    const second = await open()
    expect(await second.getWatch(watch.id)).toMatchObject({ state: 'paused', pausedFor: 'record' })
    expect(logged).toEqual([expect.stringContaining('cannot be read')])
    await second.close()
  })

  it('skips a record that does not say whose watch it is, naming it', async () => {
    const first = await open()
    const { watch } = await first.createWatch(annsWatch)
    await first.close()
    await writeFile(fileOf(watch.id, 'watch.json'), '{}')

    const second = await open()
    expect(await second.allWatches()).toEqual([])
    expect(logged).toEqual([expect.stringContaining(fileOf(watch.id, 'watch.json'))])
    await second.close()
  })

  it('names the standing grant file it cannot read', async () => {
    const store = await open()
    await store.withStandingGrant('ann', async () => ({
      grant: {
        user: { userId: 'ann', name: 'Ann', picture: '' },
        tokens: { accessToken: 'a', expiresAt: 0 },
      },
      value: 0,
    }))
    const [file = ''] = await readdir(join(dataDir, 'watches', 'grants'))
    await truncate(join(dataDir, 'watches', 'grants', file), 20)
    expect(await store.standingGrant('ann')).toBe('damaged')
    expect(logged).toEqual([expect.stringContaining(join(dataDir, 'watches', 'grants', file))])
    await store.close()
  })
})
