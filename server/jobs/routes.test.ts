import { gzipSync } from 'node:zlib'
import ExcelJS from 'exceljs'
import type { Hono } from 'hono'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  decodeGeometry,
  encodeGeometry,
  GEOMETRY_CONTENT_TYPE,
} from '#contract/drawing-geometry.ts'
import type { Job } from '#contract/jobs.ts'
import { geometryOf } from '#contract/testing/drawing-geometry.ts'
import { testBillPool } from '../testing/jobs/bill-pool.ts'
import { contextFor, createFakeCloud, resource } from '../testing/jobs/fakes.ts'
import { jobsRoutesApp } from '../testing/jobs/routes-app.ts'
import { openTempJobStore } from '../testing/jobs/temp-store.ts'
import type { JobStore } from './types.ts'

// The routes on their own, in process: the user comes from a header, errors map as server/http does.
// The same behaviour over real HTTP, with real sign-in and anti-forgery, is in jobs.http.test.ts.

let store: JobStore
let app: Hono
let fake: ReturnType<typeof createFakeCloud>

beforeEach(async () => {
  store = await openTempJobStore('boq-jobs-routes-')
  fake = createFakeCloud()
  fake.folders.add('p1/f1')
  fake.addDrawing('s1', new Uint8Array(10))
  fake.addDrawing('big', new Uint8Array(2 * 1024 * 1024))
  app = jobsRoutesApp({
    store,
    cloud: fake.cloud,
    maxFileBytes: 1024 * 1024,
    maxQueuedPerUser: 2,
  })
})

afterEach(async () => {
  await store.close()
})

const ann = { headers: { 'x-user': 'ann' } }
const body = { fileName: 'plan.dwg', fileStorageId: 's1', fileFolderId: 'f1', projectId: 'p1' }

function post(user: string | undefined, payload: unknown) {
  return app.request('/api/boq/extract', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(user ? { 'x-user': user } : {}) },
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  })
}

