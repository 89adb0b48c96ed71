import { appendFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TEST_TOKEN_KEY } from '../testing/jobs/fakes.ts'
import { openEmbeddedWatches } from './embedded-watches.ts'
import type { WatchedVersion } from './watch-types.ts'

let dataDir: string
const open = () => openEmbeddedWatches({ dataDir, tokenKey: TEST_TOKEN_KEY, log: () => {} })
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
      'versions.jsonl',
      'watch.json',
    ])
    await third.close()
  })
})
