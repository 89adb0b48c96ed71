import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AuthProvider } from '../auth/types.ts'
import type { CloudContext } from '../cloud/types.ts'
import { AppError, SessionExpiredError, TokenRejectedError } from '../errors.ts'
import type { JobStore } from '../jobs/types.ts'
import { newJobFor } from '../testing/jobs/fakes.ts'
import { openTempJobStore } from '../testing/jobs/temp-store.ts'
import { waitFor } from '../testing/jobs/wait.ts'
import { openTempWatchStore } from '../testing/watches/temp-store.ts'
import { FOLDER_LOST } from './checked-context.ts'
import { type Dispatcher, startDispatcher } from './dispatcher.ts'
import { ACCESS_NEEDED, ACCESS_REFUSED, standingAccess } from './standing-access.ts'
import type { WatchedVersion, WatchRecord, WatchStore } from './store/types.ts'

const ann = { userId: 'u-ann', name: 'Ann', picture: '' }
const HOUR = 60 * 60 * 1000
const noRefresh = {} as AuthProvider

const version = (storageId: string, fileName = `${storageId}.dwg`): WatchedVersion => ({
  fileStorageId: storageId,
  fileName,
  projectId: 'p1',
  fileFolderId: 'f1',
  fileVersionNumber: 1,
})

let jobStore: JobStore
let watches: WatchStore
let dispatcher: Dispatcher | undefined

beforeEach(async () => {
  jobStore = await openTempJobStore('boq-dispatcher-')
  watches = await openTempWatchStore('boq-dispatcher-watches-')
})

afterEach(async () => {
  await dispatcher?.close()
  dispatcher = undefined
  await watches.close()
  await jobStore.close()
})

async function watchWithGrant(units?: WatchRecord['units']): Promise<WatchRecord> {
  await standingAccess(watches, noRefresh).keep({
    user: ann,
    tokens: { accessToken: 'a', refreshToken: 'r', expiresAt: Date.now() + HOUR },
  })
  const { watch } = await watches.createWatch({
    userId: ann.userId,
    projectId: 'p1',
    fileFolderId: 'f1',
    state: 'active',
    ...(units ? { units } : {}),
  })
  return watch
}

/** A cloud that locates every version in Plans and answers for the folder as `checkFolder` does. */
function cloudWith(checkFolder: (ctx: CloudContext) => Promise<void> = async () => {}) {
  return {
    locate: async () => ({ folder: { name: 'Plans', hubId: 'h1', path: ['f1'] } }),
    checkFolder,
  }
}

function start(
  maxActivePerUser = 10,
  options: { cloud?: ReturnType<typeof cloudWith>; provider?: AuthProvider } = {},
): Dispatcher {
  dispatcher = startDispatcher({
    store: watches,
    jobs: jobStore,
    cloud: options.cloud ?? cloudWith(),
    access: standingAccess(watches, options.provider ?? noRefresh),
    maxActivePerUser,
    everyMs: 60_000,
  })
  return dispatcher
}

/** A provider that hands out `fresh-…` tokens, or refuses as a revoked grant is refused. */
function providerThat(refuses: boolean): AuthProvider {
  return {
    async refresh() {
      if (refuses) throw new SessionExpiredError()
      return { accessToken: 'fresh-a', refreshToken: 'fresh-r', expiresAt: Date.now() + HOUR }
    },
  } as unknown as AuthProvider
}

