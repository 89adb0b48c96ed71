import { randomBytes } from 'node:crypto'
import { copyFile, mkdir, mkdtemp, rename, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Job, JobListSchema } from '#contract/jobs.ts'
import { type Watch, WatchListSchema, WatchSchema } from '#contract/watches.ts'
import { type RunningServer, startServer } from '../../e2e/support/server.ts'
import { decodeId, makeId } from '../cloud/local/ids.ts'
import { localCloudRoot } from '../cloud/local/local-cloud.ts'
import { fixturePath } from '../testing/boq/fixtures.ts'
import { createClient, signIn, type TestClient } from '../testing/client.ts'
import { findDrawing, makeSeedDir } from '../testing/jobs/drawings.ts'
import { waitFor } from '../testing/jobs/wait.ts'
import { createTestDatabase, type TestDatabase } from '../testing/postgres.ts'

// Watched folders with three real server processes (`node server/main.ts`, role all: each one
// serves, runs jobs, looks through the watched folders every second and dispatches) on one
// PostgreSQL database and one data folder, so one local cloud. Every poller sees each drawing
// dropped into the folder by hand; whichever process finds it first, its version becomes one job.
// The engine is the real one, on small sample drawings (the bill's figures are not tested here).

const MAX_PER_USER = 4
const POLL_MS = 1000
const SESSION_SECRET = randomBytes(32).toString('hex')
let seedDir: string
let dataDir: string
let database: TestDatabase
/** The one person, signed in on the first process, and the same session on the two others. */
const on: TestClient[] = []
/** The seed's folder on disk (`<hub>/<project>/<folder>` below the cloud folder). */
let seedRel: string
let projectId: string

const env = () => ({
  BOQ_DATABASE_URL: database.url,
  SESSION_SECRET,
  BOQ_USER_NAME: 'Watch Keeper',
  BOQ_WORKERS: '1',
  BOQ_MAX_QUEUED_PER_USER: String(MAX_PER_USER),
  BOQ_WATCH_POLL_SECONDS: String(POLL_MS / 1000),
})

/** Every process asked for, known before it is up (a start that fails stops its own child). */
const processes: Promise<RunningServer | undefined>[] = []

function start(): Promise<RunningServer> {
  const running = startServer({ dataDir, seedDir, env: env() })
  processes.push(running.catch(() => undefined))
  return running
}

/** The same session (its cookies) on another process, as a load balancer would send it. */
function sameSessionOn(client: TestClient, other: RunningServer): TestClient {
  const moved = createClient(other.url)
  for (const [name, value] of client.cookies) moved.cookies.set(name, value)
  return moved
}

const onDisk = (rel: string) => join(localCloudRoot(dataDir), ...rel.split('/'))
const folderId = (rel: string) => makeId('folder', `${seedRel}/${rel}`)

/**
 * Puts a sample drawing's bytes at `rel` (below the seed's folder) by hand: copied beside the
 * cloud, then moved in whole, as a copy finished elsewhere arrives (the half-written file is not
 * what is tested here).
 */
let dropped = 0
async function drop(fixture: string, rel: string): Promise<void> {
  const staging = join(dataDir, 'staging')
  await mkdir(staging, { recursive: true })
  const whole = join(staging, `${++dropped}.dwg`)
  await copyFile(fixturePath(fixture), whole)
  await rename(whole, onDisk(`${seedRel}/${rel}`))
}

async function jobsOf(client: TestClient): Promise<Job[]> {
  return v.parse(JobListSchema, await client.json('/api/boq/jobs')).data
}

async function watchesOf(client: TestClient): Promise<Watch[]> {
  return v.parse(WatchListSchema, await client.json('/api/boq/watches')).data
}

const postWatch = (client: TestClient, fileFolderId: string) =>
  client('/api/boq/watches', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ projectId, fileFolderId }),
  })

/** A job of the named drawing's version, once there is one (any status). */
const jobOfVersion = (name: string, version: number) =>
  waitFor(
    async () =>
      (await jobsOf(on[0] as TestClient)).find(
        (job) => job.fileName === name && job.fileVersionNumber === version,
      ),
    `a job of ${name} version ${version}`,
    60_000,
  )

/** Waits until the person's jobs of `names` have all succeeded; a failed one ends the wait. */
function succeeded(names: string[], count: number): Promise<Job[]> {
  return waitFor(
    async () => {
      const jobs = (await jobsOf(on[0] as TestClient)).filter((job) => names.includes(job.fileName))
      const failed = jobs.find((job) => job.status === 'failed')
      if (failed) throw new Error(`${failed.fileName} failed: ${failed.error}`)
      return jobs.length >= count && jobs.every((job) => job.status === 'succeeded') && jobs
    },
    `${count} succeeded jobs of ${names.join(', ')}`,
    150_000,
  )
}

/** Runs `sql` on the test database over a connection of its own. */
async function rowsOf(sql: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  try {
    return (await client.query(sql, values)).rows
  } finally {
    await client.end()
  }
}

beforeAll(async () => {
  seedDir = await makeSeedDir(['sample_2018.dwg'])
  dataDir = await mkdtemp(join(tmpdir(), 'boq-watches-cluster-'))
  database = await createTestDatabase()
}, 60_000)

afterAll(async () => {
  await Promise.all(processes.map(async (running) => (await running)?.stop()))
  await database?.drop()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
  if (seedDir) await rm(seedDir, { recursive: true, force: true })
}, 60_000)

