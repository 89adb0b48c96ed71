import { readdir, readFile, rm } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Boq } from '#contract/boq.ts'
import { type Job, JobSchema } from '#contract/jobs.ts'
import {
  ClassificationDocumentSchema,
  PricedJobSchema,
  RulesDocumentSchema,
  SavedVersionSchema,
} from '#contract/takeoff-rules-api.ts'
import type { TestClient } from '../testing/client.ts'
import { type DrawingRef, findDrawing, makeSeedDir } from '../testing/jobs/drawings.ts'
import { extractBody, postExtract, waitForJob } from '../testing/jobs/jobs-api.ts'
import { startSeveralUsersServer } from '../testing/jobs/several-users.ts'
import type { TestServer } from '../testing/start-test-server.ts'

// The real server over loopback, two users (Ann and Bob) who both see the demo project, and a
// job of 2018_Dynblocks.dwg extracted by Ann with the real engine.

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

let server: TestServer
let seedDir: string
let ann: TestClient
let bob: TestClient
let drawing: DrawingRef
let job: Job
let bill: Boq
let rulesPath: string
let classificationPath: string

const blocks = {
  match: 'count',
  block: '*',
  code: 'D.10',
  description: 'Placed blocks',
  unit: 'nr',
  rate: 2.5,
}
const linework = { match: 'length', ignore: true }

function put(client: TestClient, path: string, body: BodyInit, type: string, ifMatch?: string) {
  return client(path, {
    method: 'PUT',
    headers: { 'content-type': type, ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }) },
    body,
  })
}

const putJson = (client: TestClient, path: string, body: unknown, ifMatch?: string) =>
  put(client, path, JSON.stringify(body), 'application/json', ifMatch)

async function expectText(response: Response, status: number, text: RegExp): Promise<void> {
  const body = await response.text()
  expect({ status: response.status, body }).toEqual({ status, body: expect.stringMatching(text) })
}

/**
 * A PUT on a connection of its own: the server answers 413 before reading the whole body and
 * closes that connection, which must not be one fetch would use again.
 */
function putAlone(
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const cookie = [...ann.cookies].map(([k, value]) => `${k}=${value}`).join('; ')
  const xsrf = decodeURIComponent(ann.cookies.get('XSRF-TOKEN') ?? '')
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      new URL(path, server.url),
      { method: 'PUT', agent: false, headers: { ...headers, cookie, 'x-xsrf-token': xsrf } },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          text += chunk
        })
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }))
      },
    )
    // The server may close its end while the body is still going out.
    request.on('error', (error) => reject(error))
    request.end(body)
  })
}

async function xlsxOf(rows: (string | number)[][]): Promise<ArrayBuffer> {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('rules')
  for (const row of rows) sheet.addRow(row)
  return (await book.xlsx.writeBuffer()) as ArrayBuffer
}

beforeAll(async () => {
  seedDir = await makeSeedDir(['2018_Dynblocks.dwg'])
  const started = await startSeveralUsersServer('boq-rules-http-', seedDir)
  server = started.server
  ann = await started.signInAs(server.url, 'Ann')
  bob = await started.signInAs(server.url, 'Bob')
  drawing = await findDrawing(ann.json, '2018_Dynblocks.dwg')
  const project = encodeURIComponent(drawing.projectId)
  rulesPath = `/api/boq/projects/${project}/rules`
  classificationPath = `/api/boq/projects/${project}/classification`
  const posted = await postExtract(ann, extractBody(drawing))
  expect(posted.status).toBe(202)
  job = await waitForJob(ann, ((await posted.json()) as Job).id, { timeoutMs: 90_000 })
  expect(job.status).toBe('succeeded')
  bill = await ann.json<Boq>(job.result?.jsonUrl ?? '')
}, 120_000)

afterAll(async () => {
  await server?.close()
  await rm(server?.dataDir ?? '', { recursive: true, force: true })
  await rm(seedDir, { recursive: true, force: true })
})

