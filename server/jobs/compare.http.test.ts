import { copyFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Boq } from '#contract/boq.ts'
import type { CloudList } from '#contract/cloud.ts'
import { ChangeBillSchema } from '#contract/compare.ts'
import type { Job } from '#contract/jobs.ts'
import { fixture, fixturePath } from '../testing/boq/fixtures.ts'
import { signIn, type TestClient } from '../testing/client.ts'
import { type DrawingRef, findDrawing, makeSeedDir } from '../testing/jobs/drawings.ts'
import { postExtract, waitForJob } from '../testing/jobs/jobs-api.ts'
import { startTestServer, type TestServer } from '../testing/start-test-server.ts'

// The real server and engine: version 1 of plan.dwg is 2004_HatchG.dwg, version 2 (uploaded as its
// next version) is 2000_TS1.dwg. Both are in feet; layer 0's linework grows, a block is added.

let server: TestServer
let seedDir: string
let client: TestClient
let drawing: DrawingRef
let v1: Job
let v2: Job

async function extract(storageId: string): Promise<Job> {
  const posted = await postExtract(client, {
    fileName: 'plan.dwg',
    fileStorageId: storageId,
    fileFolderId: drawing.folderId,
    projectId: drawing.projectId,
  })
  expect(posted.status).toBe(202)
  return waitForJob(client, ((await posted.json()) as Job).id)
}

beforeAll(async () => {
  seedDir = await makeSeedDir([])
  await copyFile(fixturePath('2004_HatchG.dwg'), join(seedDir, 'plan.dwg'))
  server = await startTestServer({ seed: seedDir })
  client = await signIn(server.url)
  drawing = await findDrawing(client.json, 'plan.dwg')
  v1 = await extract(drawing.storageId)

  const form = new FormData()
  form.set('projectId', drawing.projectId)
  form.set('folderId', drawing.folderId)
  form.set('itemId', drawing.itemId)
  form.set('file', new Blob([fixture('2000_TS1.dwg') as BlobPart]), 'plan.dwg')
  const uploaded = await client('/api/local/upload', { method: 'POST', body: form })
  expect(uploaded.status).toBe(201)
  const contents = `/api/aps/hubs/${encodeURIComponent(drawing.hubId)}/projects/${encodeURIComponent(drawing.projectId)}/contents`
  const versions = await client.json<CloudList>(
    `${contents}/${encodeURIComponent(drawing.itemId)}/versions`,
  )
  const newest = versions[0]?.relationships?.storage?.data?.id
  if (!newest) throw new Error('no storage id for version 2')
  v2 = await extract(newest)
}, 120_000)

afterAll(async () => {
  await server?.close()
  await rm(seedDir, { recursive: true, force: true })
})

describe('the change bill between two versions', () => {
  it('gives version 2 a Changes sheet against version 1, and says so', async () => {
    expect(v1).toMatchObject({ status: 'succeeded', fileVersionNumber: 1 })
    expect(v1.result?.comparedWith).toBeNull()
    expect(v2).toMatchObject({ status: 'succeeded', fileVersionNumber: 2 })
    expect(v2.result?.comparedWith).toEqual({
      jobId: v1.id,
      fileName: 'plan.dwg',
      versionNumber: 1,
    })

    const xlsx = await client(v2.result?.xlsxUrl ?? '')
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(await xlsx.arrayBuffer())
    expect(book.worksheets.map((sheet) => sheet.name).slice(0, 2)).toEqual(['Bill', 'Changes'])
    const rows = book.getWorksheet('Changes')?.getSheetValues() ?? []
    const layer0 = rows.find((row) => Array.isArray(row) && row[2] === 'Polylines on layer 0')
    expect(layer0).toBeDefined()
    const [before, after, change] = (layer0 as unknown[]).slice(3, 6) as number[]
    expect(before).toBeCloseTo(4.432, 3)
    expect(after).toBeCloseTo(1.201, 3)
    expect(change).toBeCloseTo(after - before, 9)

    // The first version's workbook has no Changes sheet.
    const first = new ExcelJS.Workbook()
    await first.xlsx.load(await (await client(v1.result?.xlsxUrl ?? '')).arrayBuffer())
    expect(first.worksheets.map((sheet) => sheet.name)).not.toContain('Changes')
  })

  it('answers the change bill of the two jobs over HTTP', async () => {
    const answer = await client(`/api/boq/compare?from=${v1.id}&to=${v2.id}`)
    expect(answer.status).toBe(200)
    const changes = v.parse(ChangeBillSchema, await answer.json())
    expect(changes.from).toEqual({ jobId: v1.id, fileName: 'plan.dwg', versionNumber: 1 })
    expect(changes.units).toEqual({ length: 'ft', area: 'ft²' })
    const line = (description: string) => changes.lines.find((l) => l.description === description)
    expect(line('Polylines on layer 0')).toMatchObject({ state: 'changed', unit: 'ft' })
    expect(line('Splines on layer 0')).toMatchObject({ before: 0, state: 'added', unit: 'ft' })
    expect(line('some block')).toMatchObject({ before: 0, after: 1, state: 'added' })
    expect(line('Area on layer 0')?.state).toBe('changed')
    // The entities only one drawing counts or measures: handles of each bill's own breakdown.
    const named = async (job: Job) => {
      const bill = (await (await client(job.result?.jsonUrl ?? '')).json()) as Boq
      return new Set(bill.bill.flatMap((l) => l.breakdown.flatMap((row) => row.handles)))
    }
    const [older, newer] = [await named(v1), await named(v2)]
    expect(changes.entities.added.length).toBeGreaterThan(0)
    expect(changes.entities.added.every((h) => newer.has(h) && !older.has(h))).toBe(true)
    expect(changes.entities.removed.every((h) => older.has(h) && !newer.has(h))).toBe(true)
    const csv = await (await client(`/api/boq/compare?from=${v1.id}&to=${v2.id}&format=csv`)).text()
    expect(csv).toContain('Splines on layer 0')
  })
})
