import { copyFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CloudList } from '#contract/cloud.ts'
import type { Job } from '#contract/jobs.ts'
import {
  AssembledBillSchema,
  BillIssueSchema,
  IssueDetailSchema,
  IssuedBillSchema,
  ProjectBillSchema,
  ProjectChangeBillSchema,
} from '#contract/project-bills.ts'
import { CONTENT_TYPES } from '../jobs/content-types.ts'
import { openEmbeddedRulesStore } from '../rules/store/embedded-store.ts'
import { fixture, fixturePath } from '../testing/boq/fixtures.ts'
import { signIn, type TestClient } from '../testing/client.ts'
import { type DrawingRef, findDrawing, makeSeedDir } from '../testing/jobs/drawings.ts'
import { postExtract, waitForJob } from '../testing/jobs/jobs-api.ts'
import { startTestServer, type TestServer } from '../testing/start-test-server.ts'

// The real server and engine over loopback. One folder holds plan.dwg and side.dwg, both
// 2004_HatchG.dwg (in feet) at first; plan.dwg's version 2 is 2000_TS1.dwg (also in feet), whose
// linework on layer 0 grows.

let server: TestServer
let seedDir: string
let client: TestClient
let plan: DrawingRef
let side: DrawingRef
let bills: string

const rules = [
  { match: 'length', code: 'B.10', description: 'Linework', rate: 2 },
  { match: 'area', ignore: true },
  { match: 'count', code: 'D.10', description: 'Placed blocks', rate: 2.5 },
]

async function extract(ref: DrawingRef, storageId = ref.storageId): Promise<Job> {
  const posted = await postExtract(client, {
    fileName: ref.fileName,
    fileStorageId: storageId,
    fileFolderId: ref.folderId,
    projectId: ref.projectId,
  })
  expect(posted.status).toBe(202)
  const job = await waitForJob(client, ((await posted.json()) as Job).id, { timeoutMs: 90_000 })
  expect(job.status).toBe('succeeded')
  return job
}

function send(path: string, method: string, body: unknown): Promise<Response> {
  return client(path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

async function newBill(body: unknown) {
  const response = await send(bills, 'POST', body)
  expect(response.status).toBe(201)
  return v.parse(ProjectBillSchema, await response.json())
}

const contentsOf = (ref: DrawingRef) =>
  `/api/aps/hubs/${encodeURIComponent(ref.hubId)}/projects/${encodeURIComponent(ref.projectId)}/contents`

/** The project's rules saved as `rows` (its newest version, whatever it was). */
async function saveRules(rows: unknown[]): Promise<void> {
  const rulesPath = `/api/boq/projects/${encodeURIComponent(plan.projectId)}/rules`
  const current = await client(rulesPath)
  await current.body?.cancel()
  const saved = await client(rulesPath, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'if-match': current.headers.get('etag') ?? '' },
    body: JSON.stringify({ rules: rows }),
  })
  expect(saved.status).toBe(200)
  await saved.body?.cancel()
}

const assembled = async (id: string) =>
  v.parse(AssembledBillSchema, await client.json(`${bills}/${id}`))

beforeAll(async () => {
  seedDir = await makeSeedDir([])
  await copyFile(fixturePath('2004_HatchG.dwg'), join(seedDir, 'plan.dwg'))
  await copyFile(fixturePath('2004_HatchG.dwg'), join(seedDir, 'side.dwg'))
  server = await startTestServer({ seed: seedDir })
  client = await signIn(server.url)
  plan = await findDrawing(client.json, 'plan.dwg')
  side = await findDrawing(client.json, 'side.dwg')
  bills = `/api/boq/projects/${encodeURIComponent(plan.projectId)}/bills`
  await saveRules(rules)
}, 60_000)

afterAll(async () => {
  await server?.close()
  await rm(seedDir, { recursive: true, force: true })
})

