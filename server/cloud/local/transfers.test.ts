/**
 * Large drawings into the local cloud over real HTTP: an upload goes to disk as it arrives, so the
 * server's memory grows by far less than the drawing; forms built to cost the server are refused
 * as soon as they are seen; at most four uploads run at once, two a person (503 past that). The
 * server runs in this process: its memory is this process's, measured after a full collection.
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../config.ts'
import type { TestClient } from '../../testing/client.ts'
import {
  BOUNDARY,
  closing,
  field,
  fileHead,
  incomingFiles as incomingFilesOf,
  postStream as postStreamAs,
  targetFields as targetFieldsOf,
} from '../../testing/cloud/local/upload-stream.ts'
import { createFakeExtractor } from '../../testing/jobs/fakes.ts'
import { severalUsersBackends } from '../../testing/jobs/several-users.ts'
import { waitFor } from '../../testing/jobs/wait.ts'
import { startTestServer, type TestServer } from '../../testing/start-test-server.ts'
import { MAX_TRANSFERS, MAX_TRANSFERS_PER_PERSON } from '../transfer-slots.ts'
import { makeId } from './ids.ts'
import { MAX_FIELDS } from './upload-form.ts'

setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void

/**
 * Bytes this process holds after full collections (the JS heap and the buffers outside it): twice,
 * a turn of the event loop apart, as V8 frees the memory of dead buffers on a thread of its own.
 */
async function liveBytes(): Promise<number> {
  collect()
  await new Promise((resolve) => setImmediate(resolve))
  collect()
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  if (process.env.BOQ_SHOW_MEMORY) console.log('MEM', heapUsed, arrayBuffers)
  return heapUsed + arrayBuffers
}

const MB = 1024 * 1024
/** The large drawing: 50 MB. */
const LARGE_CHUNKS = 50
const DOCS = 'Acme/Alpha/Docs'
const ids = {
  hub: makeId('hub', 'Acme'),
  project: makeId('project', 'Acme/Alpha'),
  docs: makeId('folder', DOCS),
}
const text = new TextEncoder()
const targetFields = () => targetFieldsOf(ids.project, ids.docs)

/** Megabyte `index` of a generated drawing: an AutoCAD 2018 header first, then varied bytes. */
function drawingChunk(index: number): Uint8Array {
  const chunk = new Uint8Array(MB)
  for (let i = 0; i < MB; i += 4096) chunk[i] = (index * 31 + i / 4096) % 251
  if (index === 0) chunk.set(text.encode('AC1032'))
  return chunk
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

let server: TestServer
let client: TestClient
let signInAs: (url: string, name: string) => Promise<TestClient>
const docsDir = () => join(server.dataDir, 'cloud', ...DOCS.split('/'))
const postStream = (parts: AsyncIterable<Uint8Array>, signal?: AbortSignal, as = client) =>
  postStreamAs(server.url, as, parts, signal)
const incomingFiles = (marks = false) => incomingFilesOf(docsDir(), marks)

async function* smallDrawing(name: string): AsyncGenerator<Uint8Array> {
  yield targetFields()
  yield fileHead(name)
  yield drawingChunk(0).subarray(0, 4096)
  yield closing
}

/** Every file below the cloud folder (history included) with its size: to prove nothing changed. */
async function snapshot(): Promise<string[]> {
  const root = join(server.dataDir, 'cloud')
  const out: string[] = []
  for (const name of (await readdir(root, { recursive: true })).sort()) {
    const info = await stat(join(root, name)).catch(() => undefined)
    if (info?.isFile()) out.push(`${name} ${info.size}`)
  }
  return out
}

beforeAll(async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'boq-transfers-'))
  const users = severalUsersBackends(
    loadConfig({ BOQ_DATA_DIR: dataDir, BOQ_USER_NAME: 'Test User', BOQ_SEED_DIR: '' }),
  )
  server = await startTestServer({
    dataDir,
    backends: users.backends,
    extractor: createFakeExtractor().extractor,
  })
  await mkdir(join(server.dataDir, 'cloud', ...DOCS.split('/')), { recursive: true })
  signInAs = users.signInAs
  client = await signInAs(server.url, 'ann')
})
afterAll(async () => {
  await server?.close()
  await rm(server.dataDir, { recursive: true, force: true })
})

