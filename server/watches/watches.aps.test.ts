import { createServer } from 'node:net'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Job, JobListSchema } from '#contract/jobs.ts'
import { type Watch, WatchListSchema, WatchSchema } from '#contract/watches.ts'
import { codeFromLoginPageRedirect } from '../../dev/fake-aps/helpers.ts'
import type { SeedIds } from '../../dev/fake-aps/seed.ts'
import {
  FAKE_CLIENT_ID,
  FAKE_CLIENT_SECRET,
  type FakeAps,
  startFakeAps,
} from '../../dev/fake-aps/server.ts'
import type { FakeHook } from '../../dev/fake-aps/state.ts'
import { createApsCloudBackend } from '../cloud/aps/backend.ts'
import type { CloudContext } from '../cloud/types.ts'
import { signInThroughFake } from '../testing/aps-product.ts'
import type { TestClient } from '../testing/client.ts'
import { createFakeExtractor } from '../testing/jobs/fakes.ts'
import { waitFor } from '../testing/jobs/wait.ts'
import { startTestServer, type TestServer } from '../testing/start-test-server.ts'
import { ACCESS_NEEDED, ACCESS_REFUSED } from './standing-access.ts'

// Watched folders in Autodesk mode over real HTTP: the real server against the fake Autodesk,
// which delivers its webhook events to the server's own origin (the callback URL names the port
// the server listens on). New versions arrive through the fake's Data Management API, as another
// Autodesk app of the person's would upload them. The engine is the fake one.

let fake: FakeAps
let ids: SeedIds
let server: TestServer
let client: TestClient
const engine = createFakeExtractor()
/** The person's own uploads, through Autodesk's API with a token of another app of theirs. */
const uploads = { cloud: undefined as ReturnType<typeof createApsCloudBackend> | undefined }

/** A free port on loopback: the callback URL registered with Autodesk must name the real one. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

beforeAll(async () => {
  const port = await freePort()
  const callbackUrl = `http://127.0.0.1:${port}/api/aps/auth/callback`
  fake = await startFakeAps({ callbackUrls: [callbackUrl] })
  ids = fake.ids as SeedIds
  server = await startTestServer({
    port,
    env: {
      APS_CLIENT_ID: FAKE_CLIENT_ID,
      APS_CLIENT_SECRET: FAKE_CLIENT_SECRET,
      APS_CALLBACK_URL: callbackUrl,
      APS_BASE_URL: fake.url,
      BOQ_WATCH_POLL_SECONDS: '1',
      BOQ_MAX_QUEUED_PER_USER: '1',
      BOQ_WORKERS: '1',
    },
    extractor: engine.extractor,
  })
  uploads.cloud = createApsCloudBackend({ baseUrl: fake.url })
  client = await signInThroughFake(server.url)
}, 60_000)

afterAll(async () => {
  await fake?.webhooks.settled()
  await server?.close()
  await fake?.close()
})

const eventsUrl = () => `${server.url}/api/boq/watches/events`

async function jobsOf(): Promise<Job[]> {
  return v.parse(JobListSchema, await client.json('/api/boq/jobs')).data
}

async function watchesOf(): Promise<Watch[]> {
  return v.parse(WatchListSchema, await client.json('/api/boq/watches')).data
}

/** Writes a file into a folder as the person would from another app: item, then versions. */
async function upload(folderId: string, fileName: string, text: string) {
  const grant = fake.state.issueTokens(
    fake.state.user.id,
    'another-app-of-the-person',
    ['data:read', 'data:write', 'data:create'],
    ['data:read', 'data:write', 'data:create'],
  )
  const ctx: CloudContext = {
    user: { userId: fake.state.user.id, name: fake.state.user.name, picture: '' },
    accessToken: grant.accessToken,
  }
  return uploads.cloud?.upload(ctx, {
    projectId: ids.projectId,
    folderId,
    fileName,
    bytes: new TextEncoder().encode(text),
  })
}

/** Waits until the watch has started `count` jobs and all of them have ended; they, newest first. */
function watchJobsEnded(watchId: string, count: number): Promise<Job[]> {
  return waitFor(
    async () => {
      const jobs = (await jobsOf()).filter((job) => job.watchId === watchId)
      return (
        jobs.length === count &&
        jobs.every((job) => job.status === 'succeeded' || job.status === 'failed') &&
        jobs
      )
    },
    `${count} ended jobs of the watch`,
    30_000,
  )
}

