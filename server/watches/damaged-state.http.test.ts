import { createHash } from 'node:crypto'
import { appendFile, readdir, rm, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as v from 'valibot'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { type Job, JobListSchema } from '#contract/jobs.ts'
import { type Watch, WatchListSchema, WatchSchema } from '#contract/watches.ts'
import { decodeId } from '../cloud/local/ids.ts'
import { localCloudRoot } from '../cloud/local/local-cloud.ts'
import { log } from '../log.ts'
import { signIn, type TestClient } from '../testing/client.ts'
import { type DrawingRef, findDrawing, makeSeedDir } from '../testing/jobs/drawings.ts'
import { createFakeExtractor } from '../testing/jobs/fakes.ts'
import { waitFor } from '../testing/jobs/wait.ts'
import { startTestServer, type TestServer } from '../testing/start-test-server.ts'
import { ACCESS_DAMAGED } from './standing-access.ts'

// Damaged state over real HTTP (local mode, a real server on loopback started again on the same
// data folder): a watch's log with a line that is not a version's, a log emptied, a standing
// grant cut short, a saved rules version cut short. Each is said (in the log, and to the person
// where it stops something), and nothing there before the watch is billed.

let seedDir: string
let dataDir: string
let server: TestServer | undefined
let ann: TestClient
let drawing: DrawingRef
let folderOnDisk: string
let watch: Watch
/** An engine per server (each closes its own). */
const engines: ReturnType<typeof createFakeExtractor>[] = []
const warned = vi.spyOn(log, 'warn')

async function start(): Promise<void> {
  const engine = createFakeExtractor()
  engines.push(engine)
  server = await startTestServer({
    dataDir,
    seed: server ? false : seedDir,
    env: { BOQ_WATCH_POLL_SECONDS: '1', BOQ_WORKERS: '1' },
    extractor: engine.extractor,
  })
  ann = await signIn(server.url)
}

async function restart(damage: () => Promise<void>): Promise<void> {
  await server?.close()
  await damage()
  warned.mockClear()
  await start()
}

beforeAll(async () => {
  seedDir = await makeSeedDir(['example_2018.dwg'])
  dataDir = join(seedDir, 'data')
  await start()
  drawing = await findDrawing(ann.json, 'example_2018.dwg')
  folderOnDisk = join(
    localCloudRoot(dataDir),
    ...(decodeId('folder', drawing.folderId) ?? '').split('/'),
  )
}, 60_000)

afterEach(() => {
  warned.mockClear()
})

afterAll(async () => {
  warned.mockRestore()
  await server?.close()
  await rm(seedDir, { recursive: true, force: true })
})

async function jobsOf(): Promise<Job[]> {
  return v.parse(JobListSchema, await ann.json('/api/boq/jobs')).data
}

async function watchesOf(): Promise<Watch[]> {
  return v.parse(WatchListSchema, await ann.json('/api/boq/watches')).data
}

/** The jobs per drawing, once the watch has billed `fileName` and nothing of it waits. */
async function billedOnceSettled(fileName: string): Promise<Record<string, number>> {
  await waitFor(
    async () => {
      const billed = (await jobsOf()).some(
        (job) => job.fileName === fileName && job.status === 'succeeded',
      )
      return billed && (await watchesOf())[0]?.waiting === 0
    },
    `${fileName} billed by the watch`,
    30_000,
  )
  const counts: Record<string, number> = {}
  for (const job of await jobsOf()) counts[job.fileName] = (counts[job.fileName] ?? 0) + 1
  return counts
}

const warnings = () => warned.mock.calls.map(([message]) => message)
const watchFile = (name: string) => join(dataDir, 'watches', watch.id, name)

describe('damaged state, said (local cloud, restarted on the same data)', {
  timeout: 90_000,
}, () => {
  it('a line of the watch’s log that is not a version’s is left out, said; the watch still bills a new drawing', async () => {
    const response = await ann('/api/boq/watches', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: drawing.projectId, fileFolderId: drawing.folderId }),
    })
    expect(response.status).toBe(201)
    watch = v.parse(WatchSchema, await response.json())
    await writeFile(join(folderOnDisk, 'first.dwg'), 'first drawing')
    await billedOnceSettled('first.dwg')

    await restart(() => appendFile(watchFile('versions.jsonl'), '{}\n'))
    expect(warnings()).toContainEqual(
      expect.stringContaining(`left out 1 unreadable line(s) of ${watchFile('versions.jsonl')}`),
    )
    expect(await watchesOf()).toEqual([expect.objectContaining({ id: watch.id, state: 'active' })])
    await writeFile(join(folderOnDisk, 'second.dwg'), 'second drawing')
    expect(await billedOnceSettled('second.dwg')).toEqual({ 'first.dwg': 1, 'second.dwg': 1 })
  })

  it('an emptied log loses nothing of the starting point: the drawing there before the watch is never billed', async () => {
    await restart(() => truncate(watchFile('versions.jsonl'), 0))
    expect((await watchesOf())[0]).toMatchObject({ id: watch.id, state: 'active' })
    await writeFile(join(folderOnDisk, 'third.dwg'), 'third drawing')
    // The drawings seen since the watch began are found again and skipped as already billed.
    expect(await billedOnceSettled('third.dwg')).toEqual({
      'first.dwg': 1,
      'second.dwg': 1,
      'third.dwg': 1,
    })
    expect(engines.flatMap((engine) => engine.seen)).not.toContain('example_2018.dwg')
  })

  it('a standing grant cut short pauses the watch, saying so and naming the file; watching again resumes it', async () => {
    const grants = join(dataDir, 'watches', 'grants')
    const [grant = ''] = await readdir(grants)
    await restart(() => truncate(join(grants, grant), 20))
    const paused = await waitFor(
      async () => {
        const [only] = await watchesOf()
        return only?.state === 'paused' && only
      },
      'the watch paused',
      30_000,
    )
    expect(paused).toMatchObject({ id: watch.id, pausedReason: ACCESS_DAMAGED })
    expect(warnings()).toContainEqual(
      expect.stringContaining(`the standing grant ${join(grants, grant)} cannot be read`),
    )

    // Local mode: watching again gives BOQ the session's access again, and the watch resumes.
    const again = await ann('/api/boq/watches', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: drawing.projectId, fileFolderId: drawing.folderId }),
    })
    expect(again.status).toBe(200)
    expect(await again.json()).toMatchObject({ id: watch.id, state: 'active', pausedReason: null })
    await writeFile(join(folderOnDisk, 'fourth.dwg'), 'fourth drawing')
    expect((await billedOnceSettled('fourth.dwg'))['fourth.dwg']).toBe(1)
  })

  it('a saved rules version cut short is named in the log and skipped: the newest readable one answers', async () => {
    const path = `/api/boq/projects/${encodeURIComponent(drawing.projectId)}/rules`
    const { version } = await ann.json<{ version: number }>(path)
    for (const code of ['A', 'B']) {
      const saved = await ann(path, {
        method: 'PUT',
        headers: {
          'content-type': 'application/json',
          'if-match': String((await ann.json<{ version: number }>(path)).version),
        },
        body: JSON.stringify({ rules: [{ match: 'count', block: '*', code, rate: 1 }] }),
      })
      expect(saved.status).toBe(200)
    }
    const projectDir = createHash('sha256').update(drawing.projectId).digest('hex').slice(0, 32)
    const cut = join(dataDir, 'rules', projectDir, 'rules', `${version + 2}.json`)
    await truncate(cut, 20)

    const rules = await ann(path)
    expect(rules.status).toBe(200)
    expect(await rules.json()).toMatchObject({ version: version + 1, rules: [{ code: 'A' }] })
    const history = await ann(`${path}/history`)
    expect(history.status).toBe(200)
    const versions = ((await history.json()) as { version: number }[]).map((saved) => saved.version)
    expect(versions[0]).toBe(version + 1)
    expect(versions).not.toContain(version + 2)
    expect(warnings()).toContainEqual(expect.stringContaining(cut))
  })
})
