/**
 * Files written by hand into the local cloud: each version is recorded, its bytes copied, the first
 * time the cloud lists it (the folder, the item's versions) or reads it; real files in a temp folder.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { readCloudList } from '#contract/cloud.ts'
import type { Job } from '#contract/jobs.ts'
import type { UserProfile } from '../../auth/types.ts'
import { signIn } from '../../testing/client.ts'
import { createFakeExtractor } from '../../testing/jobs/fakes.ts'
import { postExtract, waitForJob } from '../../testing/jobs/jobs-api.ts'
import { startTestServer, type TestServer } from '../../testing/start-test-server.ts'
import type { JsonApiResource } from '../types.ts'
import { makeId, makeStorageId } from './ids.ts'
import { createLocalCloud, type LocalCloud } from './local-cloud.ts'
import { HISTORY_DIR } from './version-store.ts'

const ctx = {
  user: { userId: 'u-writer', name: 'Writer Person', picture: '' } as UserProfile,
  accessToken: 'x',
}
const DOCS = 'Acme/Alpha/Docs'
const ids = {
  hub: makeId('hub', 'Acme'),
  project: makeId('project', 'Acme/Alpha'),
  docs: makeId('folder', DOCS),
}
const itemId = (name: string) => makeId('item', `${DOCS}/${name}`)
const storageOf = (version: JsonApiResource) => version.relationships?.storage?.data?.id as string

/** Files written here are whole as written: recorded at the first listing (settling aside). */
const AT_ONCE = { settleMs: 0 }
const SETTLED_AT_ONCE = { BOQ_SETTLE_SECONDS: '0' }

let root: string
let cloud: LocalCloud
const docsDir = () => join(root, ...DOCS.split('/'))
const historyOf = (name: string) => join(docsDir(), HISTORY_DIR, name)

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'boq-hand-versions-'))
  await mkdir(docsDir(), { recursive: true })
  cloud = createLocalCloud({ root, localUserName: 'Local Person', settle: AT_ONCE })
})
afterAll(() => rm(root, { recursive: true, force: true }))

function byHand(name: string, text: string) {
  return writeFile(join(docsDir(), name), text)
}
function listFolder(on = cloud) {
  return on.contents(ctx, ids.hub, ids.project, ids.docs)
}
function versionsOf(name: string, on = cloud) {
  return on.versions(ctx, ids.hub, ids.project, itemId(name))
}
/** Number, author and bytes of every version listed, as listed (newest first). */
async function versionBytes(name: string, on = cloud) {
  const versions = await versionsOf(name, on)
  return Promise.all(
    versions.map(async (v) => [
      v.attributes.versionNumber,
      v.attributes.lastModifiedUserName,
      new TextDecoder().decode(await on.download(ctx, ids.project, storageOf(v))),
    ]),
  )
}
async function recordsOf(name: string): Promise<number[]> {
  const text = await readFile(join(historyOf(name), 'versions.json'), 'utf8')
  return (JSON.parse(text) as { versions: { number: number }[] }).versions.map((v) => v.number)
}

