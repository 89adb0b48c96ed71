/**
 * The change bill between two finished jobs, from the bills they kept (no drawing read again):
 * two bills of 10,000 lines each (4,000 counts, 3,000 linework and 3,000 area lines, each with
 * its breakdown and entity handles), kept by the embedded job store as a job keeps them, and
 * GET /api/boq/compare over real HTTP on loopback (the jobs routes alone, the user by header).
 * Target: the answer in at most 200 ms.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { createBillPool } from '../server/jobs/bill-pool.ts'
import { openEmbeddedJobStore } from '../server/jobs/embedded-store.ts'
import { contextFor, createFakeCloud, TEST_TOKEN_KEY } from '../server/testing/jobs/fakes.ts'
import { jobsRoutesApp } from '../server/testing/jobs/routes-app.ts'
import { bigBill } from './support/big-bill.ts'
import { describeMs, median, versusTarget } from './support/stats.ts'

const LINES = 10_000
const RUNS = 15
const TARGET_MS = 200

const bill = (shift: number) => bigBill(LINES, shift)

const dataDir = await mkdtemp(join(tmpdir(), 'boq-bench-compare-'))
const store = await openEmbeddedJobStore({ dataDir, tokenKey: TEST_TOKEN_KEY, log: () => {} })
const cloud = createFakeCloud()
const ids: string[] = []
let bytes = 0
for (const [storageId, shift] of [
  ['v1', 0],
  ['v2', 2.5],
] as const) {
  const { job } = await store.submit(
    {
      fileName: 'plan.dwg',
      projectId: 'p1',
      fileFolderId: 'f1',
      fileStorageId: storageId,
      context: contextFor('ann'),
    },
    { maxActivePerUser: 10 },
  )
  await store.claim()
  const json = new TextEncoder().encode(JSON.stringify(bill(shift)))
  bytes = json.length
  await store.succeed(
    job.id,
    { fileName: 'plan BOQ.xlsx', itemId: 'i', versionNumber: 1, jsonKept: true },
    { xlsx: new Uint8Array(1), csv: new Uint8Array(1), json },
  )
  ids.push(job.id)
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
const url = `http://127.0.0.1:${port}/api/boq/compare?from=${ids[0]}&to=${ids[1]}`

try {
  const times: number[] = []
  let changed = 0
  for (let run = 0; run < RUNS + 2; run++) {
    const started = performance.now()
    const answer = await fetch(url, { headers: { 'x-user': 'ann' } })
    const body = (await answer.json()) as { lines: { state: string }[] }
    const ms = performance.now() - started
    if (!answer.ok) throw new Error(`compare answered ${answer.status}`)
    changed = body.lines.filter((line) => line.state === 'changed').length
    // The first two warm the code up, as a running server is.
    if (run >= 2) times.push(ms)
  }
  console.log(
    `Change bill of two bills of ${LINES.toLocaleString('en')} lines (${(bytes / 1e6).toFixed(1)} MB of JSON each), ${changed} lines changed:`,
  )
  console.log(`  GET /api/boq/compare over loopback: ${describeMs(times)}`)
  console.log(`  median ${versusTarget(median(times), TARGET_MS, ' ms')}`)
} finally {
  await new Promise((resolve) => server.close(resolve))
  await bills.close()
  await store.close()
  await rm(dataDir, { recursive: true, force: true })
}
