import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLogger } from '../log.ts'
import {
  contextFor,
  createFakeCloud,
  createFakeExtractor,
  TEST_TOKEN_KEY,
} from '../testing/jobs/fakes.ts'
import { waitFor } from '../testing/jobs/wait.ts'
import { openEmbeddedJobStore } from './embedded-store.ts'
import { createJobLog } from './job-log.ts'
import { startJobRunner } from './runner.ts'
import type { JobRecord, JobStore } from './types.ts'

let lines: Record<string, unknown>[]
const logger = createLogger({
  level: 'info',
  write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
})

beforeEach(() => {
  lines = []
})

const record = (patch: Partial<JobRecord>): JobRecord => ({
  id: 'j1',
  status: 'queued',
  userId: 'u1',
  fileName: 'plan.dwg',
  projectId: 'p',
  fileFolderId: 'f',
  fileStorageId: 's',
  createdAt: new Date(1_000).toISOString(),
  updatedAt: new Date(1_000).toISOString(),
  attempts: 0,
  ...patch,
})

describe('the job log', () => {
  it('writes one line per change of status, with the durations that apply', () => {
    let clock = 1_000
    const write = createJobLog(logger, () => clock)
    const queued = record({})
    write({ job: queued })
    clock = 1_250
    const running = record({
      status: 'running',
      attempts: 1,
      updatedAt: new Date(clock).toISOString(),
    })
    write({ job: running, previous: queued })
    clock = 1_400
    const requeued = record({ status: 'queued', updatedAt: new Date(clock).toISOString() })
    write({ job: requeued, previous: running })
    clock = 2_000
    const again = record({ status: 'running', attempts: 1 })
    write({ job: again, previous: requeued })
    clock = 5_000
    write({ job: record({ status: 'succeeded' }), previous: again })
    write({ job: record({ id: 'j2', status: 'failed', error: 'No.' }), previous: running })

    const fields = ({ time: _time, level: _level, ...rest }: Record<string, unknown>) => rest
    expect(lines.map(fields)).toEqual([
      { msg: 'job queued', jobId: 'j1', userId: 'u1', fileName: 'plan.dwg' },
      {
        msg: 'job running',
        jobId: 'j1',
        userId: 'u1',
        fileName: 'plan.dwg',
        attempt: 1,
        queuedMs: 250,
      },
      { msg: 'job requeued', jobId: 'j1', userId: 'u1', fileName: 'plan.dwg', runMs: 150 },
      {
        msg: 'job running',
        jobId: 'j1',
        userId: 'u1',
        fileName: 'plan.dwg',
        attempt: 1,
        queuedMs: 600,
      },
      {
        msg: 'job succeeded',
        jobId: 'j1',
        userId: 'u1',
        fileName: 'plan.dwg',
        runMs: 3_000,
        totalMs: 4_000,
      },
      // Not seen starting in this process (failed at a restart): no run time.
      {
        msg: 'job failed',
        jobId: 'j2',
        userId: 'u1',
        fileName: 'plan.dwg',
        totalMs: 4_000,
        error: 'No.',
      },
    ])
    expect(lines.every((line) => line.level === 'info' && typeof line.time === 'string')).toBe(true)
  })
})

describe('the job log of a real store and runner', () => {
  let dataDir: string
  let store: JobStore

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'boq-jobs-log-'))
    store = await openEmbeddedJobStore({
      dataDir,
      tokenKey: TEST_TOKEN_KEY,
      log: () => {},
      onChange: createJobLog(logger),
    })
  })
  afterEach(async () => {
    await store.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('follows each job from queued to succeeded or failed, and the runner keeps its own log', async () => {
    const fake = createFakeCloud()
    fake.folders.add('p1/f1')
    fake.addDrawing('good', new TextEncoder().encode('drawing'))
    fake.addDrawing('bad', new TextEncoder().encode('THROW'))
    const engine = createFakeExtractor()
    const troubles: string[] = []
    const runner = startJobRunner({
      store,
      cloud: fake.cloud,
      extractor: engine.extractor,
      concurrency: 1,
      maxFileBytes: 1024,
      log: (message) => troubles.push(message),
    })
    try {
      const submit = async (storageId: string, fileName: string) =>
        (
          await store.submit(
            {
              fileName,
              projectId: 'p1',
              fileFolderId: 'f1',
              fileStorageId: storageId,
              context: contextFor('ann'),
            },
            { maxActivePerUser: 5 },
          )
        ).job
      const good = await submit('good', 'good.dwg')
      const bad = await submit('bad', 'bad.dwg')
      await waitFor(async () => (await store.get(bad.id))?.status === 'failed', 'the bad job')
      await waitFor(async () => (await store.get(good.id))?.status === 'succeeded', 'the good job')
      const byJob = (id: string) => lines.filter((l) => l.jobId === id).map((l) => l.msg)
      expect(byJob(good.id)).toEqual(['job queued', 'job running', 'job succeeded'])
      expect(byJob(bad.id)).toEqual(['job queued', 'job running', 'job failed'])
      expect(lines.every((line) => line.userId === 'ann')).toBe(true)
      const succeeded = lines.find((l) => l.jobId === good.id && l.msg === 'job succeeded')
      expect(succeeded).toMatchObject({ fileName: 'good.dwg', runMs: expect.any(Number) })
      expect(lines.find((l) => l.msg === 'job failed')).toMatchObject({
        fileName: 'bad.dwg',
        error: 'The extraction failed unexpectedly.',
      })
      expect(troubles.join('\n')).toMatch(/failed while in extract/)
    } finally {
      await runner.close()
    }
  })
})