describe('a large drawing', () => {
  it('is uploaded as it arrives: the server holds far less than the drawing', async () => {
    const hash = createHash('sha256')
    const before = await liveBytes()
    let grown = 0
    async function* body() {
      yield targetFields()
      yield fileHead('large.dwg')
      for (let index = 0; index < LARGE_CHUNKS; index++) {
        const chunk = drawingChunk(index)
        hash.update(chunk)
        yield chunk
        // Sampled as the client sends: the server has received nearly as much by then.
        if (index % 5 === 4) grown = Math.max(grown, (await liveBytes()) - before)
      }
      yield closing
    }
    const answer = await postStream(body())
    expect(answer.status).toBe(201)
    expect(JSON.parse(answer.text)).toMatchObject({ versionNumber: 1, fileName: 'large.dwg' })
    const expected = hash.digest('hex')
    expect(await sha256OfFile(join(docsDir(), 'large.dwg'))).toBe(expected)
    // Holding the form, as a parser that buffers it does, would be the drawing's 50 MB at least.
    expect(grown).toBeLessThan((LARGE_CHUNKS * MB) / 5)
    expect(await incomingFiles(true)).toEqual([])
  })
})

describe('uploads at once', () => {
  it(`takes ${MAX_TRANSFERS} slow ones, ${MAX_TRANSFERS_PER_PERSON} a person; a fifth is answered 503 with Retry-After; senders that go away leave nothing`, async () => {
    const before = await snapshot()
    let release = () => {}
    const stalled = new Promise<void>((resolve) => {
      release = resolve
    })
    // As many people as it takes to fill every slot within their own share (signed in one by
    // one: the sign-in takes the name last given).
    const senders: TestClient[] = []
    for (let i = 0; i < MAX_TRANSFERS / MAX_TRANSFERS_PER_PERSON; i++) {
      senders.push(await signInAs(server.url, `sender-${i}`))
    }
    const aborts = Array.from({ length: MAX_TRANSFERS }, () => new AbortController())
    const slow = aborts.map((abort, i) => {
      async function* body() {
        yield targetFields()
        yield fileHead(`slow-${i}.dwg`)
        yield drawingChunk(0)
        // The rest never comes while the test holds it.
        await stalled
        yield closing
      }
      const sender = senders[Math.floor(i / MAX_TRANSFERS_PER_PERSON)]
      return postStream(body(), abort.signal, sender).catch((error: unknown) => error)
    })
    try {
      // Each has a file being received on disk: its slot is taken.
      await waitFor(
        async () => (await incomingFiles()).length === MAX_TRANSFERS,
        'four uploads being received',
      )
      const fifth = await postStream(smallDrawing('fifth.dwg'))
      expect(fifth.status).toBe(503)
      expect(fifth.retryAfter).toMatch(/^[1-9]\d*$/)
      expect(fifth.text).toBe(
        `The server is busy with ${MAX_TRANSFERS} uploads already; try again in a few seconds.`,
      )
    } finally {
      for (const abort of aborts) abort.abort()
      release()
    }
    await Promise.all(slow)
    // What the four sent is removed, none of it a version, and the slots are given back.
    await waitFor(async () => (await incomingFiles(true)).length === 0, 'incoming files removed')
    expect(await snapshot()).toEqual(before)
    const next = await waitFor(async () => {
      const answer = await postStream(smallDrawing('next.dwg'))
      return answer.status !== 503 && answer
    }, 'a slot given back')
    expect(next.status).toBe(201)
  })

  it('receives one while another version of its item is written: the clean-up of leftovers spares it', async () => {
    let release = () => {}
    const stalled = new Promise<void>((resolve) => {
      release = resolve
    })
    const sent = createHash('sha256')
    async function* body() {
      yield targetFields()
      yield fileHead('shared.dwg')
      const first = drawingChunk(0)
      sent.update(first)
      yield first
      await stalled
      const second = drawingChunk(1)
      sent.update(second)
      yield second
      yield closing
    }
    const slow = postStream(body())
    try {
      await waitFor(async () => (await incomingFiles()).length === 1, 'the slow upload received')
      // Written meanwhile under the item's lock, which puts its history in order first.
      const quick = await postStream(smallDrawing('shared.dwg'))
      expect(quick.status).toBe(201)
      expect(JSON.parse(quick.text)).toMatchObject({ versionNumber: 1 })
      expect(await incomingFiles()).toHaveLength(1)
    } finally {
      release()
    }
    const answer = await slow
    expect(answer.status).toBe(201)
    expect(JSON.parse(answer.text)).toMatchObject({ versionNumber: 2 })
    expect(await sha256OfFile(join(docsDir(), 'shared.dwg'))).toBe(sent.digest('hex'))
  })
})

