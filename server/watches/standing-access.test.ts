import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AuthProvider, Tokens } from '../auth/types.ts'
import { SessionExpiredError } from '../errors.ts'
import { openTempWatchStore } from '../testing/watches/temp-store.ts'
import {
  ACCESS_DAMAGED,
  ACCESS_REFUSED,
  type StandingAccess,
  standingAccess,
} from './standing-access.ts'
import type { NewWatch, WatchStore } from './store/types.ts'
import { RECORD_DAMAGED } from './store/watch-record.ts'

const ann = { userId: 'u-ann', name: 'Ann', picture: '' }
const HOUR = 60 * 60 * 1000

/** A provider whose refresh hands out numbered tokens, or refuses once `refusing` is set. */
function countingProvider() {
  const state = { refreshes: 0, refusing: false, given: [] as string[] }
  const provider = {
    async refresh(tokens: Tokens): Promise<Tokens> {
      state.given.push(tokens.refreshToken ?? '')
      if (state.refusing) throw new SessionExpiredError()
      state.refreshes++
      return {
        accessToken: `access-${state.refreshes}`,
        refreshToken: `refresh-${state.refreshes}`,
        expiresAt: Date.now() + HOUR,
      }
    },
  } as unknown as AuthProvider
  return { provider, state }
}

const watchOf = (userId: string, fileFolderId = 'f1'): NewWatch => ({
  userId,
  projectId: 'p1',
  fileFolderId,
  state: 'active',
})

let store: WatchStore
let access: StandingAccess
let provider: ReturnType<typeof countingProvider>

beforeEach(async () => {
  store = await openTempWatchStore('boq-standing-')
  provider = countingProvider()
  access = standingAccess(store, provider.provider)
})

afterEach(async () => {
  await store.close()
})

describe('acting for a person while away', () => {
  it('has no context without a grant', async () => {
    expect(await access.contextFor(ann.userId)).toBeUndefined()
    expect(provider.state.given).toEqual([])
  })

  it('uses the access token while it lasts, then refreshes and keeps the rotated refresh token', async () => {
    await access.keep({
      user: ann,
      tokens: { accessToken: 'first', refreshToken: 'refresh-0', expiresAt: Date.now() + HOUR },
    })
    expect(await access.contextFor(ann.userId)).toEqual({ user: ann, accessToken: 'first' })
    expect(provider.state.refreshes).toBe(0)

    // Expiring within the margin: refreshed, and the new refresh token kept for the next time.
    await access.keep({
      user: ann,
      tokens: { accessToken: 'dying', refreshToken: 'refresh-0', expiresAt: Date.now() + 1000 },
    })
    expect(await access.contextFor(ann.userId)).toEqual({ user: ann, accessToken: 'access-1' })
    expect(await store.standingGrant(ann.userId)).toMatchObject({
      tokens: { refreshToken: 'refresh-1' },
    })
  })

  it('refreshes once for two callers at once, each using the token the other kept', async () => {
    await access.keep({
      user: ann,
      tokens: { accessToken: 'dying', refreshToken: 'refresh-0', expiresAt: Date.now() },
    })
    const [a, b] = await Promise.all([access.contextFor(ann.userId), access.contextFor(ann.userId)])
    expect(a).toEqual(b)
    // Never the same refresh token twice (Autodesk would refuse the second use).
    expect(provider.state.given).toEqual(['refresh-0'])
  })

  it('refreshes before its time when the cloud rejected the access token, once for that token', async () => {
    await access.keep({
      user: ann,
      tokens: { accessToken: 'first', refreshToken: 'refresh-0', expiresAt: Date.now() + HOUR },
    })
    const [a, b] = await Promise.all([
      access.contextFor(ann.userId, { rejected: 'first' }),
      access.contextFor(ann.userId, { rejected: 'first' }),
    ])
    expect([a?.accessToken, b?.accessToken]).toEqual(['access-1', 'access-1'])
    expect(provider.state.given).toEqual(['refresh-0'])
    // A token rejected earlier than the one kept now changes nothing.
    expect(await access.contextFor(ann.userId, { rejected: 'first' })).toEqual({
      user: ann,
      accessToken: 'access-1',
    })
    expect(provider.state.refreshes).toBe(1)
  })

  it('pauses every watch of the person, saying why, when the provider refuses the grant; allowing again resumes them', async () => {
    const { watch: first } = await store.createWatch(watchOf(ann.userId))
    const { watch: second } = await store.createWatch(watchOf(ann.userId, 'f2'))
    const { watch: bobs } = await store.createWatch(watchOf('u-bob'))
    await access.keep({
      user: ann,
      tokens: { accessToken: 'dying', refreshToken: 'revoked', expiresAt: Date.now() },
    })
    provider.state.refusing = true
    expect(await access.contextFor(ann.userId)).toBeUndefined()
    for (const watch of [first, second]) {
      expect(await store.getWatch(watch.id)).toMatchObject({
        state: 'paused',
        pausedReason: ACCESS_REFUSED,
      })
    }
    expect((await store.getWatch(bobs.id))?.state).toBe('active')
    // The refused grant is gone: nothing asks the provider again with it.
    expect(await store.standingGrant(ann.userId)).toBeUndefined()
    expect(await access.contextFor(ann.userId)).toBeUndefined()
    expect(provider.state.given).toEqual(['revoked'])

    const whilePaused = await store.watchesOf(ann.userId)
    expect(whilePaused.map((watch) => watch.pausedAt)).toEqual([
      expect.any(String),
      expect.any(String),
    ])

    provider.state.refusing = false
    const answered = await access.keep({
      user: ann,
      tokens: { accessToken: 'new', refreshToken: 'again', expiresAt: Date.now() + HOUR },
    })
    // The watches it resumed, as they were while paused: since when tells what to catch up on.
    expect(answered).toEqual(whilePaused)
    const resumed = await store.getWatch(first.id)
    expect(resumed?.state).toBe('active')
    expect(resumed).not.toHaveProperty('pausedReason')
  })

  it('pauses every watch of the person, saying so, when their grant cannot be read, and drops it; allowing again resumes them', async () => {
    const { watch } = await store.createWatch(watchOf(ann.userId))
    const { watch: unreadable } = await store.createWatch({
      ...watchOf(ann.userId, 'f2'),
      state: 'paused',
      pausedReason: RECORD_DAMAGED,
      pausedFor: 'record',
    })
    await access.keep({
      user: ann,
      tokens: { accessToken: 'kept', refreshToken: 'refresh-0', expiresAt: Date.now() + HOUR },
    })
    // The store finds the kept grant unreadable (as a file cut short is).
    const damaged: WatchStore = {
      ...store,
      withStandingGrant: (userId, use) => store.withStandingGrant(userId, () => use('damaged')),
    }
    expect(await standingAccess(damaged, provider.provider).contextFor(ann.userId)).toBeUndefined()
    expect(await store.getWatch(watch.id)).toMatchObject({
      state: 'paused',
      pausedReason: ACCESS_DAMAGED,
      pausedFor: 'access',
    })
    expect(await store.standingGrant(ann.userId)).toBeUndefined()
    expect(provider.state.given).toEqual([])

    const resumed = await access.keep({
      user: ann,
      tokens: { accessToken: 'new', refreshToken: 'again', expiresAt: Date.now() + HOUR },
    })
    expect(resumed.map((w) => w.id)).toEqual([watch.id])
    expect((await store.getWatch(watch.id))?.state).toBe('active')
    // One whose record cannot be read waits for its owner to end it.
    expect(await store.getWatch(unreadable.id)).toMatchObject({
      state: 'paused',
      pausedFor: 'record',
    })
  })
})
