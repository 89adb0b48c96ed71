/**
 * A folder of 10,000 drawings dropped at once into a watched folder: the real server on loopback
 * (local cloud, the watch poller looking every second, a person's job limit of 10), the fake
 * engine held so that nothing runs out of line. While the poller finds the drawings and the
 * dispatcher queues them, another user's GET /api/boq/jobs is asked one request at a time, 5 ms
 * apart. Printed: how soon every drawing was seen (queued or waiting, none lost), the other
 * user's answer times (target: within 200 ms, 95th percentile and the largest), then, with the
 * engine let go, how many jobs ran in 20 s with the other user's answers meanwhile.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { JobList } from '#contract/jobs.ts'
import type { WatchList } from '#contract/watches.ts'
import { decodeId } from '../server/cloud/local/ids.ts'
import { localCloudRoot } from '../server/cloud/local/local-cloud.ts'
import { loadConfig } from '../server/config.ts'
import { log } from '../server/log.ts'
import { answerSummary, timeAnswers } from '../server/testing/jobs/answer-times.ts'
import { findDrawing, makeSeedDir } from '../server/testing/jobs/drawings.ts'
import { createFakeExtractor } from '../server/testing/jobs/fakes.ts'
import { severalUsersBackends } from '../server/testing/jobs/several-users.ts'
import { startTestServer } from '../server/testing/start-test-server.ts'
import { describeMs, versusTarget } from './support/stats.ts'

// The figures, not a log line per request and per job (BOQ_LOG_LEVEL brings them back).
if (!process.env.BOQ_LOG_LEVEL) log.setLevel('warn')

const DRAWINGS = 10_000
const LIMIT = 10
const TARGET_MS = 200
const DRAIN_MS = 20_000

const seedDir = await makeSeedDir(['example_2018.dwg'])
const dataDir = await mkdtemp(join(tmpdir(), 'boq-bench-watch-'))
const config = loadConfig({ BOQ_DATA_DIR: dataDir, BOQ_USER_NAME: 'Bench', BOQ_SEED_DIR: '' })
const users = severalUsersBackends(config)
const engine = createFakeExtractor()
const server = await startTestServer({
  dataDir,
  seed: seedDir,
  env: {
    BOQ_WATCH_POLL_SECONDS: '1',
    BOQ_MAX_QUEUED_PER_USER: String(LIMIT),
    BOQ_WORKERS: '2',
  },
  backends: users.backends,
  extractor: engine.extractor,
})
try {
  const ann = await users.signInAs(server.url, 'ann')
  const other = await users.signInAs(server.url, 'other')
  const drawing = await findDrawing(ann.json, 'example_2018.dwg')
  const watched = await ann('/api/boq/watches', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ projectId: drawing.projectId, fileFolderId: drawing.folderId }),
  })
  if (watched.status !== 201) throw new Error(`POST watch: ${watched.status}`)
  const folder = join(
    localCloudRoot(dataDir),
    ...(decodeId('folder', drawing.folderId) ?? '').split('/'),
    'Dropped',
  )
  const release = engine.hold()
  await mkdir(folder)
  const started = performance.now()
  for (let i = 0; i < DRAWINGS; i += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, DRAWINGS - i) }, (_, k) =>
        writeFile(join(folder, `plan-${String(i + k).padStart(5, '0')}.dwg`), `plan ${i + k}`),
      ),
    )
  }
  const dropped = performance.now() - started

  /** Drawings the watch has seen: queued as jobs, or waiting for a place. */
  const seen = async () => {
    const [watch] = (await ann.json<WatchList>('/api/boq/watches')).data
    const jobs = (await ann.json<JobList>('/api/boq/jobs')).data.filter((job) => job.watchId)
    return { waiting: watch?.waiting ?? 0, jobs: jobs.length }
  }
  let state = { waiting: 0, jobs: 0 }
  let allSeenAt = 0
  const watching = (async () => {
    while (state.waiting + state.jobs < DRAWINGS) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      state = await seen()
    }
    allSeenAt = performance.now()
  })()
  const times = await timeAnswers(other, '/api/boq/jobs', {
    max: 1_000_000,
    done: () => allSeenAt > 0,
    pauseMs: 5,
  })
  await watching
  const summary = answerSummary(times)
  console.log(
    `${DRAWINGS.toLocaleString('en')} drawings written into a watched folder in ${(dropped / 1000).toFixed(1)} s; all seen ${((allSeenAt - started) / 1000).toFixed(1)} s after the first was written: ${state.jobs} queued (limit ${LIMIT}), ${state.waiting} waiting, ${DRAWINGS - state.jobs - state.waiting} lost`,
  )
  console.log(
    `  another user's GET /api/boq/jobs meanwhile (${summary.count} answers): ${describeMs(times)}`,
  )
  console.log(`  95th percentile ${versusTarget(summary.p95, TARGET_MS, ' ms')}`)
  console.log(`  largest ${versusTarget(summary.max, TARGET_MS, ' ms')}`)

  release()
  const drainStart = performance.now()
  const drainTimes = await timeAnswers(other, '/api/boq/jobs', {
    max: 1_000_000,
    done: () => performance.now() - drainStart > DRAIN_MS,
    pauseMs: 5,
  })
  // Counted with the engine held again: a version being queued shows, for a moment, both as
  // waiting and as a job; the count is taken again until nothing moves between two looks.
  engine.hold()
  const count = async () => {
    const { waiting } = await seen()
    const jobs = (await ann.json<JobList>('/api/boq/jobs')).data
    // The jobs list keeps a person's newest finished jobs only: the engine counts what ran.
    const ran = new Set(engine.seen).size
    const active = jobs.filter(
      (job) =>
        job.status === 'queued' ||
        (job.status === 'running' && !engine.seen.includes(job.fileName)),
    ).length
    return { waiting, ran, active, total: waiting + ran + active }
  }
  let after = await count()
  for (let look = 0; look < 20 && after.total !== DRAWINGS; look++) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    after = await count()
  }
  const { waiting, ran, active } = after
  const drain = answerSummary(drainTimes)
  console.log(
    `  the engine let go: ${ran} jobs ran in ${(DRAIN_MS / 1000).toFixed(0)} s (${waiting} still waiting, ${active} queued, none lost: ${after.total === DRAWINGS ? 'yes' : `NO, ${after.total} counted`}); the other user's answers meanwhile: ${describeMs(drainTimes)}, 95th percentile ${versusTarget(drain.p95, TARGET_MS, ' ms')}, largest ${versusTarget(drain.max, TARGET_MS, ' ms')}`,
  )
} finally {
  await server.close()
  await rm(dataDir, { recursive: true, force: true })
  await rm(seedDir, { recursive: true, force: true })
}
