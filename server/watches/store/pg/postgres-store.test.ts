import pg from 'pg'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { postgresWatchPlace, type WatchStorePlace } from '../../../testing/watches/store-places.ts'
import type { NewWatch, WatchedVersion, WatchStore } from '../types.ts'
import { RECORD_DAMAGED } from '../watch-record.ts'

let place: WatchStorePlace & { url: string }
let store: WatchStore
const warnings: string[] = []

beforeEach(async () => {
  place = await postgresWatchPlace()
  store = await place.open({ log: (message) => warnings.push(message) })
})

afterEach(async () => {
  await store.close()
  await place.remove()
  warnings.splice(0)
})

async function sql(text: string, values: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: place.url })
  await client.connect()
  try {
    await client.query(text, values)
  } finally {
    await client.end()
  }
}

const newWatch = (fileFolderId: string): NewWatch => ({
  userId: 'ann',
  projectId: 'p1',
  fileFolderId,
  state: 'active',
})

const version = (fileStorageId: string): WatchedVersion => ({
  fileStorageId,
  fileName: `${fileStorageId}.dwg`,
  projectId: 'p1',
  fileFolderId: 'f1',
})

describe('the PostgreSQL watch store', () => {
  it('answers a watch row that is not a watch record paused, from its columns, with a warning naming the watch', async () => {
    const { watch: good } = await store.createWatch(newWatch('f1'))
    const { watch: bad } = await store.createWatch({ ...newWatch('f2'), hookId: 'hook-2' })
    await sql(`UPDATE boq_watches SET record = record - 'state' WHERE id = $1`, [bad.id])

    const standIn = {
      id: bad.id,
      userId: 'ann',
      projectId: 'p1',
      fileFolderId: 'f2',
      hookId: 'hook-2',
      createdAt: bad.createdAt,
      state: 'paused',
      pausedReason: RECORD_DAMAGED,
      pausedFor: 'record',
    }
    expect(await store.watchesOf('ann')).toEqual([expect.objectContaining(standIn), good])
    expect(await store.allWatches()).toEqual([expect.objectContaining(standIn), good])
    expect(await store.getWatch(bad.id)).toMatchObject(standIn)
    expect(await store.watchByHookId('hook-2')).toMatchObject(standIn)
    // Left as it is in the table: an update changes nothing.
    await store.updateWatch(bad.id, { state: 'active' })
    expect(await store.getWatch(bad.id)).toMatchObject(standIn)
    // Said once, however often the row is read.
    expect(warnings).toEqual([
      expect.stringContaining(`the record of watch ${bad.id} cannot be read (state`),
    ])
  })

  it('hands out again a version taken long ago and never settled', async () => {
    const { watch } = await store.createWatch(newWatch('f1'))
    await store.noteWatchedVersions(watch.id, [version('old'), version('recent')], 'pending')
    expect(await store.takeWatchedVersions(watch.id, 5)).toHaveLength(2)
    await sql(
      `UPDATE boq_watched_versions SET taken_at = now() - interval '6 minutes'
       WHERE file_storage_id = 'old'`,
    )
    expect(await store.takeWatchedVersions(watch.id, 5)).toEqual([version('old')])
    expect(await store.takeWatchedVersions(watch.id, 5)).toEqual([])
  })

  it('skips a recorded version that does not read as one, with a warning, for good', async () => {
    const { watch } = await store.createWatch(newWatch('f1'))
    await store.noteWatchedVersions(watch.id, [version('s1'), version('s2')], 'pending')
    await sql(`UPDATE boq_watched_versions SET version = '{}' WHERE file_storage_id = 's1'`)

    expect(await store.takeWatchedVersions(watch.id, 5)).toEqual([version('s2')])
    expect(warnings).toEqual([
      expect.stringContaining(`skipped the unreadable version s1 of watch ${watch.id}`),
    ])
    expect(await store.waitingCount(watch.id)).toBe(1)
  })
})
