import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Job, JobList } from '#contract/jobs.ts'
import type { SeedIds } from '../../../dev/fake-aps/seed.ts'
import {
  FAKE_CLIENT_ID,
  FAKE_CLIENT_SECRET,
  type FakeAps,
  startFakeAps,
} from '../../../dev/fake-aps/server.ts'
import { type RunningServer, startServer } from '../../../e2e/support/server.ts'
import { STAND_IN_CALLBACK, signInThroughFake } from '../../testing/aps-product.ts'
import { fixturePath } from '../../testing/boq/fixtures.ts'
import { createClient, type TestClient } from '../../testing/client.ts'
import { postExtract, waitForJob } from '../../testing/jobs/jobs-api.ts'
import { createTestDatabase, type TestDatabase } from '../../testing/postgres.ts'
import { resultFileName } from '../result-name.ts'

// Several real server processes (`node server/main.ts` with BOQ_ROLE web or worker) on one
// PostgreSQL database, against the fake Autodesk (a real HTTP server) so that several users can
// sign in. Whichever process is asked, the rules on duplicates and limits hold, and a worker
// killed in the middle of a job loses nothing: its job runs again elsewhere and is written once.

const MAX_PER_USER = 5
let fake: FakeAps
let ids: SeedIds
let database: TestDatabase
let dataDir: string
const processes: RunningServer[] = []
/** One drawing item per name, one version each, all in the Drawings folder. */
const drawings: { name: string; storageId: string }[] = []

const env = () => ({
  APS_CLIENT_ID: FAKE_CLIENT_ID,
  APS_CLIENT_SECRET: FAKE_CLIENT_SECRET,
  APS_CALLBACK_URL: STAND_IN_CALLBACK,
  APS_BASE_URL: fake.url,
  BOQ_DATABASE_URL: database.url,
  SESSION_SECRET,
  BOQ_WORKERS: '1',
  BOQ_MAX_QUEUED_PER_USER: String(MAX_PER_USER),
  BOQ_JOB_RECOVERY_SECONDS: '15',
})
const SESSION_SECRET = randomBytes(32).toString('hex')

async function start(role: 'web' | 'worker'): Promise<RunningServer> {
  const running = await startServer({
    dataDir,
    seedDir: '',
    worker: role === 'worker',
    env: { ...env(), BOQ_ROLE: role },
  })
  processes.push(running)
  return running
}

/** A user of the fake Autodesk signed in through a web process (sessions work on every one). */
async function signInAs(web: RunningServer, n: number): Promise<TestClient> {
  fake.state.user = {
    id: `FAKEUSER${String(n).padStart(4, '0')}`,
    name: `User ${n}`,
    email: `user${n}@example.com`,
    picture: '/fake-profile/user.png',
  }
  return signInThroughFake(web.url)
}

const bodyFor = (drawing: { name: string; storageId: string }) => ({
  fileName: drawing.name,
  fileStorageId: drawing.storageId,
  fileFolderId: ids.drawingsId,
  projectId: ids.projectId,
})

/** The same session (its cookies) on another process, as a load balancer would send it. */
function sameSessionOn(client: TestClient, other: RunningServer): TestClient {
  const moved = createClient(other.url)
  for (const [name, value] of client.cookies) moved.cookies.set(name, value)
  return moved
}

/** The result items the fake holds, by name: how many versions each has. */
function writtenVersions(): Map<string, number> {
  const counts = new Map<string, number>()
  for (const item of fake.state.items.values()) {
    if (item.displayName.endsWith(' BOQ.xlsx')) counts.set(item.displayName, item.versions.length)
  }
  return counts
}

beforeAll(async () => {
  fake = await startFakeAps()
  ids = fake.ids as SeedIds
  // Drawings of their own: the heavier one keeps a worker busy long enough to be killed.
  const sources = ['2018_Dynblocks.dwg', 'example_2018.dwg', 'sample_2018.dwg', 'example_2000.dwg']
  for (let i = 0; i < 8; i++) {
    const bytes = new Uint8Array(await readFile(fixturePath(sources[i % sources.length])))
    const name = `cluster-${i + 1}.dwg`
    const item = fake.state.addItem(ids.drawingsId, name, [bytes])
    const version = item.versions[0]
    drawings.push({ name, storageId: version.storageId })
  }
  database = await createTestDatabase()
  dataDir = await mkdtemp(join(tmpdir(), 'boq-cluster-'))
}, 60_000)

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()))
  await fake?.close()
  await database?.drop()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
}, 60_000)