describe('a project bill over HTTP', () => {
  it('is made over a folder, states each drawing, sums items by drawing, issues and compares', async () => {
    const planV1 = await extract(plan)
    const bill = await newBill({ name: 'Plans', folderIds: [plan.folderId] })
    expect(bill).toMatchObject({ name: 'Plans', folderIds: [plan.folderId], itemIds: [] })
    expect(await client.json(bills)).toEqual([bill])

    // One drawing billed, the other with no bill yet.
    const first = await assembled(bill.id)
    const stateOf = (answer: typeof first, name: string) =>
      answer.drawings.find((drawing) => drawing.fileName === name)
    expect(stateOf(first, 'plan.dwg')).toMatchObject({
      itemId: plan.itemId,
      state: 'billed',
      versionNumber: 1,
      jobId: planV1.id,
    })
    expect(stateOf(first, 'side.dwg')).toMatchObject({
      itemId: side.itemId,
      state: 'no-bill',
      versionNumber: null,
      jobId: null,
    })
    const lineworkOf = (answer: typeof first) =>
      answer.priced.items.find((item) => item.code === 'B.10')
    const alone = lineworkOf(first)
    expect(alone?.byDrawing).toEqual([
      expect.objectContaining({ itemId: plan.itemId, fileName: 'plan.dwg', versionNumber: 1 }),
    ])
    expect(first.priced.units).toEqual({ length: 'ft', area: 'ft²' })

    // Both billed: the same item summed over both, each drawing's share said.
    const sideV1 = await extract(side)
    const both = await assembled(bill.id)
    expect(stateOf(both, 'side.dwg')).toMatchObject({ state: 'billed', jobId: sideV1.id })
    const summed = lineworkOf(both)
    expect(summed?.byDrawing.map((share) => share.fileName).sort()).toEqual([
      'plan.dwg',
      'side.dwg',
    ])
    expect(summed?.quantity).toBeCloseTo(2 * (alone?.quantity ?? 0), 6)
    expect(summed?.amount).toBeCloseTo(2 * (alone?.amount ?? 0), 6)
    // The measured lines likewise: each line of both drawings summed, each drawing's share said.
    const measuredAlone = first.measured.find((line) => line.kind === 'length')
    const measuredBoth = both.measured.find(
      (line) => line.kind === 'length' && line.description === measuredAlone?.description,
    )
    expect(measuredAlone?.byDrawing.map((share) => share.itemId)).toEqual([plan.itemId])
    expect(measuredBoth?.byDrawing.map((share) => share.itemId).sort()).toEqual(
      [plan.itemId, side.itemId].sort(),
    )
    expect(measuredBoth?.quantity).toBeCloseTo(2 * (measuredAlone?.quantity ?? 0), 5)
    expect(both.priced.total).toBeCloseTo(
      both.priced.items.reduce((sum, item) => sum + (item.amount ?? 0), 0),
      6,
    )

    const issued = await send(`${bills}/${bill.id}/issues`, 'POST', { name: 'Tender' })
    expect(issued.status).toBe(201)
    const tender = v.parse(BillIssueSchema, await issued.json())
    expect(tender).toMatchObject({ number: 1, name: 'Tender' })
    expect(
      tender.versions.map((one) => [one.fileName, one.versionNumber, one.jobId]).sort(),
    ).toEqual([
      ['plan.dwg', 1, planV1.id],
      ['side.dwg', 1, sideV1.id],
    ])

    // A new version of plan.dwg: said not billed yet, then billed once extracted.
    const form = new FormData()
    form.set('projectId', plan.projectId)
    form.set('folderId', plan.folderId)
    form.set('itemId', plan.itemId)
    form.set('file', new Blob([fixture('2000_TS1.dwg') as BlobPart]), 'plan.dwg')
    const uploaded = await client('/api/local/upload', { method: 'POST', body: form })
    expect(uploaded.status).toBe(201)
    await uploaded.body?.cancel()
    expect(stateOf(await assembled(bill.id), 'plan.dwg')).toMatchObject({
      state: 'newer-version',
      versionNumber: 1,
      newestVersionNumber: 2,
    })
    const contents = `/api/aps/hubs/${encodeURIComponent(plan.hubId)}/projects/${encodeURIComponent(plan.projectId)}/contents`
    const versions = await client.json<CloudList>(
      `${contents}/${encodeURIComponent(plan.itemId)}/versions`,
    )
    const planV2 = await extract(plan, versions[0]?.relationships?.storage?.data?.id ?? '')
    const now = await assembled(bill.id)
    expect(stateOf(now, 'plan.dwg')).toMatchObject({
      state: 'billed',
      versionNumber: 2,
      jobId: planV2.id,
    })

    const compared = v.parse(
      ProjectChangeBillSchema,
      await client.json(`${bills}/${bill.id}/compare?from=1&to=current`),
    )
    expect(compared.from).toMatchObject({ number: 1, name: 'Tender' })
    expect(compared.to).toMatchObject({ number: null })
    const linework = compared.items.find((item) => item.code === 'B.10')
    expect(linework?.change.quantity).not.toBe(0)
    expect(linework?.after.quantity).toBeCloseTo(lineworkOf(now)?.quantity ?? 0, 6)
    // Only plan.dwg moved it, from version 1 to 2.
    expect(linework?.drivenBy).toEqual([
      expect.objectContaining({
        itemId: plan.itemId,
        fileName: 'plan.dwg',
        fromVersion: 1,
        toVersion: 2,
        quantity: linework?.change.quantity,
      }),
    ])
    expect(compared.total.change).toBeCloseTo(now.priced.total - both.priced.total, 6)
    expect((await client.json<unknown[]>(`${bills}/${bill.id}/issues`)).length).toBe(1)
  }, 300_000)

  it('downloads the bill, its issues as they were issued and its comparisons; writes each issue back', async () => {
    const bill = await newBill({ name: 'Downloads', folderIds: [plan.folderId] })
    const path = `${bills}/${bill.id}`
    const now = await assembled(bill.id)
    const xlsx = await client(`${path}?format=xlsx`)
    expect(xlsx.status).toBe(200)
    expect(xlsx.headers.get('content-type')).toBe(CONTENT_TYPES.xlsx)
    expect(xlsx.headers.get('content-disposition')).toContain('filename="Downloads BOQ.xlsx"')
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(await xlsx.arrayBuffer())
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual([
      'Summary',
      'Measured',
      'plan',
      'side',
    ])
    const csv = await client(`${path}?format=csv`)
    expect(csv.headers.get('content-type')).toBe(CONTENT_TYPES.csv)
    const total = (await csv.text()).split('\n').find((line) => line.startsWith('Total,'))
    expect(Number(total?.split(',').at(-1))).toBeCloseTo(now.priced.total, 6)

    // Issued: its workbook written into the bill's folder, a new version each issue.
    const issue = async (name: string) => {
      const response = await send(`${path}/issues`, 'POST', { name })
      expect(response.status).toBe(201)
      return v.parse(IssuedBillSchema, await response.json())
    }
    const tender = await issue('Tender')
    expect(tender.written).toMatchObject({ fileName: 'Downloads BOQ.xlsx', versionNumber: 1 })
    const listing = await client.json<CloudList>(
      `${contentsOf(plan)}?folder_id=${encodeURIComponent(plan.folderId)}`,
    )
    expect(listing.map((entry) => entry.attributes?.displayName)).toContain('Downloads BOQ.xlsx')
    const issuedXlsx = await client(`${path}/issues/1?format=xlsx`)
    expect(issuedXlsx.headers.get('content-disposition')).toContain(
      'filename="Downloads issue 1 BOQ.xlsx"',
    )
    const keptBytes = new Uint8Array(await issuedXlsx.arrayBuffer())
    const detail = v.parse(IssueDetailSchema, await client.json(`${path}/issues/1`))
    expect(detail).toMatchObject({ number: 1, name: 'Tender', priced: now.priced })

    // The rules change: the bill now is priced anew, the issue stays as it was issued.
    await saveRules(
      rules.map((rule) => ('rate' in rule ? { ...rule, rate: 2 * (rule.rate ?? 0) } : rule)),
    )
    try {
      const repriced = await assembled(bill.id)
      expect(repriced.priced.total).toBeCloseTo(2 * now.priced.total, 6)
      const again = new Uint8Array(
        await (await client(`${path}/issues/1?format=xlsx`)).arrayBuffer(),
      )
      expect(Buffer.from(again).equals(Buffer.from(keptBytes))).toBe(true)
      const issuedCsv = await (await client(`${path}/issues/1?format=csv`)).text()
      const issuedTotal = issuedCsv.split('\n').find((line) => line.startsWith('Total,'))
      expect(Number(issuedTotal?.split(',').at(-1))).toBeCloseTo(now.priced.total, 6)
      const revision = await issue('Revision B')
      expect(revision).toMatchObject({ number: 2, written: { versionNumber: 2 } })

      const changes = await client(`${path}/compare?from=1&to=2&format=csv`)
      expect(changes.headers.get('content-disposition')).toContain(
        'filename="Downloads changes 1 to 2 BOQ.csv"',
      )
      const lines = (await changes.text()).split('\n')
      const change = Number(lines.find((line) => line.startsWith('Total,'))?.split(',')[9])
      expect(change).toBeCloseTo(now.priced.total, 6)
      const changesXlsx = await client(`${path}/compare?from=1&format=xlsx`)
      const changeBook = new ExcelJS.Workbook()
      await changeBook.xlsx.load(await changesXlsx.arrayBuffer())
      expect(changeBook.worksheets.map((sheet) => sheet.name)).toEqual(['Changes'])
    } finally {
      await saveRules(rules)
    }

    for (const [url, status, said] of [
      [`${path}?format=pdf`, 400, 'format must be json, xlsx or csv.'],
      [`${path}/issues/one`, 400, 'number must be an issue number (1, 2, …).'],
      [`${path}/issues/9?format=xlsx`, 404, 'This bill has no issue 9.'],
      [`${path}/issues/9`, 404, 'This bill has no issue 9.'],
      [`${path}/compare?from=1&format=doc`, 400, 'format must be json, xlsx or csv.'],
    ] as const) {
      const response = await client(url)
      expect(response.status).toBe(status)
      expect(await response.text()).toBe(said)
    }
  }, 300_000)

  it('gives two issues made at once two numbers, 1 and 2', async () => {
    const bill = await newBill({ name: 'Side only', itemIds: [side.itemId] })
    const [a, b] = await Promise.all([
      send(`${bills}/${bill.id}/issues`, 'POST', { name: 'A' }),
      send(`${bills}/${bill.id}/issues`, 'POST', { name: 'B' }),
    ])
    expect([a.status, b.status]).toEqual([201, 201])
    const numbers = [(await a.json()).number, (await b.json()).number].sort()
    expect(numbers).toEqual([1, 2])
    const listed = await client.json<{ number: number }[]>(`${bills}/${bill.id}/issues`)
    expect(listed.map((issue) => issue.number)).toEqual([1, 2])
  }, 60_000)

  it('changes and deletes a bill; a wrong id is a 404', async () => {
    const bill = await newBill({ name: 'Draft', itemIds: [side.itemId] })
    const patched = await send(`${bills}/${bill.id}`, 'PATCH', { name: 'Revision B' })
    expect(patched.status).toBe(200)
    expect(await patched.json()).toEqual({ ...bill, name: 'Revision B' })
    const unknown = `${bills}/00000000-0000-4000-8000-000000000000`
    for (const response of [
      await client(unknown),
      await send(unknown, 'PATCH', { name: 'x' }),
      await send(`${unknown}/issues`, 'POST', { name: 'x' }),
      await client(`${bills}/${bill.id}/compare?from=7&to=current`),
    ]) {
      expect(response.status).toBe(404)
      expect(await response.text()).toMatch(/no such project bill|no issue 7/)
    }
    expect((await client(`${bills}/${bill.id}`, { method: 'DELETE' })).status).toBe(204)
    expect((await client(`${bills}/${bill.id}`)).status).toBe(404)
  }, 60_000)

  it('makes nothing over a folder or item the person cannot see, nor from a bad body', async () => {
    const before = await client.json<unknown[]>(bills)
    for (const body of [
      { name: 'Nowhere', folderIds: ['no-such-folder'] },
      { name: 'Nowhere', itemIds: ['no-such-item'] },
    ]) {
      const response = await send(bills, 'POST', body)
      expect(response.status).toBe(404)
      await response.body?.cancel()
    }
    for (const body of [
      { name: '', folderIds: [plan.folderId] },
      { name: 'No sources' },
      { name: 'x', extra: 1 },
    ]) {
      const response = await send(bills, 'POST', body)
      expect(response.status).toBe(400)
      expect(await response.text()).not.toBe('')
    }
    const elsewhere = await send('/api/boq/projects/no-such-project/bills', 'POST', {
      name: 'x',
      folderIds: [plan.folderId],
    })
    expect(elsewhere.status).toBe(404)
    await elsewhere.body?.cancel()
    expect(await client.json<unknown[]>(bills)).toEqual(before)
  }, 60_000)

  it('stays measured when the saved rules no longer check, and says so with each drawing', async () => {
    const bill = await newBill({ name: 'Measured', folderIds: [plan.folderId] })
    const priced = await assembled(bill.id)
    expect(priced.priced.items.length).toBeGreaterThan(0)
    // Rules a save once let through that the engine refuses now (written past the route's check).
    const store = openEmbeddedRulesStore({ dataDir: server.dataDir, log: () => {} })
    const current = await store.rules(plan.projectId, 'rules')
    const broken = [{ match: 'length', code: 'B.10', quantity: 'length *' }] as const
    await store.saveRules(plan.projectId, 'rules', current?.version ?? 0, [...broken], 'Ann')
    try {
      const measured = await assembled(bill.id)
      expect(measured.drawings.map((one) => one.state)).toEqual(['billed', 'billed'])
      expect(measured.priced.items).toEqual([])
      expect(measured.measured).toEqual(priced.measured)
      expect(measured.warnings).toEqual(
        expect.arrayContaining(
          ['plan.dwg', 'side.dwg'].map((fileName) =>
            expect.objectContaining({
              fileName,
              warning: expect.stringMatching(
                /^Not priced: the project’s rules no longer check \(row 1: formula 'length \*'/,
              ),
            }),
          ),
        ),
      )
      const book = new ExcelJS.Workbook()
      await book.xlsx.load(await (await client(`${bills}/${bill.id}?format=xlsx`)).arrayBuffer())
      expect(book.worksheets.map((sheet) => sheet.name)).toEqual(['Summary', 'Measured'])
    } finally {
      await saveRules(rules)
    }
    expect((await assembled(bill.id)).priced).toEqual(priced.priced)
  }, 120_000)
})
