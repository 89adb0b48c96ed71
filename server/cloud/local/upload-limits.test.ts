/**
 * Uploads that try to hold the server, over real HTTP on loopback: a body that dribbles is
 * stopped (408) once a window of it brings too little, leaving nothing; one person holds at most
 * their share of the upload places (429 past it), and someone else's upload goes through
 * meanwhile. The pace's window is a second here (30 s in the product).
 */
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../config.ts'
import type { TestClient } from '../../testing/client.ts'
import {
  closing,
  fileHead,
  incomingFiles,
  postStream,
  targetFields,
} from '../../testing/cloud/local/upload-stream.ts'
import { severalUsersBackends } from '../../testing/jobs/several-users.ts'
import { waitFor } from '../../testing/jobs/wait.ts'
import { startTestServer, type TestServer } from '../../testing/start-test-server.ts'
import type { JsonApiResource } from '../types.ts'
import { makeId } from './ids.ts'
import type { LocalCloud } from './local-cloud.ts'
import { UPLOAD_LIMITS, uploadRoutes } from './upload-routes.ts'

const PACE = { minBytes: 16 * 1024, windowMs: 1000 }
const TOO_SLOW =
  'The upload was too slow: less than 16 KB arrived in 1 s, and it was stopped. Send the drawing again over a faster connection.'
const DOCS = 'Acme/Alpha/Docs'
const ids = {
  hub: makeId('hub', 'Acme'),
  project: makeId('project', 'Acme/Alpha'),
  docs: makeId('folder', DOCS),
}
const fields = () => targetFields(ids.project, ids.docs)
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A DWG header the detector accepts (AutoCAD 2018), then zeros. */
function dwgBytes(size: number): Uint8Array {
  const bytes = new Uint8Array(size)
  bytes.set(new TextEncoder().encode('AC1032'))
  return bytes
}

let server: TestServer
let ann: TestClient
let bob: TestClient
const docsDir = () => join(server.dataDir, 'cloud', ...DOCS.split('/'))

beforeAll(async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'boq-upload-limits-'))
  const config = loadConfig({ BOQ_DATA_DIR: dataDir, BOQ_USER_NAME: 'Test User', BOQ_SEED_DIR: '' })
  const users = severalUsersBackends(config)
  server = await startTestServer({
    dataDir,
    backends: (keys) => {
      const backends = users.backends(keys)
      const cloud = backends.cloud as LocalCloud
      return {
        ...backends,
        localRoutes: (access) =>
          uploadRoutes(cloud, access, config.maxFileBytes, { ...UPLOAD_LIMITS, pace: PACE }),
      }
    },
  })
  await mkdir(docsDir(), { recursive: true })
  // One by one: the sign-in takes the name last given.
  ann = await users.signInAs(server.url, 'ann')
  bob = await users.signInAs(server.url, 'bob')
})
afterAll(async () => {
  await server?.close()
  await rm(server.dataDir, { recursive: true, force: true })
})

async function* smallDrawing(name: string): AsyncGenerator<Uint8Array> {
  yield fields()
  yield fileHead(name)
  yield dwgBytes(4096)
  yield closing
}

/**
 * An upload of `name` by `client` that sends its file at a good pace (4 KB every 50 ms) until
 * `dribble` is called, then a byte every 50 ms: what holds a place for as long as the server lets
 * it. `answer` settles when the server answers; `answered` says whether it has.
 */
function heldUpload(client: TestClient, name: string) {
  let dribbling = false
  let answered = false
  const abort = new AbortController()
  async function* body() {
    yield fields()
    yield fileHead(name)
    yield dwgBytes(4096)
    for (;;) {
      await pause(50)
      yield dribbling ? new Uint8Array(1) : new Uint8Array(4096)
    }
  }
  const answer = postStream(server.url, client, body(), abort.signal).finally(() => {
    answered = true
  })
  // Stopped by a test that failed first: that failure is the one to read.
  answer.catch(() => undefined)
  return {
    answer,
    answered: () => answered,
    dribble: () => {
      dribbling = true
    },
    stop: () => abort.abort(),
  }
}