describe('watched folders with several processes on one PostgreSQL', () => {
  let watch: Watch
  const names = Array.from({ length: 12 }, (_, i) => `drop-${String(i + 1).padStart(2, '0')}.dwg`)
  /** Drawings of the watch, where they are dropped: half in the folder, half in a subfolder. */
  const places = names.map((name, i) => (i % 2 ? `Watched/incoming/${name}` : `Watched/${name}`))
  const renewed = names[0] as string

  it('starts one job per new version, whichever process finds it, in the owner’s name', async () => {
    // The first process seeds the empty data folder; the two others start on it at once.
    const first = await start()
    const others = await Promise.all([start(), start()])
    const person = await signIn(first.url)
    on.push(person, ...others.map((other) => sameSessionOn(person, other)))
    const seed = await findDrawing(person.json, 'sample_2018.dwg')
    seedRel = decodeId('folder', seed.folderId) ?? ''
    projectId = seed.projectId

    // A drawing already in the folder when it is watched is the starting point: it gets no job.
    await mkdir(onDisk(`${seedRel}/Watched`), { recursive: true })
    await drop('sample_2018.dwg', 'Watched/already.dwg')
    const response = await postWatch(person, folderId('Watched'))
    expect(response.status).toBe(201)
    watch = v.parse(WatchSchema, await response.json())
    expect(watch).toMatchObject({ state: 'active', fileFolderId: folderId('Watched') })

    // Twelve drawings dropped by hand, half of them into a subfolder made after the watch.
    await mkdir(onDisk(`${seedRel}/Watched/incoming`), { recursive: true })
    for (const [i, place] of places.entries()) {
      await drop(i % 3 ? 'sample_2018.dwg' : 'sample_2000.dwg', place)
    }
    // Then two new versions of one of them, each once the one before has been seen.
    await jobOfVersion(renewed, 1)
    await drop('sample_2000.dwg', places[0] as string)
    await jobOfVersion(renewed, 2)
    await drop('r14_v.dwg', places[0] as string)
    await succeeded(names, 14)

    // Exactly one job per version, each started by the watch: none twice across the processes.
    const jobs = (await jobsOf(person)).filter((job) => job.watchId === watch.id)
    const perVersion = new Map<string, number>()
    for (const job of jobs)
      perVersion.set(job.fileStorageId, (perVersion.get(job.fileStorageId) ?? 0) + 1)
    expect([...perVersion.values()]).toEqual(Array(14).fill(1))
    expect(jobs.map((job) => `${job.fileName} v${job.fileVersionNumber}`).sort()).toEqual(
      [...names.map((name) => `${name} v1`), `${renewed} v2`, `${renewed} v3`].sort(),
    )
    for (const job of jobs) expect(job).toMatchObject({ status: 'succeeded', watchId: watch.id })
    // Nothing else was started: not the drawing already there, not the seed, not the bills.
    expect(await jobsOf(person)).toHaveLength(14)

    // In the owner's name (the database's rows, whichever process queued and ran them), and the
    // same jobs whichever process the person asks.
    const [owner] = await rowsOf('SELECT user_id FROM boq_watches WHERE id = $1', [watch.id])
    const rows = await rowsOf(
      'SELECT file_storage_id, user_id, count(*)::int AS n FROM boq_jobs GROUP BY 1, 2',
    )
    expect(rows).toHaveLength(14)
    for (const row of rows) expect(row).toMatchObject({ user_id: owner?.user_id, n: 1 })
    const ids = jobs.map((job) => job.id).sort()
    for (const client of on.slice(1)) {
      expect((await jobsOf(client)).map((job) => job.id).sort()).toEqual(ids)
    }

    // Another process shows the same watch, with nothing left waiting.
    const listed = await watchesOf(on[1] as TestClient)
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({ id: watch.id, state: 'active', waiting: 0 })
  }, 240_000)

  it('ends the watch through another process: no process starts anything for it', async () => {
    // A second watch, on another folder, shows that every process still looks and dispatches.
    await mkdir(onDisk(`${seedRel}/Control`), { recursive: true })
    const control = await postWatch(on[2] as TestClient, folderId('Control'))
    expect(control.status).toBe(201)
    const controlWatch = v.parse(WatchSchema, await control.json())

    const ended = await (on[1] as TestClient)(`/api/boq/watches/${watch.id}`, {
      method: 'DELETE',
    })
    expect(ended.status).toBe(204)
    expect((await watchesOf(on[2] as TestClient)).map((w) => w.id)).toEqual([controlWatch.id])

    // Dropped into the ended watch's folder; then drawings into the other's, one after another,
    // until one of them was queued three polls after that drop: by then every process has looked
    // through the watches, and dispatched, more than once since.
    const droppedAt = Date.now()
    await drop('sample_2018.dwg', 'Watched/after.dwg')
    let controls = 0
    for (;;) {
      const name = `control-${++controls}.dwg`
      await drop('sample_2018.dwg', `Control/${name}`)
      const [job] = await succeeded([name], 1)
      expect(job?.watchId).toBe(controlWatch.id)
      if (Date.parse(job?.createdAt ?? '') >= droppedAt + 3 * POLL_MS) break
      if (controls === 30)
        throw new Error('30 drawings of the other watch, and still not three polls later')
    }

    const jobs = await jobsOf(on[0] as TestClient)
    expect(jobs.filter((job) => job.fileName === 'after.dwg')).toEqual([])
    expect(jobs).toHaveLength(14 + controls)
    expect(
      await rowsOf('SELECT 1 FROM boq_jobs WHERE record->>$1 = $2', ['fileName', 'after.dwg']),
    ).toEqual([])
    // What the ended watch saw went with it: no process has a version of it left to dispatch.
    expect(
      await rowsOf('SELECT 1 FROM boq_watched_versions WHERE watch_id = $1', [watch.id]),
    ).toEqual([])
  }, 180_000)
})