describe('a project’s rules over HTTP', () => {
  it('answers version 0 with no rules before any save, and an empty history', async () => {
    const response = await ann(rulesPath)
    expect(response.status).toBe(200)
    expect(response.headers.get('etag')).toBe('"0"')
    expect(v.parse(RulesDocumentSchema, await response.json())).toEqual({
      version: 0,
      savedBy: null,
      savedAt: null,
      rules: [],
    })
    expect(await ann.json(`${rulesPath}/history`)).toEqual([])
    expect(await ann.json(classificationPath)).toEqual({
      version: 0,
      savedBy: null,
      savedAt: null,
      entries: [],
    })
  })

  it('saves JSON, CSV and XLSX in turn, each the next version, kept with who and when', async () => {
    const first = await putJson(ann, rulesPath, { rules: [blocks] }, '0')
    expect(first.status).toBe(200)
    expect(first.headers.get('etag')).toBe('"1"')
    expect(v.parse(RulesDocumentSchema, await first.json())).toMatchObject({
      version: 1,
      savedBy: 'Ann',
      rules: [blocks],
    })

    const csv = 'match,block,code,description,unit,rate\r\ncount,*,D.10,Placed blocks,nr,3\r\n'
    // A quoted ETag is taken as the bare number.
    const second = await put(bob, rulesPath, csv, 'text/csv', '"1"')
    expect(second.status).toBe(200)
    expect(await second.json()).toMatchObject({
      version: 2,
      savedBy: 'Bob',
      rules: [{ ...blocks, rate: 3 }],
    })

    const book = await xlsxOf([
      ['match', 'block', 'code', 'description', 'unit', 'rate', 'ignore'],
      ['count', '*', 'D.10', 'Placed blocks', 'nr', 2.5, ''],
      ['length', '', '', '', '', '', 'yes'],
    ])
    const third = await put(ann, rulesPath, book, XLSX, '2')
    expect(third.status).toBe(200)
    expect(await third.json()).toMatchObject({ version: 3, rules: [blocks, linework] })

    const history = v.parse(v.array(SavedVersionSchema), await ann.json(`${rulesPath}/history`))
    expect(history.map(({ version, savedBy, rows }) => ({ version, savedBy, rows }))).toEqual([
      { version: 3, savedBy: 'Ann', rows: 2 },
      { version: 2, savedBy: 'Bob', rows: 1 },
      { version: 1, savedBy: 'Ann', rows: 1 },
    ])
    for (const saved of history) expect(Number.isNaN(Date.parse(saved.savedAt))).toBe(false)
    expect(await bob.json(rulesPath)).toMatchObject({ version: 3, savedBy: 'Ann' })
  })

  it('refuses a stale If-Match with 412 saying who saved since, and none with 428', async () => {
    const current = v.parse(RulesDocumentSchema, await ann.json(rulesPath))
    await expectText(
      await putJson(bob, rulesPath, { rules: [] }, String(current.version - 1)),
      412,
      /^Saved by Ann at \d\d:\d\d UTC since you opened it: reload to see their rules\.$/,
    )
    await expectText(await putJson(bob, rulesPath, { rules: [] }), 428, /If-Match/)
    await expectText(await putJson(bob, rulesPath, { rules: [] }, 'abc'), 400, /If-Match/)
    expect(await ann.json(rulesPath)).toMatchObject({ version: current.version })
  })

  it('refuses a bad table with a 400 naming its row, and saves nothing', async () => {
    const before = v.parse(RulesDocumentSchema, await ann.json(rulesPath))
    const held = String(before.version)
    // Sent one after another: a person has two heavy requests at once at most (429 past them).
    const cases: [string, () => Promise<Response>, RegExp][] = [
      [
        'malformed CSV',
        () => put(ann, rulesPath, 'match,block\r\ncount,"Door\r\n', 'text/csv', held),
        /CSV cannot be read/,
      ],
      [
        'malformed XLSX',
        () => put(ann, rulesPath, new Uint8Array([80, 75, 3, 4, 1, 2, 3]), XLSX, held),
        /XLSX|workbook/,
      ],
      [
        'unknown column',
        () => put(ann, rulesPath, 'match,colour\r\ncount,red\r\n', 'text/csv', held),
        /^Row 1: unknown column 'colour'/,
      ],
      [
        'unknown match',
        () => putJson(ann, rulesPath, { rules: [blocks, { match: 'volume' }] }, held),
        /^Row 2: .*volume/,
      ],
      [
        'broken glob',
        () => putJson(ann, rulesPath, { rules: [{ ...blocks, block: 'Door\\' }] }, held),
        /^Row 1: /,
      ],
      [
        'broken formula',
        () =>
          putJson(ann, rulesPath, { rules: [blocks, { ...blocks, quantity: 'count *' }] }, held),
        /^Row 2: /,
      ],
      [
        'unknown variable',
        () =>
          put(
            ann,
            rulesPath,
            'match,layer,code,quantity\r\nlength,*,A,length\r\nlength,Walls,B,widht * 2\r\n',
            'text/csv',
            held,
          ),
        /^Row 3: .*widht/,
      ],
      ['not the JSON asked for', () => putJson(ann, rulesPath, { rows: [] }, held), /"rules"/],
      [
        'too many rows',
        () =>
          put(
            ann,
            rulesPath,
            `match,block,code\r\n${'count,*,A\r\n'.repeat(10_001)}`,
            'text/csv',
            held,
          ),
        /more than 10,000 rows; at most 10,000/,
      ],
    ]
    for (const [name, send, text] of cases) {
      const answer = await send()
      const body = await answer.text()
      expect({ name, status: answer.status, body }).toEqual({
        name,
        status: 400,
        body: expect.stringMatching(text),
      })
    }
    expect(await ann.json(rulesPath)).toEqual(before)
  })

  it('refuses a body over 1 MB with 413, another type with 415', async () => {
    const big = `match,description\r\n${'count,x\r\n'.repeat(130_000)}`
    const refused = await putAlone(rulesPath, big, { 'content-type': 'text/csv', 'if-match': '3' })
    expect(refused.status).toBe(413)
    expect(refused.text).toMatch(/larger than 1 MB/)
    await expectText(await put(ann, rulesPath, 'x', 'text/plain', '3'), 415, /text\/csv/)
  })

  it('refuses a save without the anti-forgery header (403)', async () => {
    const cookie = [...ann.cookies].map(([k, value]) => `${k}=${value}`).join('; ')
    const response = await fetch(new URL(rulesPath, server.url), {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json', 'if-match': '3' },
      body: JSON.stringify({ rules: [] }),
    })
    expect(response.status).toBe(403)
    await response.body?.cancel()
  })

  it('answers 404 for a project the user cannot see, reading or saving', async () => {
    const other = '/api/boq/projects/b.not-a-project/rules'
    await expectText(await ann(other), 404, /no such project/)
    await expectText(await ann(`${other}/history`), 404, /no such project/)
    await expectText(await putJson(ann, other, { rules: [] }, '0'), 404, /no such project/)
  })

  it('exports the table as CSV and XLSX that read back as the same rules', async () => {
    const saved = v.parse(RulesDocumentSchema, await ann.json(rulesPath))
    const csv = await ann(`${rulesPath}?format=csv`)
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/)
    expect(csv.headers.get('content-disposition')).toMatch(
      /^attachment; filename=".* rules v\d+\.csv"/,
    )
    const text = await csv.text()
    expect(text.split('\r\n')[0]).toBe(
      'match,block,layer,kind,attribute,visibility,zone,code,description,unit,quantity,rate,ignore',
    )
    const xlsx = await ann(`${rulesPath}?format=xlsx`)
    expect(xlsx.headers.get('content-type')).toBe(XLSX)
    const bytes = await xlsx.arrayBuffer()

    // Saved back, each gives the same rules.
    const fromCsv = await put(ann, rulesPath, text, 'text/csv', String(saved.version))
    expect(await fromCsv.json()).toMatchObject({ rules: saved.rules })
    const fromXlsx = await put(ann, rulesPath, bytes, XLSX, String(saved.version + 1))
    expect(await fromXlsx.json()).toMatchObject({ version: saved.version + 2, rules: saved.rules })
    await expectText(await ann(`${rulesPath}?format=pdf`), 400, /format/)
  })

  it('keeps the classification the same way', async () => {
    const csv = 'code,title,parent\r\nD,Doors and blocks,\r\nD.10,Placed blocks,D\r\n'
    const saved = await put(ann, classificationPath, csv, 'text/csv', '0')
    expect(saved.status).toBe(200)
    expect(v.parse(ClassificationDocumentSchema, await saved.json())).toMatchObject({
      version: 1,
      savedBy: 'Ann',
      entries: [
        { code: 'D', title: 'Doors and blocks' },
        { code: 'D.10', parent: 'D' },
      ],
    })
    await expectText(
      await putJson(
        ann,
        classificationPath,
        { entries: [{ code: 'X', title: 'x', parent: 'Y' }] },
        '1',
      ),
      400,
      /^Row 1: /,
    )
    await expectText(
      await putJson(bob, classificationPath, { entries: [] }, '0'),
      412,
      /^Saved by Ann at .* reload to see their classification\.$/,
    )
    expect(await ann.json(`${classificationPath}/history`)).toEqual([
      expect.objectContaining({ version: 1, savedBy: 'Ann', rows: 2 }),
    ])
  })
})