/** Every file below the cloud folder (history included) whose path names `word`. */
async function filesNaming(word: string): Promise<string[]> {
  const root = join(server.dataDir, 'cloud')
  const names = (await readdir(root, { recursive: true })).filter((name) => name.includes(word))
  const files: string[] = []
  for (const name of names) {
    if ((await stat(join(root, name)).catch(() => undefined))?.isFile()) files.push(name)
  }
  return files
}

async function listedNames(client: TestClient): Promise<string[]> {
  const list = await client.json<JsonApiResource[]>(
    `/api/aps/hubs/${encodeURIComponent(ids.hub)}/projects/${encodeURIComponent(ids.project)}/contents?folder_id=${encodeURIComponent(ids.docs)}`,
  )
  return list.map((entry) => String(entry.attributes.displayName))
}

describe('an upload whose body dribbles in', () => {
  it('is stopped with 408 and the reason, leaving no version and no file', async () => {
    // It never gets as far as the file: a byte of its fields every 50 ms.
    const form = fields()
    async function* body() {
      for (const byte of form) {
        await pause(50)
        yield Uint8Array.of(byte)
      }
      yield* smallDrawing('never.dwg')
    }
    const answer = await postStream(server.url, ann, body())
    expect(answer).toMatchObject({ status: 408, text: TOO_SLOW })
    expect(await filesNaming('never')).toEqual([])
    expect(await listedNames(ann)).not.toContain('never.dwg')
  })
})

describe('upload places', () => {
  it('one person holds at most their share (429 past it), another’s upload goes through meanwhile, and a dribbler’s place is given back', async () => {
    const held = [heldUpload(ann, 'held-1.dwg'), heldUpload(ann, 'held-2.dwg')]
    try {
      // Both being received on disk: each holds one of Ann's places.
      await waitFor(async () => (await incomingFiles(docsDir())).length === 2, 'two held uploads')

      const third = await postStream(server.url, ann, smallDrawing('third.dwg'))
      expect(third.status).toBe(429)
      expect(third.retryAfter).toMatch(/^[1-9]\d*$/)
      expect(third.text).toBe(
        'You already have 2 uploads under way, as many as one person may at once; try again when one has finished.',
      )

      // One more that dribbles is refused too: its body, read only to be dropped, is cut short
      // at the same pace rather than read for as long as it comes.
      async function* dribbled() {
        yield fields()
        for (;;) {
          await pause(50)
          yield new Uint8Array(1)
        }
      }
      const fourth = await postStream(server.url, ann, dribbled())
      expect(fourth.status).toBe(429)

      const bobs = await postStream(server.url, bob, smallDrawing('bob.dwg'))
      expect(bobs.status).toBe(201)
      // Answered while Ann's two still hold their places.
      expect(held.map((upload) => upload.answered())).toEqual([false, false])

      for (const upload of held) upload.dribble()
      for (const upload of held)
        expect(await upload.answer).toMatchObject({ status: 408, text: TOO_SLOW })
    } finally {
      for (const upload of held) upload.stop()
    }
    // Nothing of them kept: no incoming file, no version, not in the folder.
    expect(await incomingFiles(docsDir(), true)).toEqual([])
    expect(await filesNaming('held-')).toEqual([])
    const names = await listedNames(ann)
    expect(names).toContain('bob.dwg')
    expect(names.filter((name) => name.startsWith('held-'))).toEqual([])
    // Their places are Ann's again.
    const again = await Promise.all([
      postStream(server.url, ann, smallDrawing('again-1.dwg')),
      postStream(server.url, ann, smallDrawing('again-2.dwg')),
    ])
    expect(again.map((answer) => answer.status)).toEqual([201, 201])
  })
})