describe('jobs routes', () => {
  it('queues a job (202), answers the same active job again (200), lists and shows it', async () => {
    const created = await post('ann', body)
    expect(created.status).toBe(202)
    const job = (await created.json()) as Job
    expect(job).toMatchObject({ status: 'queued', fileName: 'plan.dwg', fileStorageId: 's1' })
    expect(job).not.toHaveProperty('userId')

    const again = await post('ann', body)
    expect(again.status).toBe(200)
    expect(((await again.json()) as Job).id).toBe(job.id)

    const list = await app.request('/api/boq/jobs', { headers: { 'x-user': 'ann' } })
    expect(((await list.json()) as { data: Job[] }).data.map((j) => j.id)).toEqual([job.id])
    const one = await app.request(`/api/boq/jobs/${job.id}`, { headers: { 'x-user': 'ann' } })
    expect(one.status).toBe(200)
  })

  it('says which version is read and where its folder is, as far as the cloud tells (null otherwise)', async () => {
    const unknown = (await (await post('ann', body)).json()) as Job
    expect(unknown).toMatchObject({
      fileVersionNumber: 1,
      folder: { name: null, hubId: null, path: null },
    })

    fake.lists.hubs.push(resource('hubs', 'h1', { name: 'Hub' }))
    fake.lists.projects.set('h1', [resource('projects', 'p1', { name: 'Tower' })])
    fake.lists.contents.set('p1', [resource('folders', 'f1', { name: 'Project Files' })])
    fake.addDrawing('s2', new Uint8Array(1), 'plan.dwg', 4)
    const known = (await (await post('ann', { ...body, fileStorageId: 's2' })).json()) as Job
    expect(known).toMatchObject({
      fileVersionNumber: 4,
      folder: { name: 'Project Files', hubId: 'h1', path: ['f1'] },
    })
    const listed = await app.request('/api/boq/jobs', { headers: { 'x-user': 'ann' } })
    expect(((await listed.json()) as { data: Job[] }).data[0]?.folder).toEqual(known.folder)
  })

  it("hides another user's job and its results (404)", async () => {
    const job = (await (await post('ann', body)).json()) as Job
    for (const path of ['', '/result.xlsx', '/result.csv']) {
      const answer = await app.request(`/api/boq/jobs/${job.id}${path}`, {
        headers: { 'x-user': 'bob' },
      })
      expect(answer.status).toBe(404)
      expect(await answer.text()).toBe('There is no such job.')
    }
    const list = await app.request('/api/boq/jobs', { headers: { 'x-user': 'bob' } })
    expect(await list.json()).toEqual({ data: [] })
  })

  it('answers 401 before anything else without a session', async () => {
    expect((await post(undefined, '{bad')).status).toBe(401)
    expect((await app.request('/api/boq/jobs')).status).toBe(401)
  })

  it('refuses bad requests with a readable reason', async () => {
    const cases: [unknown, number, RegExp][] = [
      ['{bad', 400, /must be JSON/],
      [{ ...body, fileName: undefined }, 400, /fileName is missing/],
      [{ ...body, fileName: 'plan.pdf' }, 400, /Only \.dwg drawings/],
      [{ ...body, fileStorageId: 'nope' }, 404, /No such file version/],
      [{ ...body, fileFolderId: 'elsewhere' }, 404, /No such folder/],
      [
        { ...body, fileStorageId: 'big' },
        413,
        /2\.0 MB; the largest drawing BOQ extracts is 1\.0 MB/,
      ],
      ['x'.repeat(20_000), 413, /too large/],
    ]
    for (const [payload, status, text] of cases) {
      const answer = await post('ann', payload)
      expect(answer.status, JSON.stringify(payload).slice(0, 80)).toBe(status)
      expect(await answer.text()).toMatch(text)
    }
    expect(await store.listByUser('ann')).toEqual([])
  })

  it("refuses a fileName that is not the version's own name, naming both", async () => {
    const other = await post('ann', { ...body, fileName: 'other.dwg' })
    expect(other.status).toBe(400)
    expect(await other.text()).toBe(
      "fileName must be the version's own name, plan.dwg; got other.dwg.",
    )
    // A cloud that finds versions only by their folder and name (Autodesk) cannot say the real one.
    fake.files.set('s5', new Uint8Array(1))
    const unknown = await post('ann', { ...body, fileStorageId: 's5' })
    expect(unknown.status).toBe(400)
    expect(await unknown.text()).toBe(
      "fileName must be the version's own name; no drawing named plan.dwg in this folder has this version.",
    )
    // Names the cloud holds are shown with invisible characters escaped.
    fake.addDrawing('s6', new Uint8Array(1), 'plan\u202Egpj.dwg')
    const hidden = await post('ann', { ...body, fileStorageId: 's6' })
    expect(await hidden.text()).toBe(
      "fileName must be the version's own name, plan\\u{202E}gpj.dwg; got plan.dwg.",
    )
    expect(await store.listByUser('ann')).toEqual([])
  })

  it('refuses invisible and direction-changing characters in fileName, never echoing them', async () => {
    for (const name of [
      'plan\u202Egpj.dwg',
      'plan\u2066.dwg',
      'plan\u200F.dwg',
      'plan\u0085.dwg',
      'plan\u2028.dwg',
      'plan\u2029.dwg',
      'plan\u00AD.dwg',
      'plan\uFEFF.dwg',
      'plan\uD800.dwg',
      '   .dwg',
      '\u3000.dwg',
    ]) {
      const answer = await post('ann', { ...body, fileName: name })
      const text = await answer.text()
      expect(answer.status, JSON.stringify(name)).toBe(400)
      expect(text, JSON.stringify(name)).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u)
    }
    const rlo = await post('ann', { ...body, fileName: 'plan\u202Egpj.dwg' })
    expect(await rlo.text()).toMatch(/plan\\u\{202E\}gpj\.dwg.*invisible characters/)
    expect(await store.listByUser('ann')).toEqual([])
  })

  it('keeps the units chosen and shows them (null when none); a duplicate answers the first job', async () => {
    const units = { system: 'imperial', drawingUnits: 'mm' }
    const created = await post('ann', { ...body, units })
    expect(created.status).toBe(202)
    const job = (await created.json()) as Job
    expect(job.units).toEqual(units)
    const shown = await app.request(`/api/boq/jobs/${job.id}`, { headers: { 'x-user': 'ann' } })
    expect(((await shown.json()) as Job).units).toEqual(units)

    // The same version again, other units: the job already queued, as it was asked.
    const again = await post('ann', { ...body, units: { system: 'metric' } })
    expect(again.status).toBe(200)
    expect((await again.json()) as Job).toMatchObject({ id: job.id, units })

    fake.addDrawing('s2', new Uint8Array(1))
    const plain = (await (await post('ann', { ...body, fileStorageId: 's2' })).json()) as Job
    expect(plain.units).toBeNull()
    const list = await app.request('/api/boq/jobs', { headers: { 'x-user': 'ann' } })
    expect(((await list.json()) as { data: Job[] }).data.map((j) => j.units)).toEqual([null, units])
  })

  it('refuses units other than the allowed values with 400, queuing nothing', async () => {
    const cases: [unknown, RegExp][] = [
      [
        'metric',
        /^units must be a JSON object: \{"system"\?: "metric" \| "imperial" \| "drawing", "drawingUnits"\?: "mm" \| "cm" \| "m" \| "in" \| "ft"\}\.$/,
      ],
      [{ system: 'si' }, /^units\.system must be "metric", "imperial" or "drawing"/],
      [{ drawingUnits: 'km' }, /^units\.drawingUnits must be "mm", "cm", "m", "in" or "ft"/],
      [
        { system: 'metric', precision: 2 },
        /^units takes only "system" and "drawingUnits", not "precision"/,
      ],
    ]
    for (const [units, text] of cases) {
      const answer = await post('ann', { ...body, units })
      expect(answer.status, JSON.stringify(units)).toBe(400)
      expect(answer.headers.get('content-type')).toMatch(/^text\/plain/)
      expect(await answer.text()).toMatch(text)
    }
    expect(await store.listByUser('ann')).toEqual([])
  })

  it('refuses a third queued job of one user with 429', async () => {
    fake.addDrawing('s2', new Uint8Array(1))
    fake.addDrawing('s3', new Uint8Array(1))
    expect((await post('ann', { ...body, fileStorageId: 's1' })).status).toBe(202)
    expect((await post('ann', { ...body, fileStorageId: 's2' })).status).toBe(202)
    const refused = await post('ann', { ...body, fileStorageId: 's3' })
    expect(refused.status).toBe(429)
    expect(await refused.text()).toMatch(/limit is 2/)
  })

  it('serves the outputs of a succeeded job with their file names', async () => {
    fake.addDrawing('s4', new Uint8Array(1), 'Plan été.dwg')
    const job = (await (
      await post('ann', { ...body, fileName: 'Plan été.dwg', fileStorageId: 's4' })
    ).json()) as Job
    const notYet = await app.request(`/api/boq/jobs/${job.id}/result.xlsx`, {
      headers: { 'x-user': 'ann' },
    })
    expect(notYet.status).toBe(404)
    await store.claim()
    await store.succeed(
      job.id,
      { fileName: 'Plan été BOQ.xlsx', itemId: 'i1', versionNumber: 1, jsonKept: true },
      {
        xlsx: new Uint8Array([80, 75]),
        csv: new TextEncoder().encode('a,b\n'),
        json: new TextEncoder().encode('{"schema":"boq"}\n'),
      },
    )
    const shown = (await (
      await app.request(`/api/boq/jobs/${job.id}`, { headers: { 'x-user': 'ann' } })
    ).json()) as Job
    expect(shown.result).toEqual({
      fileName: 'Plan été BOQ.xlsx',
      itemId: 'i1',
      versionNumber: 1,
      warnings: [],
      warningCount: 0,
      xlsxUrl: `/api/boq/jobs/${job.id}/result.xlsx`,
      csvUrl: `/api/boq/jobs/${job.id}/result.csv`,
      jsonUrl: `/api/boq/jobs/${job.id}/result.json`,
      geometryUrl: `/api/boq/jobs/${job.id}/geometry`,
      comparedWith: null,
      changedLines: null,
    })
    const xlsx = await app.request(shown.result?.xlsxUrl ?? '', { headers: { 'x-user': 'ann' } })
    expect(xlsx.headers.get('content-type')).toMatch(/spreadsheetml/)
    expect(xlsx.headers.get('content-disposition')).toBe(
      `attachment; filename="Plan _t_ BOQ.xlsx"; filename*=UTF-8''Plan%20%C3%A9t%C3%A9%20BOQ.xlsx`,
    )
    expect(new Uint8Array(await xlsx.arrayBuffer())).toEqual(new Uint8Array([80, 75]))
    const csv = await app.request(shown.result?.csvUrl ?? '', { headers: { 'x-user': 'ann' } })
    expect(csv.headers.get('content-disposition')).toContain(
      "UTF-8''Plan%20%C3%A9t%C3%A9%20BOQ.csv",
    )
    expect(await csv.text()).toBe('a,b\n')
    const json = await app.request(shown.result?.jsonUrl ?? '', { headers: { 'x-user': 'ann' } })
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(json.headers.get('content-disposition')).toContain(
      "UTF-8''Plan%20%C3%A9t%C3%A9%20BOQ.json",
    )
    expect(await json.text()).toBe('{"schema":"boq"}\n')
  })

  it("serves a job's drawing geometry as kept, gzip to a client that takes it, else unpacked; 404 for another user", async () => {
    fake.addDrawing('s5', new Uint8Array(1))
    fake.addDrawing('s6', new Uint8Array(1))
    const kept = (await (await post('ann', { ...body, fileStorageId: 's5' })).json()) as Job
    const before = (await (await post('ann', { ...body, fileStorageId: 's6' })).json()) as Job
    // Kept as the engine writes it: compressed.
    const geometry = gzipSync(
      encodeGeometry(geometryOf({ handles: ['1F', '20'], points: [0, 0, 10, 0] })),
    )
    const files = { xlsx: new Uint8Array(1), csv: new Uint8Array(1), json: new Uint8Array(1) }
    const result = { fileName: 'x BOQ.xlsx', itemId: 'i1', versionNumber: 1, jsonKept: true }
    await store.claim()
    await store.succeed(kept.id, { ...result, geometryKept: true }, { ...files, geometry })
    await store.claim()
    await store.succeed(before.id, result, files)

    const shown = (await (await app.request(`/api/boq/jobs/${kept.id}`, ann)).json()) as Job
    expect(shown.result?.geometryUrl).toBe(`/api/boq/jobs/${kept.id}/geometry`)
    const answer = await app.request(shown.result?.geometryUrl ?? '', ann)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe(GEOMETRY_CONTENT_TYPE)
    expect(answer.headers.get('content-encoding')).toBeNull()
    expect(answer.headers.get('vary')).toBe('Accept-Encoding')
    expect(answer.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/)
    expect(decodeGeometry(await answer.arrayBuffer()).handles).toEqual(['1F', '20'])
    const gzipped = await app.request(shown.result?.geometryUrl ?? '', {
      headers: { ...ann.headers, 'accept-encoding': 'gzip' },
    })
    expect(gzipped.headers.get('content-encoding')).toBe('gzip')
    // The bytes as kept, not compressed again.
    expect(new Uint8Array(await gzipped.arrayBuffer())).toEqual(new Uint8Array(geometry))

    const other = await app.request(shown.result?.geometryUrl ?? '', {
      headers: { 'x-user': 'bob' },
    })
    expect(other.status).toBe(404)
    // A job kept without geometry names the same route, which builds it (geometry-route.test.ts).
    const old = (await (await app.request(`/api/boq/jobs/${before.id}`, ann)).json()) as Job
    expect(old.result?.geometryUrl).toBe(`/api/boq/jobs/${before.id}/geometry`)
  })

  it('writes no invisible character into a download header, whatever name a job was recorded with', async () => {
    // A record from before names were checked: straight into the store.
    const { job } = await store.submit(
      {
        fileName: 'plan\u202Egpj\u2028.dwg',
        projectId: 'p1',
        fileFolderId: 'f1',
        fileStorageId: 's1',
        context: contextFor('ann'),
      },
      { maxActivePerUser: 5 },
    )
    await store.claim()
    await store.succeed(
      job.id,
      { fileName: 'x BOQ.xlsx', itemId: 'i1', versionNumber: 1 },
      {
        xlsx: new Uint8Array([80, 75]),
        csv: new TextEncoder().encode('a,b\n'),
        json: new TextEncoder().encode('{}'),
      },
    )
    const xlsx = await app.request(`/api/boq/jobs/${job.id}/result.xlsx`, {
      headers: { 'x-user': 'ann' },
    })
    expect(xlsx.status).toBe(200)
    const header = xlsx.headers.get('content-disposition') ?? ''
    expect(header).toBe(
      `attachment; filename="plan_u{202E}gpj_u{2028} BOQ.xlsx"; filename*=UTF-8''plan%5Cu%7B202E%7Dgpj%5Cu%7B2028%7D%20BOQ.xlsx`,
    )
    expect(decodeURIComponent(header)).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u)
  })

  describe('the change bill between two jobs', () => {
    const bill = (lines: { kind: string; block?: string; layer?: string; quantity: number }[]) => ({
      schema: 'boq',
      version: 2,
      units: { length: 'm', area: 'm²', lengthFactor: 1, areaFactor: 1, drawing: { code: 6 } },
      bill: lines.map((line, i) => ({
        ref: `${line.kind === 'count' ? 'A' : 'B'}${i + 1}`,
        description: line.block ?? `Linework on layer ${line.layer}`,
        unit: line.kind === 'count' ? 'nr' : 'm',
        breakdown: [],
        ...line,
      })),
    })

    async function finishedJob(
      user: string,
      storageId: string,
      content: object | undefined,
      drawing: Partial<typeof body> = {},
    ) {
      fake.addDrawing(storageId, new Uint8Array(10))
      const { job } = await store.submit(
        { ...body, ...drawing, fileStorageId: storageId, context: contextFor(user) },
        { maxActivePerUser: 10 },
      )
      if (content === undefined) return job
      await store.claim()
      await store.succeed(
        job.id,
        { fileName: 'plan BOQ.xlsx', itemId: 'i1', versionNumber: 1, jsonKept: true },
        {
          xlsx: new Uint8Array([1]),
          csv: new Uint8Array([2]),
          json: new TextEncoder().encode(JSON.stringify(content)),
        },
      )
      return job
    }

    const compare = (user: string, query: string) =>
      app.request(`/api/boq/compare?${query}`, { headers: { 'x-user': user } })

    it('answers the change bill of two of the user’s finished jobs, as JSON, XLSX or CSV', async () => {
      const a = await finishedJob(
        'ann',
        'v1',
        bill([{ kind: 'count', block: 'DOOR', quantity: 12 }]),
      )
      const b = await finishedJob(
        'ann',
        'v2',
        bill([
          { kind: 'count', block: 'DOOR', quantity: 14 },
          { kind: 'length', layer: 'Walls', quantity: 91.7 },
        ]),
      )
      const answer = await compare('ann', `from=${a.id}&to=${b.id}`)
      expect(answer.status).toBe(200)
      const changes = await answer.json()
      expect(changes).toMatchObject({
        from: { jobId: a.id, fileName: 'plan.dwg' },
        to: { jobId: b.id, fileName: 'plan.dwg' },
        units: { length: 'm', area: 'm²' },
        lines: [
          { description: 'Linework on layer Walls', before: 0, after: 91.7, state: 'added' },
          { block: 'DOOR', before: 12, after: 14, change: 2, state: 'changed' },
        ],
      })
      const xlsx = await compare('ann', `from=${a.id}&to=${b.id}&format=xlsx`)
      expect(xlsx.headers.get('content-type')).toMatch(/spreadsheetml/)
      expect(xlsx.headers.get('content-disposition')).toContain('.xlsx')
      const csv = await (await compare('ann', `from=${a.id}&to=${b.id}&format=csv`)).text()
      expect(csv).toContain('Changes,A1,DOOR,12,14,2,')
      expect((await compare('ann', `from=${a.id}&to=${b.id}&format=pdf`)).status).toBe(400)
    })

    it('says when the two jobs are of two different drawings, in the answer and in its files', async () => {
      const plan = await finishedJob(
        'ann',
        'v1',
        bill([{ kind: 'count', block: 'DOOR', quantity: 1 }]),
      )
      const again = await finishedJob('ann', 'v2', bill([]))
      const survey = await finishedJob('ann', 'v3', bill([]), { fileName: 'survey.dwg' })
      const elsewhere = await finishedJob('ann', 'v4', bill([]), { fileFolderId: 'f2' })
      const changes = async (from: string, to: string) =>
        (await (await compare('ann', `from=${from}&to=${to}`)).json()) as Record<string, unknown>
      const notice = 'These are two different drawings: plan.dwg and survey.dwg.'
      expect((await changes(plan.id, survey.id)).differentDrawings).toBe(notice)
      expect((await changes(plan.id, elsewhere.id)).differentDrawings).toBe(
        'These are two different drawings: plan.dwg in two folders.',
      )
      // Two versions of one drawing: nothing to say.
      expect(await changes(plan.id, again.id)).not.toHaveProperty('differentDrawings')

      const csv = await (await compare('ann', `from=${plan.id}&to=${survey.id}&format=csv`)).text()
      expect(csv).toContain(`Changes notes,Drawings,${notice}`)
      const answer = await compare('ann', `from=${plan.id}&to=${survey.id}&format=xlsx`)
      // The file is named after both drawings (each job's version, or its id when not known).
      expect(answer.headers.get('content-disposition')).toMatch(
        /filename="plan \S+ to survey \S+ changes\.xlsx"/,
      )
      const book = new ExcelJS.Workbook()
      await book.xlsx.load(await answer.arrayBuffer())
      const rows = book.getWorksheet('Changes')?.getSheetValues() ?? []
      expect(rows.some((row) => Array.isArray(row) && row.includes(notice))).toBe(true)
      const same = await compare('ann', `from=${plan.id}&to=${again.id}&format=csv`)
      expect(await same.text()).not.toContain('Drawings')
      expect(same.headers.get('content-disposition')).toMatch(
        /filename="plan changes \S+ to \S+\.csv"/,
      )
    })

    it('answers 404 for another user’s job or a wrong id, 409 for a job not finished, 400 without ids', async () => {
      const mine = await finishedJob('ann', 'v1', bill([]))
      const bobs = await finishedJob('bob', 'v2', bill([]))
      const old = await finishedJob('ann', 'v4', { schema: 'boq', version: 1 })
      const queued = await finishedJob('ann', 'v3', undefined)
      expect((await compare('ann', `from=${mine.id}&to=${bobs.id}`)).status).toBe(404)
      expect((await compare('ann', `from=${mine.id}&to=nope`)).status).toBe(404)
      const unfinished = await compare('ann', `from=${mine.id}&to=${queued.id}`)
      expect(unfinished.status).toBe(409)
      expect(await unfinished.text()).toMatch(/has not finished yet/)
      const before = await compare('ann', `from=${old.id}&to=${mine.id}`)
      expect(before.status).toBe(409)
      expect(await before.text()).toMatch(/extract it again/)
      expect((await compare('ann', `from=${mine.id}`)).status).toBe(400)
    })

    it('makes the change bill of the same two jobs in the same format once, and keeps it', async () => {
      const pool = testBillPool()
      let made = 0
      app = jobsRoutesApp({
        store,
        cloud: fake.cloud,
        maxFileBytes: 1024 * 1024,
        maxQueuedPerUser: 2,
        bills: {
          run: (task) => {
            made++
            return pool.run(task)
          },
          close: async () => {},
        },
      })
      const a = await finishedJob(
        'ann',
        'v1',
        bill([{ kind: 'count', block: 'DOOR', quantity: 1 }]),
      )
      const b = await finishedJob(
        'ann',
        'v2',
        bill([{ kind: 'count', block: 'DOOR', quantity: 2 }]),
      )
      const query = `from=${a.id}&to=${b.id}&format=csv`
      const [first, second] = await Promise.all([compare('ann', query), compare('ann', query)])
      const third = await compare('ann', query)
      const texts = await Promise.all([first, second, third].map((r) => r.text()))
      expect(new Set(texts).size).toBe(1)
      expect(texts[0]).toMatch(/DOOR/)
      expect(made).toBe(1)
      // Another format, or the other way round, is another change bill.
      expect((await compare('ann', `from=${a.id}&to=${b.id}`)).status).toBe(200)
      expect((await compare('ann', `from=${b.id}&to=${a.id}&format=csv`)).status).toBe(200)
      expect(made).toBe(3)
    })

    it('answers a user with two change bills running 429 with Retry-After, and others go on', async () => {
      let open = () => {}
      const gate = new Promise<void>((resolve) => {
        open = resolve
      })
      let entered = () => {}
      const bothHeld = new Promise<void>((resolve) => {
        entered = resolve
      })
      let holding = 0
      const pool = testBillPool()
      app = jobsRoutesApp({
        store,
        cloud: fake.cloud,
        maxFileBytes: 1024 * 1024,
        maxQueuedPerUser: 2,
        // Ann's first two change bills wait until the test lets them go.
        bills: {
          run: async (task) => {
            if (++holding === 2) entered()
            await gate
            return pool.run(task)
          },
          close: async () => {},
        },
      })
      const a = await finishedJob(
        'ann',
        'v1',
        bill([{ kind: 'count', block: 'DOOR', quantity: 1 }]),
      )
      const b = await finishedJob(
        'ann',
        'v2',
        bill([{ kind: 'count', block: 'DOOR', quantity: 2 }]),
      )
      const held = [
        compare('ann', `from=${a.id}&to=${b.id}`),
        compare('ann', `from=${b.id}&to=${a.id}`),
      ]
      await bothHeld
      const third = await compare('ann', `from=${a.id}&to=${b.id}&format=csv`)
      expect(third.status).toBe(429)
      expect(third.headers.get('retry-after')).toBe('2')
      expect(await third.text()).toMatch(/^You already have 2 change bills or pricings running/)
      // Bob's requests are not Ann's to hold.
      expect((await app.request('/api/boq/jobs', { headers: { 'x-user': 'bob' } })).status).toBe(
        200,
      )
      open()
      expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200])
      expect((await compare('ann', `from=${a.id}&to=${b.id}&format=csv`)).status).toBe(200)
    })
  })
})