describe('pricing a job’s kept bill over HTTP', () => {
  const placed = () =>
    bill.bill.filter((line) => line.kind === 'count').reduce((sum, line) => sum + line.quantity, 0)

  it('previews with the rules sent, without keeping anything', async () => {
    const response = await ann(`/api/boq/jobs/${job.id}/price`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules: [{ ...blocks, rate: 10 }, linework] }),
    })
    expect(response.status).toBe(200)
    const priced = v.parse(PricedJobSchema, await response.json())
    expect(placed()).toBeGreaterThan(0)
    expect(priced).toMatchObject({ jobId: job.id, rulesVersion: null })
    expect(priced.priced.items).toEqual([
      expect.objectContaining({
        code: 'D.10',
        quantity: placed(),
        rate: 10,
        amount: placed() * 10,
      }),
    ])
    expect(priced.priced.total).toBe(placed() * 10)
    // The job's bill of record is still the one of its extraction, priced with no rules.
    expect(v.parse(JobSchema, await ann.json(`/api/boq/jobs/${job.id}`)).pricedWith).toEqual({
      rulesVersion: 0,
      classificationVersion: 0,
      settingsVersion: 0,
    })
    expect((await ann.json<Boq>(job.result?.jsonUrl ?? '')).priced).toBeUndefined()
  })

  it('previews with the project’s saved rules when none are sent', async () => {
    const saved = v.parse(RulesDocumentSchema, await ann.json(rulesPath))
    const response = await ann(`/api/boq/jobs/${job.id}/price`, { method: 'POST' })
    const priced = v.parse(PricedJobSchema, await response.json())
    expect(priced).toMatchObject({ rulesVersion: saved.version, classificationVersion: 1 })
    expect(priced.priced.total).toBe(placed() * 2.5)
    // The classification's top level makes the section.
    expect(priced.priced.sections).toEqual([
      expect.objectContaining({ code: 'D', title: 'Doors and blocks' }),
    ])
  })

  it('refuses bad rules in a preview with a 400 naming the row', async () => {
    const response = await ann(`/api/boq/jobs/${job.id}/price`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules: [blocks, { ...blocks, quantity: 'sqrt(' }] }),
    })
    await expectText(response, 400, /^Row 2: /)
  })

  it('re-prices with the saved rules and records their versions on the job', async () => {
    const saved = v.parse(RulesDocumentSchema, await ann.json(rulesPath))
    const response = await ann(`/api/boq/jobs/${job.id}/reprice`, { method: 'POST' })
    expect(response.status).toBe(200)
    const priced = v.parse(PricedJobSchema, await response.json())
    expect(priced).toMatchObject({ rulesVersion: saved.version, classificationVersion: 1 })
    expect(priced.priced.total).toBe(placed() * 2.5)
    expect(priced.priced.ignored.length).toBeGreaterThan(0)
    const after = v.parse(JobSchema, await ann.json(`/api/boq/jobs/${job.id}`))
    expect(after.pricedWith).toEqual({
      rulesVersion: saved.version,
      classificationVersion: 1,
      settingsVersion: 0,
    })
  })

  it('writes the re-priced workbook as the next version beside the drawing when asked', async () => {
    const response = await ann(`/api/boq/jobs/${job.id}/reprice`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ writeBack: true }),
    })
    expect(response.status).toBe(200)
    const answer = (await response.json()) as { written: { itemId: string; versionNumber: number } }
    expect(answer.written).toEqual({
      fileName: '2018_Dynblocks BOQ.xlsx',
      itemId: job.result?.itemId,
      versionNumber: (job.result?.versionNumber ?? 0) + 1,
    })
    const item = encodeURIComponent(answer.written.itemId)
    const versions = await ann.json<{ attributes: { versionNumber?: number } }[]>(
      `/api/aps/hubs/${encodeURIComponent(drawing.hubId)}/projects/${encodeURIComponent(drawing.projectId)}/contents/${item}/versions`,
    )
    expect(versions[0]?.attributes.versionNumber).toBe(answer.written.versionNumber)
    // The item's file in the local cloud is its newest version: the priced bill comes first.
    const [path] = (await readdir(server.dataDir, { recursive: true })).filter(
      (name) => name.endsWith('2018_Dynblocks BOQ.xlsx') && !name.includes('.versions'),
    )
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(
      (await readFile(join(server.dataDir, path ?? ''))) as unknown as ArrayBuffer,
    )
    expect(book.worksheets[0]?.name).toBe('Priced bill')
    await expectText(
      await ann(`/api/boq/jobs/${job.id}/reprice`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ writeBack: 'yes' }),
      }),
      400,
      /writeBack/,
    )
  })

  it('prices a new extraction with the saved rules: its bill, its workbook and the job say which', async () => {
    const saved = v.parse(RulesDocumentSchema, await ann.json(rulesPath))
    const posted = await postExtract(ann, extractBody(drawing))
    expect(posted.status).toBe(202)
    const again = await waitForJob(ann, ((await posted.json()) as Job).id, { timeoutMs: 90_000 })
    expect(again.status).toBe('succeeded')
    expect(again.pricedWith).toEqual({
      rulesVersion: saved.version,
      classificationVersion: 1,
      settingsVersion: 0,
    })
    const kept = await ann.json<Boq>(again.result?.jsonUrl ?? '')
    expect(kept.bill).toEqual(bill.bill)
    expect(kept.priced?.total).toBe(placed() * 2.5)
    expect(kept.priced?.items.map((item) => item.code)).toEqual(['D.10'])
    const response = await ann(again.result?.xlsxUrl ?? '')
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(await response.arrayBuffer())
    expect(book.worksheets.map((sheet) => sheet.name).slice(0, 2)).toEqual(['Priced bill', 'Bill'])
  })

  it('answers 404 for another user’s job, and 403 without the anti-forgery header', async () => {
    for (const route of ['price', 'reprice']) {
      await expectText(
        await bob(`/api/boq/jobs/${job.id}/${route}`, { method: 'POST' }),
        404,
        /no such job/,
      )
    }
    const cookie = [...ann.cookies].map(([k, value]) => `${k}=${value}`).join('; ')
    const response = await fetch(new URL(`/api/boq/jobs/${job.id}/reprice`, server.url), {
      method: 'POST',
      headers: { cookie },
    })
    expect(response.status).toBe(403)
    await response.body?.cancel()
  })
})
