import { rm } from 'node:fs/promises'
import ExcelJS from 'exceljs'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Boq, BoqSchema } from '#contract/boq.ts'
import type { CloudList } from '#contract/cloud.ts'
import { ChangeBillSchema } from '#contract/compare.ts'
import { type Job, JobSchema } from '#contract/jobs.ts'
import { PricedJobSchema, RulesDocumentSchema } from '#contract/takeoff-rules-api.ts'
import { signIn, type TestClient } from '../testing/client.ts'
import { type DrawingRef, findDrawing, makeSeedDir } from '../testing/jobs/drawings.ts'
import { extractBody, postExtract, waitForJob } from '../testing/jobs/jobs-api.ts'
import { startTestServer, type TestServer } from '../testing/start-test-server.ts'

// The real server and engine over loopback: 2018_Dynblocks.dwg extracted while the project's
// rules are version 1 (placed blocks at 2.25), then again once they are version 2 (at 3.75). The
// first job's bill of record stays version 1's, everywhere, until it is re-priced.

const V1_RATE = 2.25
const V2_RATE = 3.75

let server: TestServer
let seedDir: string
let client: TestClient
let drawing: DrawingRef
let rulesPath: string
/** Extracted with rules version 1. */
let first: Job
/** Extracted with rules version 2. */
let second: Job

const blocks = (rate: number) => [
  { match: 'count', block: '*', code: 'D.10', description: 'Placed blocks', unit: 'nr', rate },
]

async function saveRules(rate: number, ifMatch: number): Promise<void> {
  const response = await client(rulesPath, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'if-match': String(ifMatch) },
    body: JSON.stringify({ rules: blocks(rate) }),
  })
  expect(response.status).toBe(200)
  expect(v.parse(RulesDocumentSchema, await response.json()).version).toBe(ifMatch + 1)
}

async function extract(): Promise<Job> {
  const posted = await postExtract(client, extractBody(drawing))
  expect(posted.status).toBe(202)
  const job = await waitForJob(client, ((await posted.json()) as Job).id, { timeoutMs: 90_000 })
  expect(job.status).toBe('succeeded')
  return job
}

const jobNow = async (job: Job) => v.parse(JobSchema, await client.json(`/api/boq/jobs/${job.id}`))

const keptBill = async (job: Job): Promise<Boq> =>
  v.parse(BoqSchema, await client.json(job.result?.jsonUrl ?? ''))

/** The rates the downloaded workbook's priced bill holds. */
async function workbookRates(job: Job): Promise<number[]> {
  const response = await client(job.result?.xlsxUrl ?? '')
  expect(response.status).toBe(200)
  const book = new ExcelJS.Workbook()
  await book.xlsx.load(await response.arrayBuffer())
  const sheet = book.getWorksheet('Priced bill')
  if (!sheet) throw new Error('The workbook has no priced bill.')
  const numbers: number[] = []
  sheet.eachRow((row) =>
    row.eachCell((cell) => {
      if (typeof cell.value === 'number') numbers.push(cell.value)
    }),
  )
  return [V1_RATE, V2_RATE].filter((rate) => numbers.includes(rate))
}

/** The change bill's item totals, before and after. */
async function comparedTotals(from: Job, to: Job) {
  const changes = v.parse(
    ChangeBillSchema,
    await client.json(`/api/boq/compare?from=${from.id}&to=${to.id}`),
  )
  return changes.total
}

async function workbookVersions(): Promise<number> {
  const contents = `/api/aps/hubs/${encodeURIComponent(drawing.hubId)}/projects/${encodeURIComponent(drawing.projectId)}/contents`
  const itemId = first.result?.itemId ?? ''
  const versions = await client.json<CloudList>(
    `${contents}/${encodeURIComponent(itemId)}/versions`,
  )
  return versions.length
}

beforeAll(async () => {
  seedDir = await makeSeedDir(['2018_Dynblocks.dwg'])
  server = await startTestServer({ seed: seedDir })
  client = await signIn(server.url)
  drawing = await findDrawing(client.json, '2018_Dynblocks.dwg')
  rulesPath = `/api/boq/projects/${encodeURIComponent(drawing.projectId)}/rules`
  await saveRules(V1_RATE, 0)
  first = await extract()
  await saveRules(V2_RATE, 1)
  second = await extract()
}, 200_000)

afterAll(async () => {
  await server?.close()
  await rm(server?.dataDir ?? '', { recursive: true, force: true })
  await rm(seedDir, { recursive: true, force: true })
})

describe('one bill of record per job', { timeout: 60_000 }, () => {
  it('is the bill priced at extraction, named by its versions, until it is re-priced', async () => {
    expect(first.pricedWith).toEqual({
      rulesVersion: 1,
      classificationVersion: 0,
      settingsVersion: 0,
    })
    expect(second.pricedWith).toEqual({
      rulesVersion: 2,
      classificationVersion: 0,
      settingsVersion: 0,
    })
    const placed = (await keptBill(first)).priced?.items[0]?.quantity ?? 0
    expect(placed).toBeGreaterThan(0)

    // The rules changed since: the first job still answers version 1's bill in every form.
    expect((await keptBill(first)).priced?.total).toBeCloseTo(placed * V1_RATE, 2)
    expect(await workbookRates(first)).toEqual([V1_RATE])
    expect(await comparedTotals(first, second)).toMatchObject({
      before: expect.closeTo(placed * V1_RATE, 2),
      after: expect.closeTo(placed * V2_RATE, 2),
    })
    // A preview prices with today's rules and keeps nothing.
    const preview = await client(`/api/boq/jobs/${first.id}/price`, { method: 'POST' })
    expect(v.parse(PricedJobSchema, await preview.json()).rulesVersion).toBe(2)
    expect((await jobNow(first)).pricedWith).toEqual({
      rulesVersion: 1,
      classificationVersion: 0,
      settingsVersion: 0,
    })
    expect(await workbookRates(first)).toEqual([V1_RATE])

    // Re-priced and written back: version 2's bill everywhere, and a new workbook in the cloud.
    const before = await workbookVersions()
    const response = await client(`/api/boq/jobs/${first.id}/reprice`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ writeBack: true }),
    })
    expect(response.status).toBe(200)
    const answer = (await response.json()) as { written: { versionNumber: number } }
    expect(answer.written.versionNumber).toBe(before + 1)
    expect(await workbookVersions()).toBe(before + 1)

    const repriced = await jobNow(first)
    expect(repriced.pricedWith).toEqual({
      rulesVersion: 2,
      classificationVersion: 0,
      settingsVersion: 0,
    })
    expect(repriced.result?.versionNumber).toBe(before + 1)
    expect((await keptBill(repriced)).priced?.total).toBeCloseTo(placed * V2_RATE, 2)
    // The measured bill is the drawing's: re-pricing leaves it as it was.
    expect((await keptBill(repriced)).bill).toEqual((await keptBill(second)).bill)
    expect(await workbookRates(repriced)).toEqual([V2_RATE])
    const csv = await (await client(repriced.result?.csvUrl ?? '')).text()
    expect(csv).toContain(String(V2_RATE))
    expect(csv).not.toContain(String(V1_RATE))
    expect(await comparedTotals(first, second)).toMatchObject({
      before: expect.closeTo(placed * V2_RATE, 2),
      after: expect.closeTo(placed * V2_RATE, 2),
    })
  })
})