describe('several processes on one PostgreSQL', () => {
  const jobsByName = new Map<string, Set<string>>()
  const owners = new Map<string, TestClient>()
  const remember = (job: Job, owner: TestClient) => {
    const name = resultFileName(job.fileName)
    jobsByName.set(name, (jobsByName.get(name) ?? new Set()).add(job.id))
    owners.set(job.id, owner)
  }

  it('holds the duplicate rule and the per-user limit when two web processes are asked at once', async () => {
    const [web1, web2] = await Promise.all([start('web'), start('web')])
    const one = await signInAs(web1, 1)
    // The same session cookie, sent to the other process.
    const oneOnWeb2 = sameSessionOn(one, web2)

    // Eight different drawings at once, alternating between the two processes: five are taken.
    const answers = await Promise.all(
      drawings.map((d, i) => postExtract(i % 2 ? oneOnWeb2 : one, bodyFor(d))),
    )
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429, 429, 429])
    for (const answer of answers) {
      if (answer.status === 202) remember((await answer.json()) as Job, one)
      else expect(await answer.text()).toContain(`the limit is ${MAX_PER_USER}`)
    }

    // The same drawing from one user to both processes at once: one job, answered twice.
    const two = await signInAs(web2, 2)
    const twoOnWeb1 = sameSessionOn(two, web1)
    const [a, b] = await Promise.all([
      postExtract(two, bodyFor(drawings[1])),
      postExtract(twoOnWeb1, bodyFor(drawings[1])),
    ])
    expect([a.status, b.status].sort()).toEqual([200, 202])
    const [jobA, jobB] = [(await a.json()) as Job, (await b.json()) as Job]
    expect(jobA.id).toBe(jobB.id)
    remember(jobA, two)
    // Either process lists the user's jobs.
    const listed = await twoOnWeb1.json<JobList>('/api/boq/jobs')
    expect(listed.data.map((j) => j.id)).toEqual([jobA.id])
  }, 60_000)

  it('runs every job once when a worker is killed in the middle of one', async () => {
    const web = processes[0]
    const [worker1] = await Promise.all([start('worker'), start('worker')])
    // Signing in changes the fake's current user: one after another.
    const clients: TestClient[] = []
    for (const n of [3, 4, 5, 6]) clients.push(await signInAs(web, n))

    const submitted: Job[] = []
    for (const client of clients) {
      for (const drawing of drawings.slice(0, MAX_PER_USER)) {
        const answer = await postExtract(client, bodyFor(drawing))
        expect(answer.status).toBe(202)
        const job = (await answer.json()) as Job
        remember(job, client)
        submitted.push(job)
      }
    }
    expect(submitted).toHaveLength(20)

    // Killed as soon as its log says it started one of the heavier drawings (a second or so of
    // work), so that it dies in the middle of it.
    const heavy = drawings.filter((_, i) => i % 4 === 0).map((d) => d.name)
    const startedHeavy = () =>
      worker1
        .output()
        .split('\n')
        .some(
          (line) =>
            line.includes('"msg":"job running"') &&
            heavy.some((n) => line.includes(`"fileName":"${n}"`)),
        )
    await expect.poll(startedHeavy, { timeout: 60_000, interval: 5 }).toBe(true)
    await worker1.kill()

    // Every job ends (the killed one once the queue gave it to the other worker), and succeeds.
    const everyJob = [...jobsByName.values()].flatMap((set) => [...set])
    const ended = await Promise.all(
      everyJob.map((id) => waitForJob(owners.get(id) as TestClient, id, { timeoutMs: 150_000 })),
    )
    for (const job of ended) expect(job).toMatchObject({ status: 'succeeded' })

    // The killed job ran again: the database counts a second attempt.
    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    try {
      const { rows } = await client.query(
        "SELECT count(*)::int AS n FROM boq_jobs WHERE (record->>'attempts')::int > 1",
      )
      expect(rows[0].n).toBeGreaterThanOrEqual(1)
    } finally {
      await client.end()
    }

    // Each result item has one version per job that wrote it: none written twice, none lost.
    const expected = new Map([...jobsByName].map(([name, set]) => [name, set.size]))
    expect(writtenVersions()).toEqual(expected)
  }, 200_000)
})