/** Follows a consent URL as the browser does: the fake's page, Allow, back on the callback. */
async function consent(consentUrl: string): Promise<void> {
  const login = await client(consentUrl)
  const authorizeUrl = await login.text()
  expect(login.status, authorizeUrl).toBe(200)
  expect(new URL(authorizeUrl).origin).toBe(fake.url)
  const callback = new URL(await codeFromLoginPageRedirect(authorizeUrl))
  expect(callback.origin).toBe(server.url)
  const landed = await client(callback.pathname + callback.search)
  expect(landed.status, await landed.clone().text()).toBe(302)
  await landed.body?.cancel()
}

/** The fake's refresh tokens of the person that are still good, in the order they were issued. */
const liveRefreshTokens = () =>
  [...fake.state.refreshTokens].filter(([, g]) => !g.used && !g.revoked).map(([token]) => token)

describe('watched folders in Autodesk mode, with the fake’s webhooks', () => {
  let watch: Watch
  let hook: FakeHook

  it('a new watch is paused until the person allows standing access; its folder’s hook is made', async () => {
    const response = await client('/api/boq/watches', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: ids.projectId, fileFolderId: ids.drawingsId }),
    })
    expect(response.status, await response.clone().text()).toBe(201)
    watch = v.parse(WatchSchema, await response.json())
    expect(watch).toMatchObject({
      projectId: ids.projectId,
      fileFolderId: ids.drawingsId,
      state: 'paused',
      pausedReason: ACCESS_NEEDED,
      consentUrl: '/api/aps/auth/login?for=watches',
      waiting: 0,
    })
    const hooks = [...fake.state.hooks.values()]
    expect(hooks).toHaveLength(1)
    hook = hooks[0] as FakeHook
    expect(hook).toMatchObject({
      event: 'dm.version.added',
      scope: { folder: ids.drawingsId },
      callbackUrl: `${eventsUrl()}?user=${fake.state.user.id}`,
      createdBy: fake.state.user.id,
      status: 'active',
    })
    expect(fake.state.hookSecrets.has(fake.state.user.id)).toBe(true)
  })

  it('the consent’s own sign-in resumes the watch and leaves the session and its tokens alone', async () => {
    const session = client.cookies.get('boq_session')
    const [sessionRefresh] = liveRefreshTokens()
    expect(liveRefreshTokens()).toHaveLength(1)
    await consent(watch.consentUrl as string)
    expect(client.cookies.get('boq_session')).toBe(session)
    expect(await client.json('/api/aps/auth/profile')).toMatchObject({ userId: fake.state.user.id })
    // Two chains: the session's refresh token was not spent, the grant has one of its own.
    const live = liveRefreshTokens()
    expect(live).toHaveLength(2)
    expect(live[0]).toBe(sessionRefresh)
    const [resumed] = await watchesOf()
    expect(resumed).toMatchObject({
      id: watch.id,
      state: 'active',
      pausedReason: null,
      consentUrl: null,
    })
  })

  it('a new drawing in the folder gets its job in the owner’s name; its BOQ written back starts none', async () => {
    const deliveriesBefore = fake.state.deliveries.length
    await upload(ids.drawingsId, 'watched.dwg', 'first version')
    const [job] = await watchJobsEnded(watch.id, 1)
    expect(job).toMatchObject({
      fileName: 'watched.dwg',
      fileVersionNumber: 1,
      fileFolderId: ids.drawingsId,
      watchId: watch.id,
      status: 'succeeded',
      result: { fileName: 'watched BOQ.xlsx', versionNumber: 1 },
    })
    // The bill is in the folder, and Autodesk told of it too: the events route took both.
    expect(fake.state.findItem(ids.drawingsId, 'watched BOQ.xlsx')).toBeDefined()
    await fake.webhooks.settled()
    const delivered = fake.state.deliveries.slice(deliveriesBefore)
    expect(delivered.map((d) => JSON.parse(d.body).payload.name)).toEqual([
      'watched.dwg',
      'watched BOQ.xlsx',
    ])
    expect(delivered.map((d) => d.status)).toEqual([200, 200])
    expect(engine.seen).toEqual(['watched.dwg'])
  })

  it('a delivery sent again starts no second job; forged or unsigned ones are refused', async () => {
    const first = fake.state.deliveries.find(
      (d) => JSON.parse(d.body).payload.name === 'watched.dwg',
    )
    const again = await fake.webhooks.redeliver(first?.deliveryId ?? '')
    expect(again.status).toBe(200)
    const item = fake.state.findItem(ids.drawingsId, 'watched.dwg')
    if (!item) throw new Error('no watched.dwg')
    const body = fake.webhooks.eventBody(hook, item, item.versions[0] as never)
    const unsigned = await fake.webhooks.forge(hook.hookId, body)
    const forged = await fake.webhooks.forge(
      hook.hookId,
      body,
      fake.webhooks.sign(body, 'not-the-secret-token-of-this-server'),
    )
    expect([unsigned.status, forged.status]).toEqual([401, 401])
    // A later version is noted and billed after them: by then those made nothing.
    await upload(ids.drawingsId, 'watched.dwg', 'second version')
    const jobs = await watchJobsEnded(watch.id, 2)
    expect(jobs.map((job) => [job.fileVersionNumber, job.status])).toEqual([
      [2, 'succeeded'],
      [1, 'succeeded'],
    ])
    expect(engine.seen).toEqual(['watched.dwg', 'watched.dwg'])
    expect((await watchesOf())[0]?.waiting).toBe(0)
  })

  it('access revoked at Autodesk: what waits for a place gets no dead token, the watch pauses saying so; once allowed again, what waited and what came meanwhile get their jobs', async () => {
    const release = engine.hold()
    try {
      // One job holds the person's one place; the next drawing waits for it.
      await upload(ids.drawingsId, 'busy.dwg', 'holds the place')
      await waitFor(
        async () =>
          (await jobsOf()).find((j) => j.fileName === 'busy.dwg' && j.status === 'running'),
        'busy.dwg running',
      )
      await upload(ids.drawingsId, 'waiting.dwg', 'waits for a place')
      await waitFor(async () => (await watchesOf())[0]?.waiting === 1, 'one version waiting')

      // The person removes BOQ's access: every token of theirs stops working, though the
      // grant's access token still looks good for its hour to BOQ.
      fake.state.revokeRefreshTokens(fake.state.user.id)
      fake.state.expireAccessTokens()
    } finally {
      release()
    }
    // The held job could not write its bill with the revoked access. Its place freed, the
    // waiting version is not handed that token: Autodesk refuses it on the folder, the refresh
    // is refused too, and the watch pauses saying so.
    const ended = await watchJobsEnded(watch.id, 3)
    expect(ended[0]).toMatchObject({ fileName: 'busy.dwg', status: 'failed' })
    // The session went with it: the person signs in again.
    client = await signInThroughFake(server.url)
    const paused = await waitFor(async () => {
      const [current] = await watchesOf()
      return current?.state === 'paused' && current.waiting === 1 && current
    }, 'the watch paused with its version waiting')
    expect(paused).toMatchObject({
      pausedReason: ACCESS_REFUSED,
      consentUrl: '/api/aps/auth/login?for=watches',
    })
    expect((await jobsOf()).filter((job) => job.fileName === 'waiting.dwg')).toEqual([])

    // A drawing added while the watch is paused: its event cannot be read, and is dropped.
    await upload(ids.drawingsId, 'meanwhile.dwg', 'while refused')
    await fake.webhooks.settled()
    expect((await watchesOf())[0]).toMatchObject({ state: 'paused', waiting: 1 })

    // Allowed again: the watch looks through its folder for what it missed.
    await consent('/api/aps/auth/login?for=watches')
    const jobs = await watchJobsEnded(watch.id, 5)
    expect(jobs.slice(0, 2).map((job) => [job.fileName, job.status])).toEqual([
      ['meanwhile.dwg', 'succeeded'],
      ['waiting.dwg', 'succeeded'],
    ])
    // Only the job that held its token when the access went failed; nothing older came again.
    expect(jobs.filter((job) => job.status === 'failed').map((job) => job.fileName)).toEqual([
      'busy.dwg',
    ])
    expect(engine.seen.filter((name) => name === 'watched.dwg')).toHaveLength(2)
    expect((await watchesOf())[0]).toMatchObject({ state: 'active', waiting: 0 })
  })

  it('ends the watch: 204, and the folder’s hook is deleted at Autodesk', async () => {
    const ended = await client(`/api/boq/watches/${watch.id}`, { method: 'DELETE' })
    expect(ended.status).toBe(204)
    expect(await watchesOf()).toEqual([])
    expect(fake.state.hooks.has(hook.hookId)).toBe(false)
  })
})
