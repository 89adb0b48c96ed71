/**
 * One user's heavy requests never slow another's: a finished job pair of 20,000-line bills and a
 * job with 8 MB of geometry, kept by the embedded job store as jobs keep them, served by the jobs
 * routes over real HTTP on loopback (the user by header). While five users each ask for two
 * change bills as XLSX at once, again and again, and twenty requests for the geometry unpacked
 * (a client without gzip) run beside them, another user's GET /api/boq/jobs is asked one request
 * at a time, 5 ms apart, for as long as the load runs. Printed: how many heavy requests were
 * answered, refused (429/503) or failed, and the other user's answer times. Target: the other
 * user's answers within 200 ms (95th percentile and the largest).
 *
 * Then the attacks of one hostile signed-in user, each on a fresh real server in a child process
 * (bench/support/attacks.ts): a rule's glob of stars on save and on a price preview, a rules
 * workbook of ten million empty rows, a rate of 1e308, four uploads that dribble. Printed: each
 * attack's answers, and another person's GET /api/boq/jobs meanwhile, against the same target.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { gzipSync } from 'node:zlib'
import { serve } from '@hono/node-server'
import { createBillPool } from '../server/jobs/bill-pool.ts'
import { openEmbeddedJobStore } from '../server/jobs/embedded-store.ts'
import { answerSummary, timeAnswers } from '../server/testing/jobs/answer-times.ts'
import { makeSeedDir } from '../server/testing/jobs/drawings.ts'
import { contextFor, createFakeCloud, TEST_TOKEN_KEY } from '../server/testing/jobs/fakes.ts'
import { jobsRoutesApp } from '../server/testing/jobs/routes-app.ts'
import { runAttack } from './support/attack-run.ts'
import { ATTACKS } from './support/attacks.ts'
import { bigBill } from './support/big-bill.ts'
import { describeMs, versusTarget } from './support/stats.ts'

const LINES = 20_000
const HEAVY_USERS = 5
const ROUNDS = 3
const GEOMETRY_REQUESTS = 20
const TARGET_MS = 200
/** The seed of the attacks' servers: a small drawing, extracted for the attacks that need a job. */
const ATTACK_DRAWING = 'sample_2018.dwg'

const dataDir = await mkdtemp(join(tmpdir(), 'boq-bench-heavy-'))
const store = await openEmbeddedJobStore({ dataDir, tokenKey: TEST_TOKEN_KEY, log: () => {} })
const cloud = createFakeCloud()
const users = Array.from({ length: HEAVY_USERS }, (_, i) => `heavy${i}`)
const text = new TextEncoder()
// Geometry-like bytes: 8 MB that gzip packs well, as drawings' geometry does.
const geometry = gzipSync(new Uint8Array(8 * 1024 * 1024).map((_, i) => (i * 31) % 251))

/** Each user's two finished jobs of the same drawing: versions 1 and 2 of a 20,000-line bill. */
const pairs = new Map<string, string[]>()
for (const user of users) {
  const ids: string[] = []
  for (const [storageId, shift] of [
    [`${user}-v1`, 0],
    [`${user}-v2`, 2.5],
  ] as const) {
    const { job } = await store.submit(
      {
        fileName: 'plan.dwg',
        projectId: 'p1',
        fileFolderId: 'f1',
        fileStorageId: storageId,
        context: contextFor(user),
      },
      { maxActivePerUser: 10 },
    )
    await store.claim()
    await store.succeed(
      job.id,
      {
        fileName: 'plan BOQ.xlsx',
        itemId: 'i',
        versionNumber: 1,
        jsonKept: true,
        geometryKept: true,
      },
      {
        xlsx: new Uint8Array(1),
        csv: new Uint8Array(1),
        json: text.encode(JSON.stringify(bigBill(LINES, shift))),
        geometry,
      },
    )
    ids.push(job.id)
  }
  pairs.set(user, ids)
}

const bills = createBillPool()
const app = jobsRoutesApp({
  store,
  cloud: cloud.cloud,
  maxFileBytes: 1024,
  maxQueuedPerUser: 10,
  bills,
})
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
await new Promise((resolve) => server.once('listening', resolve))
const { port } = server.address() as AddressInfo
const base = `http://127.0.0.1:${port}`
const as = (user: string) => (path: string) =>
  fetch(`${base}${path}`, { headers: { 'x-user': user } })

try {
  const load = new Worker(new URL('./support/heavy-load.ts', import.meta.url), {
    workerData: { base, pairs: [...pairs], rounds: ROUNDS, geometryRequests: GEOMETRY_REQUESTS },
  })
  let outcomes: { answered: number; refused: number; failed: number } | undefined
  const loaded = new Promise<void>((resolve, reject) => {
    load.once('message', (message) => {
      outcomes = message
      resolve()
    })
    load.once('error', reject)
  })
  const times = await timeAnswers(as('other'), '/api/boq/jobs', {
    max: 1_000_000,
    done: () => outcomes !== undefined,
    pauseMs: 5,
  })
  await loaded
  await load.terminate()
  const { count: asked, max, p95 } = answerSummary(times)
  console.log(
    `${HEAVY_USERS} users × 2 change bills of ${LINES.toLocaleString('en')} lines as XLSX, and ${GEOMETRY_REQUESTS} geometries of 8.4 MB asked unpacked, ${ROUNDS} rounds: ${outcomes?.answered} answered, ${outcomes?.refused} refused (429/503), ${outcomes?.failed} failed`,
  )
  console.log(
    `  another user's GET /api/boq/jobs meanwhile (${asked} answers): ${describeMs(times)}`,
  )
  console.log(`  95th percentile ${versusTarget(p95, TARGET_MS, ' ms')}`)
  console.log(`  largest ${versusTarget(max, TARGET_MS, ' ms')}`)
} finally {
  await new Promise((resolve) => server.close(resolve))
  await bills.close()
  await store.close()
  await rm(dataDir, { recursive: true, force: true })
}

console.log(
  `\nOne user's attacks, each on a fresh server; another person's GET /api/boq/jobs meanwhile:`,
)
const seedDir = await makeSeedDir([ATTACK_DRAWING])
const worst = { p95: 0, max: 0, stalled: 0 }
try {
  for (const attack of ATTACKS) {
    const { answers, tookMs, times, otherStalled } = await runAttack(
      attack,
      seedDir,
      ATTACK_DRAWING,
    )
    console.log(`- ${attack.name} (answered in ${(tookMs / 1000).toFixed(1)} s):`)
    for (const answer of answers) console.log(`    ${answer}`)
    if (otherStalled) {
      worst.stalled++
      console.log(`  another person's GET /api/boq/jobs: ${otherStalled} (OVER TARGET)`)
      continue
    }
    const { count, max, p95 } = answerSummary(times)
    worst.p95 = Math.max(worst.p95, p95)
    worst.max = Math.max(worst.max, max)
    console.log(`  another person's GET /api/boq/jobs (${count} answers): ${describeMs(times)}`)
    console.log(
      `    95th percentile ${versusTarget(p95, TARGET_MS, ' ms')}; largest ${versusTarget(max, TARGET_MS, ' ms')}`,
    )
  }
} finally {
  await rm(seedDir, { recursive: true, force: true })
}
console.log(
  `\nheavy-requests attacks: another person's answers, worst 95th percentile ${versusTarget(worst.p95, TARGET_MS, ' ms')}, worst largest ${versusTarget(worst.max, TARGET_MS, ' ms')}${worst.stalled ? `; ${worst.stalled} attack(s) left them unanswered` : ''}`,
)
