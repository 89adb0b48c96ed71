import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { settingsFor, signInAtFake } from '../../../dev/fake-aps/helpers.ts'
import type { SeedIds } from '../../../dev/fake-aps/seed.ts'
import { type FakeAps, startFakeAps } from '../../../dev/fake-aps/server.ts'
import type { Tokens } from '../../auth/types.ts'
import { AppError, TokenRejectedError } from '../../errors.ts'
import { FIXTURES } from '../../testing/boq/fixtures.ts'
import type { CloudContext } from '../types.ts'
import { createApsAuthProvider } from './auth-provider.ts'
import { createApsCloudBackend } from './backend.ts'
import { PAGE_PARALLELISM } from './list-pages.ts'

let fake: FakeAps
let ids: SeedIds
let tokens: Tokens
let ctx: CloudContext
const sleeps: number[] = []
const user = { userId: 'FAKEUSER0001', name: 'Ada Lovelace', picture: '' }

function backend(options: Parameters<typeof createApsCloudBackend>[1] = {}) {
  // Retry-After waits are recorded, not slept, so the 429 paths run fast and deterministically.
  return createApsCloudBackend(settingsFor(fake), {
    sleep: async (ms) => {
      sleeps.push(ms)
    },
    ...options,
  })
}

beforeAll(async () => {
  fake = await startFakeAps()
  ids = fake.ids as SeedIds
  tokens = (await signInAtFake(createApsAuthProvider(settingsFor(fake)))).tokens
  ctx = { user, accessToken: tokens.accessToken }
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.faults.clear()
  sleeps.length = 0
})

const names = (list: { attributes: Record<string, unknown> }[]) =>
  list.map((r) => (r.attributes.displayName ?? r.attributes.name) as string)

