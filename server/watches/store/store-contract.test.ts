import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { WATCH_STORE_PLACES, watchStoresIn } from '../../testing/watches/store-places.ts'
import type { KeptGrant, NewWatch, StandingGrant, WatchedVersion, WatchStore } from './types.ts'
import { RECORD_DAMAGED } from './watch-record.ts'

const newWatch = (userId: string, fileFolderId = 'f1'): NewWatch => ({
  userId,
  projectId: 'p1',
  fileFolderId,
  folder: { name: 'Plans', hubId: 'h1', path: ['f0', fileFolderId] },
  units: { system: 'metric' },
  state: 'active',
})

const version = (fileStorageId: string): WatchedVersion => ({
  fileStorageId,
  fileName: `${fileStorageId}.dwg`,
  projectId: 'p1',
  fileFolderId: 'f1',
  fileVersionNumber: 1,
  folder: { name: 'Plans', hubId: 'h1', path: ['f0', 'f1'] },
})

const grantWith = (refreshToken: string): StandingGrant => ({
  user: { userId: 'ann', name: 'Ann', picture: '' },
  tokens: { accessToken: `access-for-${refreshToken}`, refreshToken, expiresAt: 1_000 },
})

const refreshOf = (grant: KeptGrant) =>
  grant === 'damaged' ? 'damaged' : grant?.tokens.refreshToken

const ids = (versions: WatchedVersion[]) => versions.map((v) => v.fileStorageId)

/** Lets other calls run meanwhile (and a second process's statements reach the database). */
const pause = () => new Promise((resolve) => setTimeout(resolve, 10))