describe('the dispatcher', () => {
  it('queues a noted version in the owner’s name with the watch’s units, the folder located', async () => {
    const watch = await watchWithGrant({ system: 'imperial' })
    await watches.noteWatchedVersions(watch.id, [version('s1', 'plan.dwg')], 'pending')
    start()
    const [job] = await waitFor(async () => {
      const jobs = await jobStore.listByUser(ann.userId)
      return jobs.length === 1 && jobs
    }, 'the job')
    expect(job).toMatchObject({
      fileName: 'plan.dwg',
      fileStorageId: 's1',
      units: { system: 'imperial' },
      watchId: watch.id,
      folder: { name: 'Plans', hubId: 'h1' },
      status: 'queued',
    })
    // Settled as queued once the job is in (the store answers it just before).
    await waitFor(async () => (await watches.waitingCount(watch.id)) === 0, 'settled')
  })

  it('does not extract again a version the owner has with the same units, but does with others', async () => {
    const watch = await watchWithGrant({ system: 'metric' })
    await jobStore.submit(newJobFor(ann.userId, 'same', { units: { system: 'metric' } }), {
      maxActivePerUser: 10,
    })
    await jobStore.submit(newJobFor(ann.userId, 'other-units', { units: { system: 'imperial' } }), {
      maxActivePerUser: 10,
    })
    await watches.noteWatchedVersions(
      watch.id,
      [version('same'), version('other-units')],
      'pending',
    )
    const d = start()
    await waitFor(async () => (await watches.waitingCount(watch.id)) === 0, 'both settled')
    d.kick()
    const jobs = await jobStore.listByUser(ann.userId)
    expect(jobs.filter((job) => job.fileStorageId === 'same')).toHaveLength(1)
    // The store answers the job under way for the same version whatever its units: still one.
    expect(jobs.filter((job) => job.fileStorageId === 'other-units')).toHaveLength(1)
  })

  it('keeps the owner’s job limit: the rest wait their turn, in order, none dropped', async () => {
    const watch = await watchWithGrant()
    const versions = ['v1', 'v2', 'v3', 'v4', 'v5'].map((id) => version(id))
    await watches.noteWatchedVersions(watch.id, versions, 'pending')
    const d = start(2)
    await waitFor(async () => (await watches.waitingCount(watch.id)) === 3, 'three waiting')
    expect((await jobStore.listByUser(ann.userId)).map((job) => job.fileStorageId).sort()).toEqual([
      'v1',
      'v2',
    ])
    // A job ends: the next waiting version takes its place.
    const claimed = await jobStore.claim()
    if (!claimed) throw new Error('nothing to claim')
    await jobStore.fail(claimed.job.id, 'done with it')
    d.kick()
    await waitFor(async () => (await watches.waitingCount(watch.id)) === 2, 'two waiting')
    expect((await jobStore.listByUser(ann.userId)).map((job) => job.fileStorageId)).toContain('v3')
  })

  it('pauses a watch whose owner gave no standing access, and its versions wait', async () => {
    const { watch } = await watches.createWatch({
      userId: ann.userId,
      projectId: 'p1',
      fileFolderId: 'f1',
      state: 'active',
    })
    await watches.noteWatchedVersions(watch.id, [version('v1')], 'pending')
    start()
    await waitFor(async () => (await watches.getWatch(watch.id))?.state === 'paused', 'paused')
    expect((await watches.getWatch(watch.id))?.pausedReason).toBe(ACCESS_NEEDED)
    expect(await watches.waitingCount(watch.id)).toBe(1)
    expect(await jobStore.listByUser(ann.userId)).toEqual([])
  })

  it('pauses a watch whose folder is gone, saying so; its versions wait and no job starts', async () => {
    const watch = await watchWithGrant()
    await watches.noteWatchedVersions(watch.id, [version('v1')], 'pending')
    start(10, {
      cloud: cloudWith(async () => {
        throw new AppError(404, 'The folder was not found in Autodesk.')
      }),
    })
    await waitFor(async () => (await watches.getWatch(watch.id))?.state === 'paused', 'paused')
    expect(await watches.getWatch(watch.id)).toMatchObject({
      pausedReason: FOLDER_LOST,
      pausedFor: 'folder',
    })
    expect(await watches.waitingCount(watch.id)).toBe(1)
    expect(await jobStore.listByUser(ann.userId)).toEqual([])
  })

  it('resumes a watch paused for its folder once the folder is back (and not on access given again)', async () => {
    const watch = await watchWithGrant()
    await watches.noteWatchedVersions(watch.id, [version('v1')], 'pending')
    let gone = true
    const d = start(10, {
      cloud: cloudWith(async () => {
        if (gone) throw new AppError(404, 'The folder was not found.')
      }),
    })
    await waitFor(async () => (await watches.getWatch(watch.id))?.state === 'paused', 'paused')
    // The person allowing access again does not make the folder come back.
    await watchWithGrant()
    expect((await watches.getWatch(watch.id))?.state).toBe('paused')
    gone = false
    d.kick()
    await waitFor(async () => (await jobStore.listByUser(ann.userId)).length === 1, 'its job')
    expect(await watches.getWatch(watch.id)).not.toHaveProperty('pausedFor')
  })

  it('leaves a version to wait when it cannot be queued for now (the store failing), skips one refused', async () => {
    const watch = await watchWithGrant()
    await watches.noteWatchedVersions(watch.id, [version('bad'), version('v2')], 'pending')
    const submit = jobStore.submit
    let failing = true
    jobStore.submit = async (job, limits) => {
      if (job.fileStorageId === 'bad') throw new AppError(400, 'This version cannot be extracted.')
      if (failing) throw new Error('connection terminated')
      return submit(job, limits)
    }
    const d = start()
    await waitFor(
      async () => (await watches.waitingCount(watch.id)) === 1,
      'the refused one skipped',
    )
    expect(await jobStore.listByUser(ann.userId)).toEqual([])
    failing = false
    d.kick()
    await waitFor(async () => (await watches.waitingCount(watch.id)) === 0, 'the other queued')
    expect((await jobStore.listByUser(ann.userId)).map((job) => job.fileStorageId)).toEqual(['v2'])
  })

  it('refreshes a grant whose access token the cloud refuses before its time, and queues with the new one', async () => {
    const watch = await watchWithGrant()
    await watches.noteWatchedVersions(watch.id, [version('v1')], 'pending')
    const checkedWith: string[] = []
    start(10, {
      provider: providerThat(false),
      cloud: cloudWith(async (ctx) => {
        checkedWith.push(ctx.accessToken)
        if (ctx.accessToken === 'a') throw new TokenRejectedError()
      }),
    })
    await waitFor(async () => (await watches.waitingCount(watch.id)) === 0, 'settled')
    expect(checkedWith).toEqual(['a', 'fresh-a'])
    const claimed = await jobStore.claim()
    expect(claimed?.job).toMatchObject({ fileStorageId: 'v1', watchId: watch.id })
    expect(claimed?.context.accessToken).toBe('fresh-a')
    expect((await watches.getWatch(watch.id))?.state).toBe('active')
  })

  it('gives no job a revoked grant’s token: the refresh refused, the watch pauses and its versions wait', async () => {
    const watch = await watchWithGrant()
    await watches.noteWatchedVersions(watch.id, [version('v1')], 'pending')
    start(10, {
      provider: providerThat(true),
      cloud: cloudWith(async () => {
        throw new TokenRejectedError()
      }),
    })
    await waitFor(async () => (await watches.getWatch(watch.id))?.state === 'paused', 'paused')
    expect((await watches.getWatch(watch.id))?.pausedReason).toBe(ACCESS_REFUSED)
    await waitFor(async () => (await watches.waitingCount(watch.id)) === 1, 'given back')
    expect(await jobStore.listByUser(ann.userId)).toEqual([])
    expect(await watches.standingGrant(ann.userId)).toBeUndefined()
  })
})
