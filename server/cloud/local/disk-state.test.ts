/**
 * State on disk left by crashes, by hand or by a damaged disk (a garbled cache, a truncated
 * versions.json, leftovers of an interrupted upload): the cloud answers all the same, and loses or
 * renumbers no version. The state is made by the test in the cloud folder of a real server.
 */
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  truncate,
  utimes,
  writeFile,
} from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { type CloudList, readCloudList } from '#contract/cloud.ts'
import type { Job } from '#contract/jobs.ts'
import { log } from '../../log.ts'
import { signIn, type TestClient } from '../../testing/client.ts'
import { createFakeExtractor } from '../../testing/jobs/fakes.ts'
import { postExtract, waitForJob } from '../../testing/jobs/jobs-api.ts'
import { startTestServer, type TestServer } from '../../testing/start-test-server.ts'
import { makeId } from './ids.ts'
import { HISTORY_DIR } from './version-store.ts'

const DOCS = 'Acme/Alpha/Docs'
const ids = {
  hub: makeId('hub', 'Acme'),
  project: makeId('project', 'Acme/Alpha'),
  docs: makeId('folder', DOCS),
}
const itemId = (name: string) => makeId('item', `${DOCS}/${name}`)
const e = encodeURIComponent
const BASE = `/api/aps/hubs/${e(ids.hub)}/projects/${e(ids.project)}/contents`

/** Bytes the upload takes for a DWG (an AutoCAD 2018 header), ending in `text`. */
function dwg(text: string): Uint8Array {
  const bytes = new Uint8Array(128 + text.length)
  bytes.set(new TextEncoder().encode('AC1032'))
  bytes.set(new TextEncoder().encode(text), 128)
  return bytes
}

let dataDir: string
let server: TestServer | undefined
let client: TestClient
const docsDir = () => join(dataDir, 'cloud', ...DOCS.split('/'))
const historyOf = (name: string) => join(docsDir(), HISTORY_DIR, name)

/** A server on the data folder, as after a restart when one ran before. */
async function start() {
  await server?.close()
  // A server closes its engine: each start has its own.
  server = await startTestServer({
    dataDir,
    extractor: createFakeExtractor().extractor,
    // The files written here are whole as soon as written: this is about what is on disk.
    env: { BOQ_SETTLE_SECONDS: '0' },
  })
  client = await signIn(server.url)
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'boq-disk-state-'))
  await mkdir(docsDir(), { recursive: true })
  await start()
})
afterEach(() => vi.restoreAllMocks())
afterAll(async () => {
  await server?.close()
  await rm(dataDir, { recursive: true, force: true })
})

const listDocs = async () =>
  readCloudList(await client.json<CloudList>(`${BASE}?folder_id=${e(ids.docs)}`))
const versionsOf = async (name: string) =>
  readCloudList(await client.json<CloudList>(`${BASE}/${e(itemId(name))}/versions`))
const storageOf = (version: CloudList[number] | undefined) =>
  version?.relationships?.storage?.data?.id as string