describe('a file written by hand', () => {
  it('is version 1 once its folder is listed, with its bytes kept', async () => {
    await byHand('plan.dwg', 'first')
    const listed = await listFolder()
    expect(listed.map((x) => x.attributes.displayName)).toContain('plan.dwg')
    // Recorded by the listing itself, before anything asked for the versions.
    expect(await recordsOf('plan.dwg')).toEqual([1])
    expect(await readFile(join(historyOf('plan.dwg'), 'v1.dwg'), 'utf8')).toBe('first')
    expect(await versionBytes('plan.dwg')).toEqual([[1, 'Local Person', 'first']])
  })

  it('overwritten by hand, is the next version, and the earlier one keeps its bytes', async () => {
    await byHand('overwritten.dwg', 'one')
    await listFolder()
    await byHand('overwritten.dwg', 'second!')
    await listFolder()
    expect(await versionBytes('overwritten.dwg')).toEqual([
      [2, 'Local Person', 'second!'],
      [1, 'Local Person', 'one'],
    ])
    const [v2, v1] = await versionsOf('overwritten.dwg')
    expect(v2?.attributes.storageSize).toBe(7)
    expect(v1?.attributes.storageSize).toBe(3)
    expect(await cloud.storageSize(ctx, ids.project, storageOf(v1 as JsonApiResource))).toBe(3)

    // Same size, other bytes: the modification time tells.
    await byHand('overwritten.dwg', 'SECOND!')
    await utimes(join(docsDir(), 'overwritten.dwg'), new Date(), new Date(Date.now() + 5000))
    expect(await versionBytes('overwritten.dwg')).toEqual([
      [3, 'Local Person', 'SECOND!'],
      [2, 'Local Person', 'second!'],
      [1, 'Local Person', 'one'],
    ])
  })

  it('keeps only the versions that were listed: one overwritten before any listing is gone', async () => {
    await byHand('twice.dwg', 'a')
    await listFolder()
    await byHand('twice.dwg', 'never listed')
    await byHand('twice.dwg', 'ccc')
    await listFolder()
    expect(await versionBytes('twice.dwg')).toEqual([
      [2, 'Local Person', 'ccc'],
      [1, 'Local Person', 'a'],
    ])
    const kept = await readdir(historyOf('twice.dwg'))
    const texts = await Promise.all(
      kept.map((n) => readFile(join(historyOf('twice.dwg'), n), 'utf8')),
    )
    expect(texts.some((text) => text.includes('never listed'))).toBe(false)
  })

  it('is recorded by listing its versions, or by reading a version, as well', async () => {
    await byHand('by-versions.dwg', 'v one')
    expect((await versionsOf('by-versions.dwg')).map((v) => v.attributes.versionNumber)).toEqual([
      1,
    ])
    await byHand('by-versions.dwg', 'v two, longer')
    expect(await versionBytes('by-versions.dwg')).toEqual([
      [2, 'Local Person', 'v two, longer'],
      [1, 'Local Person', 'v one'],
    ])

    // A storage id is the item's path and the version's number: it can be read before any listing.
    await byHand('by-download.dwg', 'd one')
    const v1 = makeStorageId(`${DOCS}/by-download.dwg`, 1)
    expect(new TextDecoder().decode(await cloud.download(ctx, ids.project, v1))).toBe('d one')
    await byHand('by-download.dwg', 'd two, longer')
    expect(new TextDecoder().decode(await cloud.download(ctx, ids.project, v1))).toBe('d one')

    // What an extraction asks first (size, name and number) records it too.
    await byHand('by-size.dwg', 's one')
    const s1 = makeStorageId(`${DOCS}/by-size.dwg`, 1)
    expect(await cloud.storageSize(ctx, ids.project, s1)).toBe(5)
    await byHand('by-size.dwg', 's two, longer')
    expect(new TextDecoder().decode(await cloud.download(ctx, ids.project, s1))).toBe('s one')
  })

  it('deleted by hand keeps its history, and numbering goes on when it comes back', async () => {
    await byHand('back.dwg', 'x1')
    await listFolder()
    await byHand('back.dwg', 'x2 longer')
    await listFolder()
    await rm(join(docsDir(), 'back.dwg'))
    expect((await listFolder()).map((x) => x.attributes.displayName)).not.toContain('back.dwg')
    await byHand('back.dwg', 'x3 back again')
    await listFolder()
    expect(await versionBytes('back.dwg')).toEqual([
      [3, 'Local Person', 'x3 back again'],
      [2, 'Local Person', 'x2 longer'],
      [1, 'Local Person', 'x1'],
    ])
  })

  it('overwritten by hand after an upload keeps the uploaded version', async () => {
    const upload = (text: string) =>
      cloud.upload(ctx, {
        projectId: ids.project,
        folderId: ids.docs,
        fileName: 'mixed.dwg',
        bytes: new TextEncoder().encode(text),
      })
    expect((await upload('uploaded 1')).versionNumber).toBe(1)
    await byHand('mixed.dwg', 'by hand 2')
    expect((await upload('uploaded 3')).versionNumber).toBe(3)
    expect(await versionBytes('mixed.dwg')).toEqual([
      [3, 'Writer Person', 'uploaded 3'],
      [2, 'Local Person', 'by hand 2'],
      [1, 'Writer Person', 'uploaded 1'],
    ])
  })
})

