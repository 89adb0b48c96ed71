import { describe, expect, it } from 'vitest'
import type { CloudContext, JsonApiResource } from '../../cloud/types.ts'
import type { WatchedVersion, WatchRecord } from '../store/types.ts'
import { background } from './background.ts'
import { type CatchUpDeps, catchUpResumed, eventCatchUps, missedSince } from './catch-up.ts'
import { EVENT_WINDOW_MS } from './event-window.ts'

const MINUTE = 60_000
const created = Date.parse('2026-01-05T08:00:00.000Z')
const pausedAt = created + 60 * MINUTE
const at = (ms: number) => new Date(ms).toISOString()

const watch: WatchRecord = {
  id: 'w1',
  userId: 'ann',
  projectId: 'p1',
  fileFolderId: 'top',
  folder: { name: 'Plans', hubId: 'h1', path: ['top'] },
  createdAt: at(created),
  updatedAt: at(pausedAt),
  state: 'paused',
  pausedAt: at(pausedAt),
}

const item = (id: string, name: string, lastModified: number): JsonApiResource => ({
  type: 'items',
  id,
  attributes: { displayName: name, lastModifiedTime: at(lastModified) },
})

const version = (storageId: string, name: string, createdAt: number): JsonApiResource => ({
  type: 'versions',
  id: `v-${storageId}`,
  attributes: { name, versionNumber: 1, createTime: at(createdAt) },
  relationships: { storage: { data: { type: 'objects', id: storageId } } },
})

/** A folder `top` with a subfolder `sub`, and what each item's versions are. */
function cloudOf(versions: Record<string, JsonApiResource[]>) {
  const listed: string[] = []
  const contents: Record<string, JsonApiResource[]> = {
    top: [
      { type: 'folders', id: 'sub', attributes: {} },
      item('old', 'old.dwg', created - MINUTE),
      item('plan', 'plan.dwg', pausedAt + MINUTE),
      item('bill', 'plan BOQ.xlsx', pausedAt + MINUTE),
    ],
    sub: [item('deep', 'deep.dwg', pausedAt + 2 * MINUTE)],
  }
  return {
    listed,
    cloud: {
      contents: async (_ctx: CloudContext, _hub: string, _project: string, folderId: string) =>
        contents[folderId] ?? [],
      versions: async (_ctx: CloudContext, _hub: string, _project: string, itemId: string) => {
        listed.push(itemId)
        return versions[itemId] ?? []
      },
    },
  }
}

function depsWith(cloud: CatchUpDeps['cloud']) {
  const noted: WatchedVersion[] = []
  let kicks = 0
  const deps: CatchUpDeps = {
    store: {
      async noteWatchedVersions(_watchId, versions) {
        noted.push(...versions)
        return versions.length
      },
    },
    cloud,
    access: {
      contextFor: async () => ({
        user: { userId: 'ann', name: 'Ann', picture: '' },
        accessToken: 'a',
      }),
    },
    onNoted: () => {
      kicks++
    },
  }
  return { deps, noted, kicks: () => kicks }
}

describe('a resumed watch catching up', () => {
  it('looks back as far as a late event is taken before the pause, never before the watch', () => {
    expect(missedSince(watch)).toBe(pausedAt - EVENT_WINDOW_MS)
    const pausedAtOnce = { ...watch, pausedAt: at(created + MINUTE) }
    expect(missedSince(pausedAtOnce)).toBe(created)
    const { pausedAt: _unknown, ...unknown } = watch
    expect(missedSince(unknown)).toBe(created)
  })

  it('notes the drawing versions made since, in the folder and below, and kicks the dispatcher', async () => {
    const { cloud, listed } = cloudOf({
      plan: [
        version('s-before-watch', 'plan.dwg', created - MINUTE),
        // The version whose event found the access refused: made just before the pause.
        version('s-paused-by', 'plan.dwg', pausedAt - 2000),
        version('s-while-paused', 'plan.dwg', pausedAt + MINUTE),
      ],
      deep: [version('s-deep', 'deep.dwg', pausedAt + 2 * MINUTE)],
    })
    const { deps, noted, kicks } = depsWith(cloud)
    await catchUpResumed(deps, [watch])
    expect(noted.map((v) => [v.fileStorageId, v.fileFolderId, v.folder?.name])).toEqual([
      ['s-paused-by', 'top', 'Plans'],
      ['s-while-paused', 'top', 'Plans'],
      ['s-deep', 'sub', undefined],
    ])
    // An item untouched since before the watch, and a bill, have no versions listed.
    expect(listed.sort()).toEqual(['deep', 'plan'])
    expect(kicks()).toBe(1)
  })

  it('leaves a watch it cannot look through and catches the next one up', async () => {
    const { cloud } = cloudOf({ plan: [version('s-new', 'plan.dwg', pausedAt + MINUTE)] })
    const failing = {
      ...cloud,
      contents: async (ctx: CloudContext, hub: string, project: string, folderId: string) => {
        if (project === 'gone') throw new Error('The folder was not found in Autodesk.')
        return cloud.contents(ctx, hub, project, folderId)
      },
    }
    const { deps, noted } = depsWith(failing)
    await catchUpResumed(deps, [{ ...watch, id: 'w0', projectId: 'gone' }, watch])
    expect(noted.map((v) => v.fileStorageId)).toEqual(['s-new'])
  })
})