async function upload(name: string, bytes: Uint8Array) {
  const form = new FormData()
  form.set('projectId', ids.project)
  form.set('folderId', ids.docs)
  form.set('file', new Blob([bytes as BlobPart]), name)
  const answer = await client('/api/local/upload', { method: 'POST', body: form })
  const text = await answer.text()
  if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${text}`)
  return JSON.parse(text) as { itemId: string; versionNumber: number }
}

async function extract(name: string, storageId: string): Promise<Job> {
  const posted = await postExtract(client, {
    fileName: name,
    fileStorageId: storageId,
    fileFolderId: ids.docs,
    projectId: ids.project,
  })
  expect(posted.status).toBe(202)
  return waitForJob(client, ((await posted.json()) as Job).id)
}

/** The warnings logged, each as its message and the file it names. */
function warnings() {
  const warn = vi.spyOn(log, 'warn')
  return () => warn.mock.calls.map(([msg, fields]) => ({ msg, file: fields?.file }))
}

describe('a cache that cannot be read', () => {
  it.each([
    ['garbled', '{"plan-a.dwg":"12'],
    ['not an object', 'null'],
  ])(
    '(%s) is made again when its folder is listed, with a warning naming it',
    async (what, text) => {
      const name = `plan-${what.replace(/\W/g, '')}.dwg`
      await writeFile(join(docsDir(), name), 'by hand')
      await listDocs()
      const summary = join(docsDir(), HISTORY_DIR, '.recorded.json')
      expect(JSON.parse(await readFile(summary, 'utf8'))).toHaveProperty([name])
      await writeFile(summary, text)

      // A restart reads it: the first listing of the folder.
      await start()
      const warned = warnings()
      expect((await listDocs()).map((x) => x.attributes.displayName)).toContain(name)
      expect(warned()).toContainEqual({ msg: expect.stringMatching(/cache/), file: summary })
      expect(JSON.parse(await readFile(summary, 'utf8'))).toHaveProperty([name])
    },
  )
})

describe('a truncated versions.json', () => {
  it('is rebuilt from the version copies: no version lost or renumbered, a job’s drawing still read', async () => {
    await upload('cut.dwg', dwg('first'))
    const [first] = await versionsOf('cut.dwg')
    const job = await extract('cut.dwg', storageOf(first))
    expect(job).toMatchObject({ status: 'succeeded', fileVersionNumber: 1 })

    const meta = join(historyOf('cut.dwg'), 'versions.json')
    const whole = await readFile(meta, 'utf8')
    await truncate(meta, Math.floor(whole.length / 2))
    await start()
    const warned = warnings()

    // Version 1 keeps its number and its storage id; who wrote it is no longer known.
    const versions = await versionsOf('cut.dwg')
    expect(
      versions.map((v) => [v.attributes.versionNumber, v.attributes.lastModifiedUserName]),
    ).toEqual([[1, 'unknown']])
    expect(storageOf(versions[0])).toBe(storageOf(first))
    expect(warned()).toContainEqual({ msg: expect.stringMatching(/versions/), file: meta })
    // The job's drawing is read again for its geometry (the fake engine kept none with it).
    const geometry = await client(`/api/boq/jobs/${job.id}/geometry`)
    expect(geometry.status).toBe(200)

    // The next upload is version 2, and the bookkeeping is whole again on disk.
    expect((await upload('cut.dwg', dwg('second'))).versionNumber).toBe(2)
    expect(
      (await versionsOf('cut.dwg')).map((v) => [
        v.attributes.versionNumber,
        v.attributes.lastModifiedUserName,
      ]),
    ).toEqual([
      [2, 'Test User'],
      [1, 'unknown'],
    ])
    const records = JSON.parse(await readFile(meta, 'utf8')) as { versions: { number: number }[] }
    expect(records.versions.map((v) => v.number)).toEqual([1, 2])
  })

  it('keeps a version overwritten by hand since as the one before the file on disk', async () => {
    await upload('cut-hand.dwg', dwg('uploaded'))
    const meta = join(historyOf('cut-hand.dwg'), 'versions.json')
    await writeFile(meta, '{"name":"cut-hand.dwg","versions":[{"number":1,')
    await writeFile(join(docsDir(), 'cut-hand.dwg'), dwg('by hand'))
    const versions = await versionsOf('cut-hand.dwg')
    expect(
      versions.map((v) => [v.attributes.versionNumber, v.attributes.lastModifiedUserName]),
    ).toEqual([
      [2, 'Test User'],
      [1, 'unknown'],
    ])
  })
})

describe('leftovers of an interrupted upload', () => {
  it('are removed when the item is next written: the next upload is version 2', async () => {
    await upload('crash.dwg', dwg('one'))
    // As kill -9 in the middle of writing version 2: its bytes half received, its number claimed.
    const history = historyOf('crash.dwg')
    await writeFile(join(history, '.incoming-0123456789ab'), 'half of the bytes')
    await writeFile(join(history, '.copy-0123456789ab'), 'half of the copy')
    await writeFile(join(history, '.versions.json-0123456789ab'), '{"name":')
    await writeFile(join(history, 'v2.dwg'), '')

    expect((await upload('crash.dwg', dwg('two'))).versionNumber).toBe(2)
    expect((await readdir(history)).sort()).toEqual(['v1.dwg', 'v2.dwg', 'versions.json'])
    expect(new Uint8Array(await readFile(join(history, 'v2.dwg')))).toEqual(dwg('two'))
    expect((await versionsOf('crash.dwg')).map((v) => v.attributes.versionNumber)).toEqual([2, 1])
  })

  it('of a first upload leave no number taken: the upload that follows is version 1', async () => {
    const history = historyOf('first-crash.dwg')
    await mkdir(history, { recursive: true })
    await writeFile(join(history, '.incoming-0123456789ab'), 'half of the bytes')
    await writeFile(join(history, 'v1.dwg'), '')

    const written = await upload('first-crash.dwg', dwg('one'))
    expect(written.versionNumber).toBe(1)
    expect((await readdir(history)).sort()).toEqual(['v1.dwg', 'versions.json'])
  })

  it('of an upload killed while its bytes arrived are removed once their mark is stale; a live one is spared', async () => {
    await upload('receiving.dwg', dwg('one'))
    const history = historyOf('receiving.dwg')
    // Killed while receiving: the mark beside its file is no longer refreshed.
    const dead = join(history, '.incoming-0123456789ab')
    await writeFile(dead, 'half of the bytes')
    await mkdir(`${dead}.lock`)
    const longAgo = new Date(Date.now() - 3_600_000)
    await utimes(`${dead}.lock`, longAgo, longAgo)
    // Another process's upload still arriving: its mark is fresh (here, for the hour to come).
    const live = join(history, '.incoming-ba9876543210')
    await writeFile(live, 'arriving')
    await mkdir(`${live}.lock`)
    const later = new Date(Date.now() + 3_600_000)
    await utimes(`${live}.lock`, later, later)

    expect((await upload('receiving.dwg', dwg('two'))).versionNumber).toBe(2)
    expect((await readdir(history)).sort()).toEqual([
      '.incoming-ba9876543210',
      '.incoming-ba9876543210.lock',
      'v1.dwg',
      'v2.dwg',
      'versions.json',
    ])
    expect((await versionsOf('receiving.dwg')).map((v) => v.attributes.versionNumber)).toEqual([
      2, 1,
    ])
  })

  it('are removed when the item’s versions are listed, a copy the file never had included', async () => {
    await upload('late.dwg', dwg('one'))
    // Killed between keeping version 2's copy and putting it in place: the file is still version 1.
    const history = historyOf('late.dwg')
    await writeFile(join(history, 'v2.dwg'), dwg('never in place'))
    await writeFile(join(history, '.incoming-0123456789ab'), dwg('never in place'))

    const versions = await versionsOf('late.dwg')
    expect(versions.map((v) => v.attributes.versionNumber)).toEqual([1])
    expect((await readdir(history)).sort()).toEqual(['v1.dwg', 'versions.json'])
    expect((await upload('late.dwg', dwg('two'))).versionNumber).toBe(2)
  })
})