describe('recording while others list and write', () => {
  it('records a version once when several listings meet it at the same moment', async () => {
    // Many new files, so that the listings overlap on some of them whatever the timing.
    const folder = join(root, 'Acme', 'Alpha', 'Crowd')
    await mkdir(folder)
    const names = Array.from({ length: 200 }, (_, i) => `crowd-${i}.dwg`)
    await Promise.all(names.map((name) => writeFile(join(folder, name), `hand ${name}`)))
    const crowdId = makeId('folder', 'Acme/Alpha/Crowd')
    await Promise.all(
      Array.from({ length: 4 }, () => cloud.contents(ctx, ids.hub, ids.project, crowdId)),
    )
    for (const name of names) {
      const history = join(folder, HISTORY_DIR, name)
      const records = JSON.parse(await readFile(join(history, 'versions.json'), 'utf8')) as {
        versions: { number: number }[]
      }
      expect(
        records.versions.map((v) => v.number),
        name,
      ).toEqual([1])
      // One copy, and no copy half made left behind.
      expect((await readdir(history)).sort(), name).toEqual(['v1.dwg', 'versions.json'])
    }
  })

  it('never loses an upload to a listing that records a hand-written version', async () => {
    const folder = join(root, 'Acme', 'Alpha', 'Race')
    await mkdir(folder)
    const raceId = makeId('folder', 'Acme/Alpha/Race')
    const list = () => cloud.contents(ctx, ids.hub, ids.project, raceId)
    const names = Array.from({ length: 40 }, (_, i) => `race-${i}.dwg`)
    await Promise.all(names.map((name) => writeFile(join(folder, name), 'hand 1')))
    await list()
    await Promise.all(names.map((name) => writeFile(join(folder, name), 'hand 2, longer')))
    const upload = (fileName: string) =>
      cloud.upload(ctx, {
        projectId: ids.project,
        folderId: raceId,
        fileName,
        bytes: new TextEncoder().encode(`tool ${fileName}`),
      })
    // The listings meet each file either before its upload (and record the hand version) or after.
    await Promise.all([list(), ...names.map(upload), list(), list()])
    for (const name of names) {
      const item = makeId('item', `Acme/Alpha/Race/${name}`)
      const versions = await cloud.versions(ctx, ids.hub, ids.project, item)
      const listed = await Promise.all(
        versions.map(async (v) => [
          v.attributes.versionNumber,
          new TextDecoder().decode(await cloud.download(ctx, ids.project, storageOf(v))),
        ]),
      )
      expect(listed, name).toEqual([
        [3, `tool ${name}`],
        [2, 'hand 2, longer'],
        [1, 'hand 1'],
      ])
    }
  })
})

describe('after a restart (a new LocalCloud on the same folder)', () => {
  it('answers the same version ids and storage ids, with the same bytes, recording nothing new', async () => {
    await byHand('restart.dwg', 'before restart')
    await listFolder()
    await byHand('restart.dwg', 'still before restart')
    await listFolder()
    const before = await versionsOf('restart.dwg')
    const recordsBefore = await readFile(join(historyOf('restart.dwg'), 'versions.json'), 'utf8')

    const again = createLocalCloud({ root, localUserName: 'Someone Else', settle: AT_ONCE })
    await listFolder(again)
    const after = await versionsOf('restart.dwg', again)
    expect(after.map((v) => [v.id, storageOf(v), v.attributes.lastModifiedUserName])).toEqual(
      before.map((v) => [v.id, storageOf(v), 'Local Person']),
    )
    expect(await versionBytes('restart.dwg', again)).toEqual([
      [2, 'Local Person', 'still before restart'],
      [1, 'Local Person', 'before restart'],
    ])
    expect(await readFile(join(historyOf('restart.dwg'), 'versions.json'), 'utf8')).toBe(
      recordsBefore,
    )
  })
})