describe('catching up after an event that failed', () => {
  const active: WatchRecord = { ...watch, state: 'active', pausedAt: undefined, hookId: 'h1' }
  const occurredAt = pausedAt + 2 * MINUTE

  /** Catch-ups with no wait between tries, over a store that knows `found` by its hook. */
  function catchUpsWith(cloud: CatchUpDeps['cloud'], found: WatchRecord | undefined) {
    const { deps, noted } = depsWith(cloud)
    const work = background()
    const catchUps = eventCatchUps({
      ...deps,
      store: {
        ...deps.store,
        watchByHookId: async (id) => (id === found?.hookId ? found : undefined),
      },
      background: work,
      delaysMs: [0, 0, 0],
    })
    /** Every try done (each next try waits for its timer first). */
    const settled = async () => {
      for (let i = 0; i < 10; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5))
        await work.settled()
      }
    }
    return { catchUps, noted, settled }
  }

  it('notes the drawing versions made since the event (looking back as far as an event is taken)', async () => {
    const { cloud } = cloudOf({
      plan: [
        version('s-long-before', 'plan.dwg', occurredAt - EVENT_WINDOW_MS - MINUTE),
        version('s-event', 'plan.dwg', occurredAt - 1000),
      ],
      deep: [version('s-deep', 'deep.dwg', occurredAt + MINUTE)],
    })
    const { catchUps, noted, settled } = catchUpsWith(cloud, active)
    catchUps.after('h1', occurredAt)
    // A second failure of the same watch meanwhile makes no second walk.
    catchUps.after('h1', occurredAt + MINUTE)
    await settled()
    expect(noted.map((v) => v.fileStorageId)).toEqual(['s-event', 's-deep'])
    await catchUps.close()
  })

  it('tries again while the cloud fails, and gives up after the last try', async () => {
    const { cloud } = cloudOf({ plan: [version('s-event', 'plan.dwg', occurredAt)] })
    let failures = 2
    let calls = 0
    const flaky = {
      ...cloud,
      contents: async (ctx: CloudContext, hub: string, project: string, folderId: string) => {
        calls++
        if (folderId === 'top' && failures-- > 0) throw new Error('Autodesk had an error.')
        return cloud.contents(ctx, hub, project, folderId)
      },
    }
    const recovering = catchUpsWith(flaky, active)
    recovering.catchUps.after('h1', occurredAt)
    await recovering.settled()
    expect(recovering.noted.map((v) => v.fileStorageId)).toEqual(['s-event'])
    await recovering.catchUps.close()

    failures = Number.POSITIVE_INFINITY
    calls = 0
    const failing = catchUpsWith(flaky, active)
    failing.catchUps.after('h1', occurredAt)
    await failing.settled()
    expect(calls).toBe(3)
    expect(failing.noted).toEqual([])
    await failing.catchUps.close()
  })

  it('leaves a watch ended or paused (its resumption catches it up), and drops what waits on close', async () => {
    const { cloud, listed } = cloudOf({ plan: [version('s-event', 'plan.dwg', occurredAt)] })
    const paused = catchUpsWith(cloud, { ...active, state: 'paused' })
    paused.catchUps.after('h1', occurredAt)
    paused.catchUps.after('gone', occurredAt)
    await paused.settled()
    expect(listed).toEqual([])
    await paused.catchUps.close()

    const closing = catchUpsWith(cloud, active)
    closing.catchUps.after('h1', occurredAt)
    await closing.catchUps.close()
    closing.catchUps.after('h1', occurredAt)
    await closing.settled()
    expect(closing.noted).toEqual([])
  })
})
