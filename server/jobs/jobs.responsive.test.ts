import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Job } from '#contract/jobs.ts'
import { signIn } from '../testing/client.ts'
import { answerSummary, timeAnswers } from '../testing/jobs/answer-times.ts'
import { blockCountsFromXlsx } from '../testing/jobs/boq-counts.ts'
import { findDrawing, makeSeedDir } from '../testing/jobs/drawings.ts'
import { extractBody, postExtract, waitForJob } from '../testing/jobs/jobs-api.ts'
import { dropNestedDrawing } from '../testing/jobs/nested-drawing.ts'
import { startTestServer, type TestServer } from '../testing/start-test-server.ts'

// The real server on loopback with the real engine: while a job reads a drawing of a million
// nested references, the server keeps answering other requests. Answer times are printed, not
// asserted (the machine is shared and noisy); bench/jobs.bench.ts holds them to a target.

let server: TestServer
let seedDir: string

beforeAll(async () => {
  seedDir = await makeSeedDir([])
  const dataDir = await mkdtemp(join(tmpdir(), 'boq-jobs-responsive-'))
  server = await startTestServer({ dataDir, seed: seedDir })
  await dropNestedDrawing(dataDir)
}, 60_000)

afterAll(async () => {
  await server?.close()
  await rm(server?.dataDir ?? '', { recursive: true, force: true })
  await rm(seedDir, { recursive: true, force: true })
})

/** The bill's quantity of a block, from the CSV (Bill rows: Section, Item, Description, Quantity). */
function billQuantity(csv: string, description: string): number | undefined {
  const row = csv
    .split(/\r?\n/)
    .map((line) => line.split(','))
    .find((cells) => cells[0] === 'Bill' && cells[2] === description)
  return row ? Number(row[3]) : undefined
}

describe('the server while a job runs', () => {
  it('answers profile requests while it extracts a drawing of a million nested references', async () => {
    const client = await signIn(server.url)
    const drawing = await findDrawing(client.json, 'nested.dwg')
    const response = await postExtract(client, extractBody(drawing))
    expect(response.status).toBe(202)
    const { id } = (await response.json()) as Job

    let finished = false
    const job = waitForJob(client, id).finally(() => {
      finished = true
    })
    const times = await timeAnswers(client, '/api/aps/auth/profile', {
      max: 200,
      done: () => finished,
    })
    const done = await job
    expect(done.status, done.error).toBe('succeeded')

    // Seven levels of ten: the deepest block is placed a million times, in the bill and the sheet.
    const csv = await (await client(done.result?.csvUrl ?? '')).text()
    expect(billQuantity(csv, 'L6')).toBe(1_000_000)
    expect(billQuantity(csv, 'L1')).toBe(10)
    const xlsx = await client(done.result?.xlsxUrl ?? '')
    const counts = await blockCountsFromXlsx(new Uint8Array(await xlsx.arrayBuffer()))
    expect(counts.get('L6')).toBe(1_000_000)

    expect(times.length).toBeGreaterThan(0)
    const { count, max, p95 } = answerSummary(times)
    console.log(
      `GET /api/aps/auth/profile while extracting nested.dwg: ${count} answers, max ${max.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (printed, not asserted)`,
    )
  })
})