describe('histories written before every version was copied', () => {
  it('copies the newest version when it is first listed, so it survives an overwrite', async () => {
    // The older layout: the newest version is only the file itself, the prior ones are copies.
    await byHand('older.dwg', 'newest, no copy')
    const info = await stat(join(docsDir(), 'older.dwg'))
    await mkdir(historyOf('older.dwg'), { recursive: true })
    await writeFile(join(historyOf('older.dwg'), 'v1.dwg'), 'old first')
    const record = (number: number, size: number, mtimeMs: number) => ({
      number,
      createTime: '2024-01-01T00:00:00.000Z',
      userName: 'Writer Person',
      size,
      mtimeMs,
    })
    await writeFile(
      join(historyOf('older.dwg'), 'versions.json'),
      JSON.stringify({
        name: 'older.dwg',
        versions: [record(1, 9, 0), record(2, info.size, info.mtimeMs)],
      }),
    )
    await listFolder()
    await byHand('older.dwg', 'overwritten by hand')
    expect(await versionBytes('older.dwg')).toEqual([
      [3, 'Local Person', 'overwritten by hand'],
      [2, 'Writer Person', 'newest, no copy'],
      [1, 'Writer Person', 'old first'],
    ])
  })

  it('never writes over or loses a kept copy when versions.json is damaged', async () => {
    await byHand('damaged.dwg', 'one')
    await listFolder()
    await writeFile(join(historyOf('damaged.dwg'), 'versions.json'), '{ not json')
    await byHand('damaged.dwg', 'two, longer')
    await listFolder()
    expect(await readFile(join(historyOf('damaged.dwg'), 'v1.dwg'), 'utf8')).toBe('one')
    // Version 1 is rebuilt from its copy, under its number; its author is no longer known.
    expect(await versionBytes('damaged.dwg')).toEqual([
      [2, 'Local Person', 'two, longer'],
      [1, 'unknown', 'one'],
    ])
    expect(await recordsOf('damaged.dwg')).toEqual([1, 2])
  })
})

describe('a folder where nothing can be recorded', () => {
  it('is listed all the same, its files as version 1 read in place', async () => {
    const folder = join(root, 'Acme', 'Alpha', 'Locked')
    await mkdir(folder)
    // A file where the history folder would go: every recording there fails.
    await writeFile(join(folder, HISTORY_DIR), 'in the way')
    await writeFile(join(folder, 'stuck.dwg'), 'stuck')
    const lockedId = makeId('folder', 'Acme/Alpha/Locked')
    const listed = await cloud.contents(ctx, ids.hub, ids.project, lockedId)
    expect(listed.map((x) => x.attributes.displayName)).toEqual(['stuck.dwg'])
    const stuck = makeId('item', 'Acme/Alpha/Locked/stuck.dwg')
    const [version] = await cloud.versions(ctx, ids.hub, ids.project, stuck)
    expect(version?.attributes.versionNumber).toBe(1)
    const bytes = await cloud.download(ctx, ids.project, storageOf(version as JsonApiResource))
    expect(new TextDecoder().decode(bytes)).toBe('stuck')
  })
})