describe('aps cloud backend against the fake Autodesk', () => {
  it('lists hubs (a. and b.), projects, top folders and folder contents without hidden entries', async () => {
    const cloud = backend()
    const hubs = await cloud.hubs(ctx)
    expect(hubs.map((h) => h.id)).toEqual([ids.hubId, ids.personalHubId])
    expect(hubs[0].id).toMatch(/^b\./)
    expect(hubs[1].id).toMatch(/^a\./)
    expect(names(await cloud.projects(ctx, ids.hubId))).toEqual(['Tower A', 'Clinic B'])
    const top = await cloud.contents(ctx, ids.hubId, ids.projectId)
    expect(names(top)).toEqual(['Project Files', 'Plans'])
    const drawings = await cloud.contents(ctx, ids.hubId, ids.projectId, ids.drawingsId)
    expect(names(drawings)).toEqual(['example.dwg', 'hatches.dwg', 'notes.pdf', 'sample.dwg'])
    expect(drawings.every((r) => r.type === 'items' && r.links?.self?.href)).toBe(true)
    const personal = await cloud.contents(ctx, ids.personalHubId, ids.personalProjectId)
    expect(names(personal)).toEqual(['My Folder'])
  })

  it('lists versions with the fields the app reads', async () => {
    const versions = await backend().versions(ctx, ids.hubId, ids.projectId, ids.exampleItemId)
    expect(versions.map((v) => v.attributes.versionNumber)).toEqual([2, 1])
    const [tip] = versions
    expect(tip.type).toBe('versions')
    expect(tip.attributes).toMatchObject({
      displayName: 'example.dwg',
      lastModifiedUserName: 'Ada Lovelace',
    })
    expect(tip.relationships?.storage?.data?.id).toMatch(
      /^urn:adsk\.objects:os\.object:wip\.dm\.prod\//,
    )
    const webView = new URL(tip.links?.webView?.href ?? '')
    expect(webView.searchParams.get('folderUrn')).toBe(ids.drawingsId)
  })

  it('brings a 1,000-item folder whole, each of its 5 pages of 200 asked for once', async () => {
    const big = fake.state.addFolder(ids.projectFilesId, 'Thousand')
    fake.state.addManyItems(big.id, 1000)
    const before = fake.requests.length
    const list = await backend().contents(ctx, ids.hubId, ids.projectId, big.id)
    expect(list).toHaveLength(1000)
    expect(new Set(list.map((r) => r.id)).size).toBe(1000)
    const pages = fake.requests.slice(before)
    expect(pages.every((r) => r.query.includes('page%5Blimit%5D=200'))).toBe(true)
    const numbers = pages.map((r) => Number(new URLSearchParams(r.query).get('page[number]') ?? 0))
    expect(numbers.filter((n) => n < 5).sort()).toEqual([0, 1, 2, 3, 4])
    // Autodesk does not say how many pages there are: a few past the end are asked for ahead.
    expect(numbers.filter((n) => n >= 5).length).toBeLessThan(PAGE_PARALLELISM)
  })

  it('waits as Retry-After says on 429 and then answers', async () => {
    fake.faults.add({ path: '/data/v1/projects', status: 429, retryAfter: 2, times: 2 })
    const list = await backend().contents(ctx, ids.hubId, ids.projectId, ids.drawingsId)
    expect(list).toHaveLength(4)
    expect(sleeps).toEqual([2000, 2000])
  })

  it('gives up after 10 tries with a plain-text 429', async () => {
    fake.faults.add({ path: '/data/v1/projects', status: 429, retryAfter: 1, times: Infinity })
    const before = fake.requests.length
    const error = await backend()
      .contents(ctx, ids.hubId, ids.projectId, ids.drawingsId)
      .catch((e) => e)
    expect(error).toBeInstanceOf(AppError)
    expect(error.status).toBe(429)
    expect(error.message).toMatch(/too many requests/i)
    expect(fake.requests.length - before).toBe(10)
    expect(sleeps).toHaveLength(9)
  })

  it('gives up at once when Retry-After goes beyond the 60 s window', async () => {
    fake.faults.add({ path: '/data/v1/projects', status: 429, retryAfter: 120, times: 1 })
    const error = await backend()
      .contents(ctx, ids.hubId, ids.projectId, ids.drawingsId)
      .catch((e) => e)
    expect(error.status).toBe(429)
    expect(error.message).toMatch(/120 seconds/)
    expect(sleeps).toEqual([])
  })

  it('keeps the 60 s window with the clock it is given', async () => {
    let clock = 0
    fake.faults.add({ path: '/data/v1/projects', status: 429, retryAfter: 25, times: Infinity })
    const cloud = backend({
      now: () => clock,
      sleep: async (ms) => {
        sleeps.push(ms)
        clock += ms
      },
    })
    const error = await cloud
      .contents(ctx, ids.hubId, ids.projectId, ids.drawingsId)
      .catch((e) => e)
    expect(error.status).toBe(429)
    expect(sleeps).toEqual([25000, 25000])
  })

  it('maps upstream errors to a status and a plain-text reason', async () => {
    fake.faults.add({ path: '/data/v1/projects', status: 500 })
    const error = await backend()
      .contents(ctx, ids.hubId, ids.projectId, ids.drawingsId)
      .catch((e) => e)
    expect(error.status).toBe(502)
    expect(error.message).toMatch(/Autodesk/)
    const missing = await backend()
      .contents(ctx, ids.hubId, ids.projectId, 'urn:adsk.wipprod:fs.folder:co.doesnotexist')
      .catch((e) => e)
    expect(missing.status).toBe(404)
    expect(missing.message).toBe('Not found in Autodesk: The folder was not found.')
  })

  it('throws TokenRejectedError on an expired access token (the session layer refreshes)', async () => {
    const provider = createApsAuthProvider(settingsFor(fake))
    const own = (await signInAtFake(provider)).tokens
    fake.state.expireAccessTokens()
    const cloud = backend()
    const error = await cloud
      .contents({ user, accessToken: own.accessToken }, ids.hubId, ids.projectId)
      .catch((e) => e)
    expect(error).toBeInstanceOf(TokenRejectedError)
    const fresh = await provider.refresh(own)
    expect(
      await cloud.contents({ user, accessToken: fresh.accessToken }, ids.hubId, ids.projectId),
    ).toHaveLength(2)
    // The shared context for the other tests.
    tokens = (await signInAtFake(provider)).tokens
    ctx = { user, accessToken: tokens.accessToken }
  })

  it('keeps hubs and projects per user for a short while', async () => {
    const cloud = backend()
    const count = () => fake.requests.filter((r) => r.path === '/project/v1/hubs').length
    const before = count()
    await cloud.hubs(ctx)
    await cloud.hubs(ctx)
    await Promise.all([cloud.hubs(ctx), cloud.hubs(ctx)])
    expect(count() - before).toBe(1)
    await cloud.hubs({ ...ctx, user: { ...user, userId: 'SOMEONE-ELSE' } })
    expect(count() - before).toBe(2)
  })

  it('refuses traversal and injection in ids before any upstream call', async () => {
    const cloud = backend()
    const bad = [
      '../../authentication/v2/token',
      'b.123/../../x',
      'b.123?x=1',
      'b.123#x',
      'b.123%2F..',
      'urn:adsk.wipprod:fs.folder:co.x/../../y',
      'urn:adsk.wipprod:fs.folder:co.x?page[limit]=1',
      'urn:adsk.wipprod:fs.folder:co..',
      'http://evil.example/urn',
      'b.x\r\nHost: evil',
      '',
    ]
    const before = fake.requests.length
    for (const id of bad) {
      for (const call of [
        () => cloud.projects(ctx, id),
        () => cloud.contents(ctx, id, ids.projectId),
        () => cloud.contents(ctx, ids.hubId, id),
        () => cloud.contents(ctx, ids.hubId, ids.projectId, id),
        () => cloud.versions(ctx, ids.hubId, ids.projectId, id),
        () => cloud.checkFolder(ctx, ids.projectId, id),
        () => cloud.download(ctx, ids.projectId, id),
        () => cloud.storageSize(ctx, ids.projectId, id),
        () => cloud.download(ctx, ids.projectId, `urn:adsk.objects:os.object:wip.dm.prod/${id}`),
        () =>
          cloud.upload(ctx, {
            projectId: ids.projectId,
            folderId: id,
            fileName: 'a.csv',
            bytes: new Uint8Array(1),
          }),
      ]) {
        const error = await call().catch((e) => e)
        expect(error, `${id}`).toBeInstanceOf(AppError)
        expect(error.status, `${id}`).toBe(400)
      }
    }
    for (const fileName of [
      '../x.csv',
      'a/b.csv',
      'a\\b.csv',
      'x\r\n.csv',
      '',
      '..',
      'a:b.csv',
      ' x.csv',
      'x'.repeat(256),
    ]) {
      const error = await cloud
        .upload(ctx, {
          projectId: ids.projectId,
          folderId: ids.drawingsId,
          fileName,
          bytes: new Uint8Array(1),
        })
        .catch((e) => e)
      expect(error.status, fileName).toBe(400)
    }
    expect(fake.requests.length).toBe(before)
  })

  it('downloads a version through signeds3download (no Autodesk token sent to S3)', async () => {
    const cloud = backend()
    const [tip] = await cloud.versions(ctx, ids.hubId, ids.projectId, ids.exampleItemId)
    const storageId = tip.relationships?.storage?.data?.id ?? ''
    const expected = readFileSync(resolve(FIXTURES, 'example_2018.dwg'))
    expect(await cloud.storageSize(ctx, ids.projectId, storageId)).toBe(expected.byteLength)
    const bytes = await cloud.download(ctx, ids.projectId, storageId)
    expect(Buffer.from(bytes).equals(expected)).toBe(true)
    const missing = await cloud
      .download(ctx, ids.projectId, 'urn:adsk.objects:os.object:wip.dm.prod/nothing-here.dwg')
      .catch((e) => e)
    expect(missing.status).toBe(404)
  })

  it('names a version from its storage id: a tip in one call, an older one in two', async () => {
    const cloud = backend()
    const [v2, v1] = await cloud.versions(ctx, ids.hubId, ids.projectId, ids.exampleItemId)
    const storageOf = (v: typeof v1) => v?.relationships?.storage?.data?.id ?? ''
    const near = { folderId: ids.drawingsId, fileName: 'example.dwg' }
    const callsFor = async (storageId: string, where = near) => {
      const before = fake.requests.length
      const found = await cloud.storedVersion(ctx, ids.projectId, storageId, where)
      const calls = fake.requests.slice(before).map((r) => decodeURIComponent(r.path))
      return { found, calls }
    }

    const tip = await callsFor(storageOf(v2))
    expect(tip.found).toEqual({ name: 'example.dwg', versionNumber: 2 })
    expect(tip.calls).toEqual([
      `/data/v1/projects/${ids.projectId}/folders/${ids.drawingsId}/contents`,
    ])
    const older = await callsFor(storageOf(v1))
    expect(older.found).toEqual({ name: 'example.dwg', versionNumber: 1 })
    expect(older.calls).toHaveLength(2)
    expect(older.calls[1]).toBe(
      `/data/v1/projects/${ids.projectId}/items/${ids.exampleItemId}/versions`,
    )

    // Another item's name, another folder, a storage id no item there has: not found.
    const sample = { folderId: ids.drawingsId, fileName: 'sample.dwg' }
    expect((await callsFor(storageOf(v2), sample)).found).toBeUndefined()
    const elsewhere = { folderId: ids.plansId, fileName: 'example.dwg' }
    expect((await callsFor(storageOf(v2), elsewhere)).found).toBeUndefined()
    const unknown = 'urn:adsk.objects:os.object:wip.dm.prod/nothing-here.dwg'
    expect((await callsFor(unknown)).found).toBeUndefined()

    // A version keeps the name it was written under (a renamed drawing's older version).
    const renamed = fake.state.addItem(ids.drawingsId, 'renamed.dwg', [])
    const old = fake.state.addVersion(renamed, fake.state.storeObject('old.dwg'), 'old.dwg')
    fake.state.addVersion(renamed, fake.state.storeObject('renamed.dwg'))
    const where = { folderId: ids.drawingsId, fileName: 'renamed.dwg' }
    expect((await callsFor(old.storageId, where)).found).toEqual({
      name: 'old.dwg',
      versionNumber: 1,
    })

    const bad = await cloud
      .storedVersion(ctx, ids.projectId, 'urn:adsk.objects:os.object:../x', near)
      .catch((e) => e)
    expect(bad.status).toBe(400)
  })

  it('writes a new item, then a version 2 of it (bim360 types in a b. project)', async () => {
    const cloud = backend()
    const first = await cloud.upload(ctx, {
      projectId: ids.projectId,
      folderId: ids.drawingsId,
      fileName: 'example.boq.xlsx',
      bytes: new TextEncoder().encode('first'),
    })
    expect(first).toMatchObject({ createdItem: true, versionNumber: 1 })
    const second = await cloud.upload(ctx, {
      projectId: ids.projectId,
      folderId: ids.drawingsId,
      fileName: 'example.boq.xlsx',
      bytes: new TextEncoder().encode('second'),
    })
    expect(second).toMatchObject({ createdItem: false, versionNumber: 2, itemId: first.itemId })
    const item = fake.state.findItem(ids.drawingsId, 'example.boq.xlsx')
    expect(
      item?.versions.map((v) =>
        new TextDecoder().decode(fake.state.objects.get(v.storageId)?.bytes),
      ),
    ).toEqual(['first', 'second'])
    const listed = await cloud.contents(ctx, ids.hubId, ids.projectId, ids.drawingsId)
    expect(names(listed)).toContain('example.boq.xlsx')
  })

  it('writes with core types in an a. project', async () => {
    const result = await backend().upload(ctx, {
      projectId: ids.personalProjectId,
      folderId: ids.personalFolderId,
      fileName: 'sketch.boq.csv',
      bytes: new TextEncoder().encode('a,b\n'),
    })
    expect(result).toMatchObject({ createdItem: true, versionNumber: 1 })
  })

  it('checks the target folder: exists, visible, and the user may add files', async () => {
    const cloud = backend()
    await expect(cloud.checkFolder(ctx, ids.projectId, ids.drawingsId)).resolves.toBeUndefined()
    const readOnly = await cloud.checkFolder(ctx, ids.projectId, ids.readOnlyId).catch((e) => e)
    expect(readOnly.status).toBe(403)
    const missing = await cloud
      .checkFolder(ctx, ids.projectId, 'urn:adsk.wipprod:fs.folder:co.nothing')
      .catch((e) => e)
    expect(missing.status).toBe(404)
    const refused = await cloud
      .upload(ctx, {
        projectId: ids.projectId,
        folderId: ids.readOnlyId,
        fileName: 'x.csv',
        bytes: new Uint8Array(1),
      })
      .catch((e) => e)
    expect(refused.status).toBe(403)
  })
})