describe('forms built to cost the server', () => {
  it.each([
    ['empty fields', field('x', '')],
    ['parts without a name', `--${BOUNDARY}\r\n\r\n\r\n`],
  ])(
    'an endless run of %s is refused at the one too many, read no further (413), writing nothing',
    async (_what, part) => {
      const before = await snapshot()
      // 2.5 million parts, 10,000 a chunk: about 170 MB if the server read them all.
      const total = 2_500_000
      const batch = text.encode(part.repeat(10_000))
      let sent = 0
      async function* body() {
        yield targetFields()
        while (sent < total) {
          sent += 10_000
          yield batch
        }
        yield fileHead('fields.dwg')
        yield drawingChunk(0).subarray(0, 4096)
        yield closing
      }
      const answer = await postStream(body())
      expect(answer.status).toBe(413)
      expect(answer.text).toBe(
        `The upload form has too many parts: send at most ${MAX_FIELDS} fields and one file (fields projectId, folderId, optional itemId, and file).`,
      )
      expect(sent).toBeLessThan(total / 4)
      expect(await snapshot()).toEqual(before)
    },
  )

  it(`takes ${MAX_FIELDS} fields and the file: the three it reads, and others it ignores`, async () => {
    async function* body() {
      yield text.encode(field('note', 'a'.repeat(100)).repeat(MAX_FIELDS - 2))
      yield* smallDrawing('eight.dwg')
    }
    const answer = await postStream(body())
    expect(answer.status).toBe(201)
    async function* oneMore() {
      yield text.encode(field('note', '').repeat(MAX_FIELDS - 1))
      yield* smallDrawing('nine.dwg')
    }
    expect((await postStream(oneMore())).status).toBe(413)
  })

  it.each([
    [
      'a second file',
      [fileHead('other.dwg'), drawingChunk(0).subarray(0, 4096)],
      /^Send one drawing as the form field "file"/,
    ],
    ['a field after the file', [text.encode(field('itemId', 'x'))], /^Send itemId before the file/],
  ])('%s is refused (400), writing nothing', async (_what, more, reason) => {
    const before = await snapshot()
    async function* body() {
      yield targetFields()
      yield fileHead('twice.dwg')
      yield drawingChunk(0).subarray(0, 4096)
      yield text.encode('\r\n')
      for (const part of more) yield part
      yield closing
    }
    const answer = await postStream(body())
    expect(answer.status).toBe(400)
    expect(answer.text).toMatch(reason)
    expect(await snapshot()).toEqual(before)
  })

  it('a field value past 16 KiB is refused (400), writing nothing', async () => {
    const before = await snapshot()
    async function* body() {
      yield text.encode(field('projectId', 'p'.repeat(20_000)))
      yield* smallDrawing('long.dwg')
    }
    const answer = await postStream(body())
    expect(answer.status).toBe(400)
    expect(answer.text).toBe('projectId is too long.')
    expect(await snapshot()).toEqual(before)
  })
})
