import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { settingsFor, signInAtFake } from '../../../dev/fake-aps/helpers.ts'
import type { SeedIds } from '../../../dev/fake-aps/seed.ts'
import { type FakeAps, startFakeAps } from '../../../dev/fake-aps/server.ts'
import type { FakeHook, FakeItem } from '../../../dev/fake-aps/state.ts'
import type { CloudContext } from '../../auth/types.ts'
import { createApsAuthProvider } from '../../cloud/aps/auth-provider.ts'
import { createApsCloudBackend } from '../../cloud/aps/backend.ts'
import { type ApsHooks, createApsHooks, hookSecretToken } from '../../cloud/aps/hooks.ts'
import { createApsVersions } from '../../cloud/aps/version-by-id.ts'
import { errorResponse } from '../../http/errors.ts'
import { waitFor } from '../../testing/jobs/wait.ts'
import { openTempWatchStore } from '../../testing/watches/temp-store.ts'
import { ACCESS_REFUSED, standingAccess } from '../standing-access.ts'
import type { WatchRecord, WatchStore } from '../store/types.ts'
import { type Background, background } from './background.ts'
import { type EventCatchUps, eventCatchUps } from './catch-up.ts'
import { EVENT_WINDOW_MS } from './event-window.ts'
import { type HookEventOutcome, hookEventsRoute, MAX_EVENT_BYTES } from './events-route.ts'

// The events route on a real loopback server; the fake Autodesk delivers to it as Autodesk does
// (its hooks made by the real webhooks client), and the versions are noted in a real watch store.
// An event that fails after its answer is caught up at once here (no wait between tries).

let fake: FakeAps
let ids: SeedIds
let store: WatchStore
let server: ReturnType<typeof serve>
let eventsUrl: string
let ctx: CloudContext
let hooks: ApsHooks
let watch: WatchRecord
let hook: FakeHook
let work: Background
let catchUps: EventCatchUps
const secret = hookSecretToken(new Uint8Array(32).fill(3))
const outcomes: HookEventOutcome[] = []
let noted = 0