describe.each(WATCH_STORE_PLACES)('the WatchStore contract: %s store', (_name, makePlace) => {
  const { placeOf, openStore, closeStore } = watchStoresIn(makePlace)

  /** Two stores as two processes where the place allows it; else the one store twice. */
  async function twoStores(): Promise<[WatchStore, WatchStore]> {
    const one = await openStore()
    return (await placeOf()).shared ? [one, await openStore()] : [one, one]
  }

  it('keeps watches, lists a person’s newest first and everyone’s, updates and deletes them', async () => {
    const store = await openStore()
    const { watch: a } = await store.createWatch(newWatch('ann', 'f1'))
    await pause()
    const { watch: b } = await store.createWatch(newWatch('ann', 'f2'))
    const { watch: c } = await store.createWatch(newWatch('bob', 'f3'))

    expect(a).toEqual({
      ...newWatch('ann', 'f1'),
      id: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: a.createdAt,
    })
    expect(await store.getWatch(a.id)).toEqual(a)
    expect((await store.watchesOf('ann')).map((w) => w.id)).toEqual([b.id, a.id])
    expect((await store.allWatches()).map((w) => w.id).sort()).toEqual([a.id, b.id, c.id].sort())
    expect(await store.getWatch(randomUUID())).toBeUndefined()
    expect(await store.getWatch('not-an-id')).toBeUndefined()

    await store.updateWatch(a.id, { state: 'paused', pausedReason: 'Sign in again.', hookId: 'h9' })
    const paused = await store.getWatch(a.id)
    expect(paused).toMatchObject({
      state: 'paused',
      pausedReason: 'Sign in again.',
      hookId: 'h9',
      createdAt: a.createdAt,
      pausedAt: paused?.updatedAt,
    })
    // Paused again for another reason: it has been paused since the first time.
    await pause()
    await store.updateWatch(a.id, { state: 'paused', pausedReason: 'Allow again.' })
    expect(await store.getWatch(a.id)).toMatchObject({
      pausedReason: 'Allow again.',
      pausedAt: paused?.pausedAt,
    })
    // Active again without a reason: the reason it was paused for goes, and when.
    await store.updateWatch(a.id, { state: 'active' })
    const resumed = await store.getWatch(a.id)
    expect(resumed).toMatchObject({ state: 'active', hookId: 'h9' })
    expect(resumed).not.toHaveProperty('pausedReason')
    expect(resumed).not.toHaveProperty('pausedAt')
    // A watch made paused has been paused since it was made.
    const { watch: waiting } = await store.createWatch({
      ...newWatch('bob', 'f4'),
      state: 'paused',
    })
    expect(waiting.pausedAt).toBe(waiting.createdAt)
    expect(await store.getWatch(waiting.id)).toEqual(waiting)
    await store.updateWatch(a.id, { hookId: undefined })
    expect(await store.getWatch(a.id)).not.toHaveProperty('hookId')

    await store.deleteWatch(a.id)
    expect(await store.getWatch(a.id)).toBeUndefined()
    expect((await store.watchesOf('ann')).map((w) => w.id)).toEqual([b.id])
  })

  it('makes one watch of a person’s folder, however many are asked for at once', async () => {
    const [one, two] = await twoStores()
    const asked = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? one : two).createWatch({ ...newWatch('ann'), hookId: `h${i}` }, [
          version(`there-${i}`),
        ]),
      ),
    )
    const made = asked.filter((answer) => answer.created)
    expect(made).toHaveLength(1)
    const [{ watch }] = made
    for (const answer of asked) expect(answer.watch).toEqual(watch)
    expect(await one.watchesOf('ann')).toEqual([watch])
    // Only the starting point of the watch made is recorded.
    const starting = asked.indexOf(made[0])
    expect(await one.noteWatchedVersions(watch.id, [version(`there-${starting}`)], 'pending')).toBe(
      0,
    )

    // Another folder of the person's, or the same folder of another person's: a watch of its own.
    const again = await one.createWatch(newWatch('ann'))
    expect(again).toEqual({ watch, created: false })
    const other = await two.createWatch(newWatch('ann', 'f2'))
    const bobs = await one.createWatch(newWatch('bob'))
    const otherProject = await two.createWatch({ ...newWatch('ann'), projectId: 'p2' })
    for (const answer of [other, bobs, otherProject]) {
      expect(answer.created).toBe(true)
      expect(answer.watch.id).not.toBe(watch.id)
    }
    expect(await one.watchesOf('ann')).toHaveLength(3)

    // Once it ends, the folder can be watched again.
    await one.deleteWatch(watch.id)
    const anew = await two.createWatch(newWatch('ann'))
    expect(anew.created).toBe(true)
    expect(anew.watch.id).not.toBe(watch.id)
  })

  it('finds a watch by its webhook, as the webhook changes', async () => {
    const store = await openStore()
    const { watch } = await store.createWatch({ ...newWatch('ann'), hookId: 'hook-1' })
    await store.createWatch({ ...newWatch('bob'), hookId: 'hook-2' })
    await store.createWatch(newWatch('ann', 'f2'))

    expect(await store.watchByHookId('hook-1')).toEqual(watch)
    expect(await store.watchByHookId('hook-9')).toBeUndefined()
    await store.updateWatch(watch.id, { hookId: 'hook-3' })
    expect(await store.watchByHookId('hook-1')).toBeUndefined()
    expect(await store.watchByHookId('hook-3')).toMatchObject({ id: watch.id, hookId: 'hook-3' })
    await store.updateWatch(watch.id, { hookId: undefined })
    expect(await store.watchByHookId('hook-3')).toBeUndefined()
    await store.updateWatch(watch.id, { hookId: 'hook-4' })
    await store.deleteWatch(watch.id)
    expect(await store.watchByHookId('hook-4')).toBeUndefined()
    expect(await store.watchByHookId('hook-2')).toMatchObject({ userId: 'bob' })
  })

  it('records a version once per watch, however often and however it is noted', async () => {
    const store = await openStore()
    const { watch } = await store.createWatch(newWatch('ann'))
    const { watch: other } = await store.createWatch(newWatch('ann', 'f2'))

    expect(
      await store.noteWatchedVersions(watch.id, [version('s1'), version('s2')], 'baseline'),
    ).toBe(2)
    expect(
      await store.noteWatchedVersions(watch.id, [version('s2'), version('s3')], 'pending'),
    ).toBe(1)
    expect(
      await store.noteWatchedVersions(watch.id, [version('s3'), version('s3')], 'pending'),
    ).toBe(0)
    expect(await store.noteWatchedVersions(other.id, [version('s1')], 'pending')).toBe(1)

    // s2 stays baseline: never to be extracted.
    expect(await store.waitingCount(watch.id)).toBe(1)
    expect(await store.takeWatchedVersions(watch.id, 10)).toEqual([version('s3')])
    expect(await store.takeWatchedVersions(watch.id, 10)).toEqual([])
  })

  it('records ten thousand versions at once', async () => {
    const store = await openStore()
    const { watch } = await store.createWatch(newWatch('ann'))
    const many = Array.from({ length: 10_000 }, (_, i) => version(`s${i}`))
    expect(await store.noteWatchedVersions(watch.id, many, 'pending')).toBe(10_000)
    expect(await store.noteWatchedVersions(watch.id, many, 'pending')).toBe(0)
    expect(await store.waitingCount(watch.id)).toBe(10_000)
  })

  it('hands out waiting versions oldest first; one given back waits first in line', async () => {
    const store = await openStore()
    const { watch } = await store.createWatch(newWatch('ann'))
    for (const id of ['a', 'b', 'c']) {
      await store.noteWatchedVersions(watch.id, [version(id)], 'pending')
      await pause()
    }

    expect(ids(await store.takeWatchedVersions(watch.id, 2))).toEqual(['a', 'b'])
    // Taken and not settled, they still wait.
    expect(await store.waitingCount(watch.id)).toBe(3)
    await store.noteWatchedVersions(watch.id, [version('d')], 'pending')
    await store.settleWatchedVersion(watch.id, 'a', { jobId: randomUUID() })
    await store.settleWatchedVersion(watch.id, 'b', 'wait')
    expect(await store.waitingCount(watch.id)).toBe(3)

    expect(ids(await store.takeWatchedVersions(watch.id, 1))).toEqual(['b'])
    expect(ids(await store.takeWatchedVersions(watch.id, 5))).toEqual(['c', 'd'])
    await store.settleWatchedVersion(watch.id, 'b', { skipped: 'its name is not a drawing’s' })
    // Why, kept with the version for whoever reads the store.
    expect(await (await placeOf()).rawText()).toContain('its name is not a drawing’s')
    await store.settleWatchedVersion(watch.id, 'c', { jobId: randomUUID() })
    await store.settleWatchedVersion(watch.id, 'd', { jobId: randomUUID() })
    expect(await store.waitingCount(watch.id)).toBe(0)
    expect(await store.takeWatchedVersions(watch.id, 5)).toEqual([])
    // Settled versions are still recorded: seen again, they are not new.
    expect(await store.noteWatchedVersions(watch.id, [version('a'), version('b')], 'pending')).toBe(
      0,
    )
  })

  it('hands out versions noted together in the order they were given', async () => {
    const store = await openStore()
    const { watch } = await store.createWatch(newWatch('ann'))
    await store.noteWatchedVersions(watch.id, [version('c'), version('a'), version('b')], 'pending')
    await store.noteWatchedVersions(watch.id, [version('e'), version('d')], 'pending')

    expect(ids(await store.takeWatchedVersions(watch.id, 2))).toEqual(['c', 'a'])
    expect(ids(await store.takeWatchedVersions(watch.id, 5))).toEqual(['b', 'e', 'd'])
  })

  it('never hands the same version to two takers at once', async () => {
    const [one, two] = await twoStores()
    const { watch } = await one.createWatch(newWatch('ann'))
    const all = Array.from({ length: 30 }, (_, i) => version(`s${i}`))
    await one.noteWatchedVersions(watch.id, all, 'pending')

    const taken: string[] = []
    for (;;) {
      const round = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 ? one : two).takeWatchedVersions(watch.id, 4)),
      )
      if (round.every((versions) => versions.length === 0)) break
      taken.push(...round.flatMap(ids))
    }
    expect(taken).toHaveLength(all.length)
    expect(new Set(taken)).toEqual(new Set(ids(all)))
  })

  it('forgets what a deleted watch saw', async () => {
    const store = await openStore()
    const { watch } = await store.createWatch(newWatch('ann'))
    await store.noteWatchedVersions(watch.id, [version('forgotten-version')], 'pending')
    await store.deleteWatch(watch.id)
    expect(await store.waitingCount(watch.id)).toBe(0)
    expect(await store.takeWatchedVersions(watch.id, 5)).toEqual([])
    expect(await (await placeOf()).rawText()).not.toContain('forgotten-version')
  })

  it('keeps a standing grant sealed, rotated by each use, and drops it when refused', async () => {
    const store = await openStore()
    expect(await store.standingGrant('ann')).toBeUndefined()
    const kept = await store.withStandingGrant('ann', async (grant) => ({
      grant: grantWith('refresh-secret-1'),
      value: grant,
    }))
    expect(kept).toBeUndefined()
    expect(await store.standingGrant('ann')).toEqual(grantWith('refresh-secret-1'))
    expect(await store.standingGrant('bob')).toBeUndefined()
    const raw = await (await placeOf()).rawText()
    expect(raw).not.toContain('refresh-secret-1')
    expect(raw).not.toContain('access-for-')

    const used = await store.withStandingGrant('ann', async (grant) => ({
      grant: grantWith('refresh-secret-2'),
      value: refreshOf(grant),
    }))
    expect(used).toBe('refresh-secret-1')
    expect(await store.standingGrant('ann')).toEqual(grantWith('refresh-secret-2'))

    // A use that fails changes nothing.
    const failed = store.withStandingGrant('ann', async () => {
      throw new Error('the provider is away')
    })
    await expect(failed).rejects.toThrow('the provider is away')
    expect(await store.standingGrant('ann')).toEqual(grantWith('refresh-secret-2'))

    expect(await store.withStandingGrant('ann', async () => ({ grant: undefined, value: 1 }))).toBe(
      1,
    )
    expect(await store.standingGrant('ann')).toBeUndefined()
  })

  it('lets one use of a person’s grant run at a time, each seeing the token the last one kept', async () => {
    const [one, two] = await twoStores()
    await one.withStandingGrant('ann', async () => ({ grant: grantWith('r0'), value: 0 }))
    let inside = 0
    let mostInside = 0
    const seen = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? one : two).withStandingGrant('ann', async (grant) => {
          inside++
          mostInside = Math.max(mostInside, inside)
          const token = refreshOf(grant) ?? 'none'
          await pause()
          inside--
          return { grant: grantWith(`r${Number(token.slice(1)) + 1}`), value: token }
        }),
      ),
    )
    expect(mostInside).toBe(1)
    expect(seen.sort()).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5'])
    expect(await two.standingGrant('ann')).toEqual(grantWith('r6'))
  })

  it('records a watch with its starting point in one step: those versions are never taken', async () => {
    const store = await openStore()
    const { watch } = await store.createWatch(newWatch('ann'), [version('there'), version('too')])
    expect(await store.waitingCount(watch.id)).toBe(0)
    expect(
      await store.noteWatchedVersions(watch.id, [version('there'), version('new')], 'pending'),
    ).toBe(1)
    expect(await store.takeWatchedVersions(watch.id, 5)).toEqual([version('new')])
  })

  it('keeps watches, their versions and grants when the store is opened again', async () => {
    const store = await openStore()
    const { watch } = await store.createWatch(newWatch('ann'))
    await store.noteWatchedVersions(watch.id, [version('s1')], 'baseline')
    await store.noteWatchedVersions(watch.id, [version('s2')], 'pending')
    await store.withStandingGrant('ann', async () => ({ grant: grantWith('r1'), value: 0 }))
    await closeStore(store)

    const reopened = await openStore()
    expect(await reopened.getWatch(watch.id)).toEqual(watch)
    expect(await reopened.watchesOf('ann')).toEqual([watch])
    expect(await reopened.waitingCount(watch.id)).toBe(1)
    expect(await reopened.noteWatchedVersions(watch.id, [version('s1')], 'pending')).toBe(0)
    expect(await reopened.takeWatchedVersions(watch.id, 5)).toEqual([version('s2')])
    expect(await reopened.standingGrant('ann')).toEqual(grantWith('r1'))
  })

  it('answers a watch whose record cannot be read as paused, saying so, until it is ended', async () => {
    const warnings: string[] = []
    const log = (message: string) => warnings.push(message)
    const store = await openStore({ log })
    const { watch } = await store.createWatch(newWatch('ann'), [version('there')])
    await pause()
    const { watch: other } = await store.createWatch(newWatch('ann', 'f2'))
    await closeStore(store)
    await (await placeOf()).damage.watchRecord(watch.id)

    const reopened = await openStore({ log })
    const damaged = {
      id: watch.id,
      userId: 'ann',
      projectId: 'p1',
      fileFolderId: 'f1',
      state: 'paused',
      pausedReason: RECORD_DAMAGED,
      pausedFor: 'record',
    }
    expect(await reopened.getWatch(watch.id)).toMatchObject(damaged)
    expect(await reopened.watchesOf('ann')).toEqual([other, expect.objectContaining(damaged)])
    expect(await reopened.allWatches()).toContainEqual(expect.objectContaining(damaged))
    expect(warnings).toContainEqual(expect.stringContaining(watch.id))
    // Nothing makes it active again; watching the folder again answers it, until it is ended.
    await reopened.updateWatch(watch.id, { state: 'active' })
    expect(await reopened.getWatch(watch.id)).toMatchObject(damaged)
    expect(await reopened.createWatch(newWatch('ann'))).toEqual({
      watch: expect.objectContaining(damaged),
      created: false,
    })
    await reopened.deleteWatch(watch.id)
    expect(await reopened.getWatch(watch.id)).toBeUndefined()
    const anew = await reopened.createWatch(newWatch('ann'), [version('there')])
    expect(anew.created).toBe(true)
    expect(await reopened.noteWatchedVersions(anew.watch.id, [version('there')], 'pending')).toBe(0)
  })

  it('tells a standing grant that cannot be read from none, saying so, and keeps a new one over it', async () => {
    const warnings: string[] = []
    const store = await openStore({ log: (message) => warnings.push(message) })
    await store.withStandingGrant('ann', async () => ({ grant: grantWith('r1'), value: 0 }))
    await store.withStandingGrant('bob', async () => ({ grant: grantWith('r1'), value: 0 }))
    await (await placeOf()).damage.grant('ann')

    expect(await store.standingGrant('ann')).toBe('damaged')
    expect(warnings).toContainEqual(expect.stringContaining('standing grant'))
    expect(await store.standingGrant('bob')).toEqual(grantWith('r1'))
    // Dropped, it is none; kept anew, it is read again.
    const seen = await store.withStandingGrant('ann', async (grant) => ({
      grant: undefined,
      value: grant,
    }))
    expect(seen).toBe('damaged')
    expect(await store.standingGrant('ann')).toBeUndefined()
    await store.withStandingGrant('ann', async () => ({ grant: grantWith('r2'), value: 0 }))
    expect(await store.standingGrant('ann')).toEqual(grantWith('r2'))
  })
})