describe('over HTTP', () => {
  const fake = createFakeExtractor()
  let server: TestServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  it('lists a file overwritten by hand as versions 2 and 1, and extracts each from its own bytes', async () => {
    server = await startTestServer({ extractor: fake.extractor, env: SETTLED_AT_ONCE })
    const { url, dataDir } = server
    const docs = join(dataDir, 'cloud', ...DOCS.split('/'))
    await mkdir(docs, { recursive: true })
    const e = encodeURIComponent
    const client = await signIn(url)
    const base = `/api/aps/hubs/${e(ids.hub)}/projects/${e(ids.project)}/contents`
    const list = async (path: string) => readCloudList(await client.json(path))

    // The fake engine gives `WARN|…` bytes back as the bill's warnings: which bytes it read.
    await writeFile(join(docs, 'plan.dwg'), 'WARN|first')
    expect((await list(`${base}?folder_id=${e(ids.docs)}`)).map((x) => x.id)).toEqual([
      itemId('plan.dwg'),
    ])
    await writeFile(join(docs, 'plan.dwg'), 'WARN|second, by hand')
    await list(`${base}?folder_id=${e(ids.docs)}`)
    const versions = await list(`${base}/${e(itemId('plan.dwg'))}/versions`)
    expect(versions.map((v) => [v.attributes.versionNumber, v.attributes.createUserName])).toEqual([
      [2, 'Test User'],
      [1, 'Test User'],
    ])

    for (const [version, warning] of [
      [versions[1], 'first'],
      [versions[0], 'second, by hand'],
    ] as const) {
      const posted = await postExtract(client, {
        fileName: 'plan.dwg',
        fileStorageId: storageOf(version as JsonApiResource),
        fileFolderId: ids.docs,
        projectId: ids.project,
      })
      expect(posted.status).toBe(202)
      const job = await waitForJob(client, ((await posted.json()) as Job).id)
      expect(job).toMatchObject({
        status: 'succeeded',
        fileVersionNumber: version?.attributes.versionNumber,
        result: { warnings: [warning] },
      })
    }
  })

  it('refuses to extract a file dropped by hand that is still being copied in, and extracts it once whole', async () => {
    // The cloud's own settling time: a file just written has not stopped changing yet. An engine
    // of its own: the one above is closed with the server before.
    const engine = createFakeExtractor()
    server = await startTestServer({
      extractor: engine.extractor,
      env: { BOQ_SETTLE_SECONDS: '2' },
    })
    const { url, dataDir } = server
    const docs = join(dataDir, 'cloud', ...DOCS.split('/'))
    await mkdir(docs, { recursive: true })
    const e = encodeURIComponent
    const client = await signIn(url)
    const base = `/api/aps/hubs/${e(ids.hub)}/projects/${e(ids.project)}/contents`
    await writeFile(join(docs, 'arriving.dwg'), 'WARN|half a copy')
    const [version] = readCloudList(
      await client.json(`${base}/${e(itemId('arriving.dwg'))}/versions`),
    )
    const request = {
      fileName: 'arriving.dwg',
      fileStorageId: storageOf(version as JsonApiResource),
      fileFolderId: ids.docs,
      projectId: ids.project,
    }
    const refused = await postExtract(client, request)
    expect(refused.status).toBe(409)
    expect(await refused.text()).toBe(
      'arriving.dwg is still being copied into the folder: extract it once the copy is whole.',
    )
    expect(engine.seen).not.toContain('arriving.dwg')

    // Whole once unchanged for the settling time (its modification time set back past it).
    const past = new Date(Date.now() - 60_000)
    await utimes(join(docs, 'arriving.dwg'), past, past)
    const posted = await postExtract(client, request)
    expect(posted.status).toBe(202)
    const job = await waitForJob(client, ((await posted.json()) as Job).id)
    expect(job).toMatchObject({ status: 'succeeded', result: { warnings: ['half a copy'] } })
  })

  it('refuses to extract a drawing whose BOQ could not be written beside it, before it runs', async () => {
    server = await startTestServer({ extractor: fake.extractor, env: SETTLED_AT_ONCE })
    const { url, dataDir } = server
    const docs = join(dataDir, 'cloud', ...DOCS.split('/'))
    await mkdir(docs, { recursive: true })
    const e = encodeURIComponent
    const client = await signIn(url)
    const base = `/api/aps/hubs/${e(ids.hub)}/projects/${e(ids.project)}/contents`
    // 251 bytes: a name Linux takes, whose BOQ name (`<name> BOQ.xlsx`) would have 256.
    const name = `${'x'.repeat(247)}.dwg`
    await writeFile(join(docs, name), 'WARN|long')
    const versions = readCloudList(await client.json(`${base}/${e(itemId(name))}/versions`))
    const posted = await postExtract(client, {
      fileName: name,
      fileStorageId: storageOf(versions[0] as JsonApiResource),
      fileFolderId: ids.docs,
      projectId: ids.project,
    })
    expect(posted.status).toBe(400)
    expect(await posted.text()).toMatch(/would have 256 bytes: a file name has at most 255 bytes/)
    expect(fake.seen).not.toContain(name)
  })
})