beforeAll(async () => {
  fake = await startFakeAps()
  ids = fake.ids as SeedIds
  store = await openTempWatchStore('boq-hook-events-')
  const provider = createApsAuthProvider(settingsFor(fake))
  const access = standingAccess(store, provider)
  const { tokens } = await signInAtFake(provider)
  const user = await provider.profile(tokens)
  await access.keep({ user, tokens })
  ctx = { user, accessToken: tokens.accessToken }
  const onNoted = () => {
    noted += 1
  }
  work = background()
  catchUps = eventCatchUps({
    store,
    cloud: createApsCloudBackend(settingsFor(fake)),
    access,
    onNoted,
    background: work,
    delaysMs: [0, 0, 0],
  })

  const app = new Hono()
  app.onError(errorResponse)
  app.route(
    '/api/boq',
    hookEventsRoute({
      store,
      access,
      versions: createApsVersions(settingsFor(fake)),
      secret,
      onNoted,
      background: work,
      catchUps,
      onHandled: (outcome) => outcomes.push(outcome),
    }),
  )
  server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  eventsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/boq/watches/events`
  hooks = createApsHooks(settingsFor(fake), { callbackUrl: eventsUrl, secret })

  // Project Files is watched: drawings land in its subfolder Drawings.
  const hookId = await hooks.create(ctx, ids.projectFilesId)
  watch = (
    await store.createWatch({
      userId: user.userId,
      projectId: ids.projectId,
      fileFolderId: ids.projectFilesId,
      folder: { name: 'Project Files', hubId: ids.hubId, path: [ids.projectFilesId] },
      state: 'active',
      hookId,
    })
  ).watch
  hook = fake.state.hooks.get(hookId) as FakeHook
})

afterAll(async () => {
  if (server) {
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      ;(server as { closeAllConnections?: () => void }).closeAllConnections?.()
    })
  }
  await catchUps?.close()
  await store?.close()
  await fake?.close()
})

/** Waits until `count` more events were handled; their outcomes. */
async function handled(from: number, count: number): Promise<HookEventOutcome[]> {
  await fake.webhooks.settled()
  while (outcomes.length < from + count) await new Promise((r) => setTimeout(r, 10))
  return outcomes.slice(from)
}

let drawingCount = 0
/** A new drawing in Drawings, straight into the fake's state (nothing delivered yet). */
function newItem(name = `drawing-${++drawingCount}.dwg`): FakeItem {
  return fake.state.addItem(ids.drawingsId, name, [new Uint8Array([1, 2, 3, drawingCount])])
}

const pendingOf = async () => store.waitingCount(watch.id)

describe('Autodesk webhook events', () => {
  it('notes a new drawing version once, even when Autodesk delivers it twice', async () => {
    const from = outcomes.length
    const before = await pendingOf()
    const notedBefore = noted
    const item = newItem()
    fake.webhooks.versionAdded(item, item.versions[0])
    expect(await handled(from, 1)).toEqual(['noted'])
    const delivery = fake.state.deliveries.at(-1)
    expect(delivery?.status).toBe(200)
    expect(delivery?.signature).toMatch(/^sha1hash=[0-9a-f]{40}$/)

    await fake.webhooks.redeliver(delivery?.deliveryId ?? '')
    expect(await handled(from, 2)).toEqual(['noted', 'seen before'])
    expect(fake.state.deliveries.at(-1)?.status).toBe(200)
    expect(await pendingOf()).toBe(before + 1)
    expect(noted).toBe(notedBefore + 1)

    const [taken] = await store.takeWatchedVersions(watch.id, 10)
    expect(taken).toMatchObject({
      fileStorageId: item.versions[0].storageId,
      fileName: item.displayName,
      fileVersionNumber: 1,
      projectId: ids.projectId,
      fileFolderId: ids.drawingsId,
    })
    await store.settleWatchedVersion(watch.id, taken.fileStorageId, { skipped: 'test' })
  })

  it('a version uploaded through Data Management is delivered and noted', async () => {
    const from = outcomes.length
    const cloud = createApsCloudBackend(settingsFor(fake))
    await cloud.upload(ctx, {
      projectId: ids.projectId,
      folderId: ids.drawingsId,
      fileName: 'uploaded.dwg',
      bytes: new Uint8Array([9, 9, 9]),
    })
    expect(await handled(from, 1)).toEqual(['noted'])
    // A BOQ written back is a new version in the folder too: it starts nothing.
    await cloud.upload(ctx, {
      projectId: ids.projectId,
      folderId: ids.drawingsId,
      fileName: 'uploaded BOQ.xlsx',
      bytes: new Uint8Array([1]),
    })
    expect(await handled(from, 2)).toEqual(['noted', 'not a drawing'])
  })

  it('refuses unsigned, wrongly signed and stale events with 401, and starts nothing', async () => {
    const from = outcomes.length
    const before = await pendingOf()
    const item = newItem()
    const body = fake.webhooks.eventBody(hook, item, item.versions[0])
    const unsigned = await fake.webhooks.forge(hook.hookId, body)
    const wrong = await fake.webhooks.forge(
      hook.hookId,
      body,
      fake.webhooks.sign(body, hookSecretToken(new Uint8Array(32).fill(4))),
    )
    const tampered = await fake.webhooks.forge(
      hook.hookId,
      body.replace(item.displayName, 'other.dwg'),
      fake.webhooks.sign(body, secret),
    )
    const staleBody = fake.webhooks.eventBody(
      hook,
      item,
      item.versions[0],
      Date.now() - EVENT_WINDOW_MS - 60_000,
    )
    const stale = await fake.webhooks.forge(
      hook.hookId,
      staleBody,
      fake.webhooks.sign(staleBody, secret),
    )
    expect([unsigned, wrong, tampered, stale].map((d) => d.status)).toEqual([401, 401, 401, 401])

    // The same event signed and fresh gets in: nothing above was handled.
    await fake.webhooks.forge(hook.hookId, body, fake.webhooks.sign(body, secret))
    expect(await handled(from, 1)).toEqual(['noted'])
    expect(await pendingOf()).toBe(before + 1)
  })

  it('ignores an event of a hook no watch has, and one of a paused watch', async () => {
    const from = outcomes.length
    const before = await pendingOf()
    const stray = await hooks.create(ctx, ids.drawingsId)
    const item = newItem()
    fake.webhooks.versionAdded(item, item.versions[0])
    // Two hooks cover Drawings: the watch's (on Project Files) and the stray one.
    expect((await handled(from, 2)).sort()).toEqual(['no watch', 'noted'])
    await hooks.remove(ctx, stray)

    await store.updateWatch(watch.id, { state: 'paused', pausedReason: 'test' })
    const later = newItem()
    fake.webhooks.versionAdded(later, later.versions[0])
    expect((await handled(from, 3)).at(-1)).toBe('paused')
    await store.updateWatch(watch.id, { state: 'active', pausedReason: undefined })
    expect(await pendingOf()).toBe(before + 1)
  })

  it('refuses a body larger than an event can be with 413', async () => {
    const answer = await fetch(eventsUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-adsk-signature': 'sha1hash=00' },
      body: 'x'.repeat(MAX_EVENT_BYTES + 1),
    })
    expect(answer.status).toBe(413)
    await answer.body?.cancel()
  })

  it('an event whose version cannot be read after its answer is caught up from the folder', async () => {
    const from = outcomes.length
    const notedBefore = noted
    const item = newItem()
    fake.faults.add({ method: 'GET', path: /\/versions\/urn:/, status: 500 })
    fake.webhooks.versionAdded(item, item.versions[0])
    expect(await handled(from, 1)).toEqual(['failed'])
    // Autodesk had its answer: it does not deliver the event again.
    expect(fake.state.deliveries.at(-1)?.status).toBe(200)
    await waitFor(() => noted > notedBefore, 'the catch-up noting the version')
    await work.settled()

    const waiting = await store.takeWatchedVersions(watch.id, 100)
    expect(waiting.find((v) => v.fileStorageId === item.versions[0].storageId)).toMatchObject({
      fileName: item.displayName,
      fileVersionNumber: 1,
      projectId: ids.projectId,
      fileFolderId: ids.drawingsId,
    })
    for (const version of waiting) {
      await store.settleWatchedVersion(watch.id, version.fileStorageId, { skipped: 'test' })
    }
  })

  // Last: the person's tokens at the fake stop working here.
  it('refreshes the grant when Autodesk refuses its access token early; refused too, the watch pauses', async () => {
    const from = outcomes.length
    const before = await pendingOf()
    fake.state.expireAccessTokens()
    const item = newItem()
    fake.webhooks.versionAdded(item, item.versions[0])
    expect(await handled(from, 1)).toEqual(['noted'])
    expect(await pendingOf()).toBe(before + 1)

    // The person revoked BOQ's access: the version cannot be read, and the watch says why.
    fake.state.expireAccessTokens()
    fake.state.revokeRefreshTokens()
    const later = newItem()
    fake.webhooks.versionAdded(later, later.versions[0])
    expect(await handled(from, 2)).toEqual(['noted', 'no access'])
    expect(await store.getWatch(watch.id)).toMatchObject({
      state: 'paused',
      pausedReason: ACCESS_REFUSED,
    })
    expect(await store.standingGrant(watch.userId)).toBeUndefined()
  })
})
