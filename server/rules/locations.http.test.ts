import { rm, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Boq, BoqSchema } from '#contract/boq.ts'
import type { Job } from '#contract/jobs.ts'
import { LocationsDocumentSchema } from '#contract/locations-api.ts'
import { SavedVersionSchema } from '#contract/takeoff-rules-api.ts'
import { createClient, type TestClient } from '../testing/client.ts'
import { type DrawingRef, findDrawing, makeSeedDir } from '../testing/jobs/drawings.ts'
import { extractBody, postExtract, waitForJob } from '../testing/jobs/jobs-api.ts'
import { startSeveralUsersServer } from '../testing/jobs/several-users.ts'
import { SERVER_STORES } from '../testing/postgres.ts'
import {
  FLOOR_PLAN_CHAIRS_OUTSIDE,
  FLOOR_PLAN_ROOMS,
  floorPlanDxf,
} from '../testing/rules/floor-plan.ts'
import type { TestServer } from '../testing/start-test-server.ts'

// The real server over loopback, on either store: Ann keeps her project's locations (which
// closed outlines are rooms, named how), Bob, who sees the project too, reads and changes them.

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
const ROOMS = { layer: 'A-AREA', label: 'text' }
const TAGGED = { layer: '-SPACE*', label: 'attribute:NAME', labelLayer: 'A-TAGS' }

describe.each(SERVER_STORES)('locations over HTTP: %s store', (_name, makeStore) => {
  let server: TestServer
  let seedDir: string
  let drop: () => Promise<void>
  let ann: TestClient
  let bob: TestClient
  let drawing: DrawingRef
  let path: string

  beforeAll(async () => {
    const store = await makeStore()
    drop = store.drop
    seedDir = await makeSeedDir([])
    // A DXF under a drawing's name: the extraction reads it by its content.
    await writeFile(join(seedDir, 'floor-plan.dwg'), floorPlanDxf())
    const longAgo = new Date('2020-01-01T00:00:00Z')
    await utimes(join(seedDir, 'floor-plan.dwg'), longAgo, longAgo)
    const started = await startSeveralUsersServer('boq-locations-', seedDir, store.env)
    server = started.server
    ann = await started.signInAs(server.url, 'Ann')
    bob = await started.signInAs(server.url, 'Bob')
    drawing = await findDrawing(ann.json, 'floor-plan.dwg')
    path = `/api/boq/projects/${encodeURIComponent(drawing.projectId)}/locations`
  }, 60_000)

  afterAll(async () => {
    await server?.close()
    await rm(server?.dataDir ?? '', { recursive: true, force: true })
    await rm(seedDir, { recursive: true, force: true })
    await drop?.()
  })

  const put = (
    client: TestClient,
    body: string | Uint8Array,
    ifMatch?: string,
    type = 'application/json',
  ) =>
    client(path, {
      method: 'PUT',
      headers: { 'content-type': type, ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }) },
      body: body as BodyInit,
    })
  const putRows = (client: TestClient, rows: unknown, ifMatch?: string) =>
    put(client, JSON.stringify({ locations: rows }), ifMatch)

  async function answer(response: Response) {
    return { status: response.status, body: await response.text() }
  }

  it('answers version 0 with no rows before any save, and an empty history', async () => {
    const response = await ann(path)
    expect(response.status).toBe(200)
    expect(response.headers.get('etag')).toBe('"0"')
    expect(v.parse(LocationsDocumentSchema, await response.json())).toEqual({
      version: 0,
      savedBy: null,
      savedAt: null,
      locations: [],
    })
    expect(await ann.json(`${path}/history`)).toEqual([])
    const csv = await ann(`${path}?format=csv`)
    expect(await csv.text()).toBe('layer,label,labelLayer\r\n')
    expect(csv.headers.get('content-disposition')).toContain('locations v0.csv')
  })

  it('refuses rows that cannot find zones, naming the row, and keeps nothing', async () => {
    expect(
      await answer(await putRows(ann, [ROOMS, { layer: 'A-AREA', label: 'room' }], '0')),
    ).toEqual({
      status: 400,
      body: "Row 2: label 'room' is not text, attribute:TAG or layer.",
    })
    expect(await answer(await putRows(ann, [{ layer: 'ROOMS\\', label: 'layer' }], '0'))).toEqual({
      status: 400,
      body: "Row 1: layer: 'ROOMS\\' ends with an escape (\\).",
    })
    expect(await answer(await putRows(ann, [{ label: 'text' }], '0'))).toMatchObject({
      status: 400,
      body: expect.stringMatching(/^Row 1: layer is empty/),
    })
    expect(await answer(await putRows(ann, [{ ...ROOMS, colour: 'red' }], '0'))).toMatchObject({
      status: 400,
      body: expect.stringMatching(/^Row 1: .*colour/),
    })
    // A file names the row as a spreadsheet shows it: the header is row 1.
    const csv = 'layer,label,labelLayer\r\nA-AREA,text,\r\n*-SPACE,attribute:,\r\n'
    expect(await answer(await put(ann, csv, '0', 'text/csv'))).toEqual({
      status: 400,
      body: "Row 3: label 'attribute:' is not text, attribute:TAG or layer.",
    })
    expect(await answer(await put(ann, JSON.stringify([ROOMS]), '0'))).toEqual({
      status: 400,
      body: 'The body must be {"locations": [...]}.',
    })
    expect(await answer(await putRows(ann, Array(1001).fill(ROOMS), '0'))).toEqual({
      status: 400,
      body: 'The table has 1,001 rows; at most 1,000 are taken.',
    })
    expect((await put(ann, csv, '0', 'text/plain')).status).toBe(415)
    expect(await answer(await putRows(ann, [ROOMS]))).toMatchObject({
      status: 428,
      body: expect.stringContaining('If-Match'),
    })
    expect(await ann.json(path)).toMatchObject({ version: 0 })
  })

  it('saves the next version with If-Match, refuses a stale one naming who saved, keeps the history', async () => {
    const saved = await putRows(ann, [ROOMS], '0')
    expect(saved.status).toBe(200)
    expect(saved.headers.get('etag')).toBe('"1"')
    expect(v.parse(LocationsDocumentSchema, await saved.json())).toMatchObject({
      version: 1,
      savedBy: 'Ann',
      locations: [ROOMS],
    })
    expect(await answer(await putRows(bob, [TAGGED], '"0"'))).toEqual({
      status: 412,
      body: expect.stringMatching(
        /^Saved by Ann at \d\d:\d\d UTC since you opened it: reload to see their locations\.$/,
      ),
    })
    expect((await putRows(bob, [ROOMS, TAGGED], '1')).status).toBe(200)
    const history = v.parse(v.array(SavedVersionSchema), await ann.json(`${path}/history`))
    expect(history.map(({ version, savedBy, rows }) => ({ version, savedBy, rows }))).toEqual([
      { version: 2, savedBy: 'Bob', rows: 2 },
      { version: 1, savedBy: 'Ann', rows: 1 },
    ])
    expect(await ann.json(`${path}/history/1`)).toMatchObject({ version: 1, locations: [ROOMS] })
    expect(await answer(await ann(`${path}/history/3`))).toEqual({
      status: 404,
      body: 'There is no such version of these locations.',
    })
  })

  it('exports CSV and XLSX that import again as the same rows', async () => {
    const csv = await ann(`${path}?format=csv`)
    expect(csv.headers.get('content-type')).toContain('text/csv')
    const csvText = await csv.text()
    // A glob a spreadsheet would run as a formula is written after a quote.
    expect(csvText).toBe(
      "layer,label,labelLayer\r\nA-AREA,text,\r\n'-SPACE*,attribute:NAME,A-TAGS\r\n",
    )
    const xlsx = new Uint8Array(await (await ann(`${path}?format=xlsx`)).arrayBuffer())
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(xlsx as unknown as ArrayBuffer)
    expect(book.getWorksheet('locations')?.getRow(3).values).toEqual([
      undefined,
      '-SPACE*',
      'attribute:NAME',
      'A-TAGS',
    ])
    const fromCsv = await put(ann, csvText, '2', 'text/csv')
    expect(await fromCsv.json()).toMatchObject({ version: 3, locations: [ROOMS, TAGGED] })
    const fromXlsx = await put(bob, xlsx, '3', XLSX)
    expect(await fromXlsx.json()).toMatchObject({
      version: 4,
      savedBy: 'Bob',
      locations: [ROOMS, TAGGED],
    })
    expect((await ann(`${path}?format=pdf`)).status).toBe(400)
  })

  it('measures an extraction by the rooms they find: zones, each line by zone, the By location and Rooms sheets', async () => {
    const rules = [{ match: 'count', block: 'CHAIR', code: 'F1', description: 'Chair', rate: 50 }]
    const rulesPath = path.replace(/locations$/, 'rules')
    const savedRules = await ann(rulesPath, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'if-match': '0' },
      body: JSON.stringify({ rules }),
    })
    expect(savedRules.status).toBe(200)
    const posted = await postExtract(ann, extractBody(drawing))
    expect(posted.status).toBe(202)
    const job = await waitForJob(ann, ((await posted.json()) as Job).id, { timeoutMs: 90_000 })
    expect(job.status).toBe('succeeded')
    expect(job.pricedWith).toMatchObject({ rulesVersion: 1, locationsVersion: 4 })

    const bill: Boq = v.parse(BoqSchema, await ann.json(job.result?.jsonUrl ?? ''))
    const zones = bill.zones ?? []
    expect(
      zones.map(({ name, path, layer, area, perimeter, label }) => ({
        name,
        path,
        layer,
        area,
        perimeter,
        source: label.source,
      })),
    ).toEqual(
      // In the engine's order (the zones' regions: see docs/locations.md), any order here.
      expect.arrayContaining(
        FLOOR_PLAN_ROOMS.map(({ name, area, perimeter }) => ({
          name,
          path: name,
          layer: 'A-AREA',
          area,
          perimeter,
          source: 'text',
        })),
      ),
    )
    expect(zones).toHaveLength(FLOOR_PLAN_ROOMS.length)
    const nameOf = (id: string | null) => zones.find((zone) => zone.id === id)?.name ?? null
    const byName = (parts: { zone: string | null; quantity: number }[] = []) =>
      Object.fromEntries(parts.map((part) => [nameOf(part.zone) ?? 'Unallocated', part.quantity]))
    const chairs = bill.bill.find((line) => line.block === 'CHAIR')
    const inRooms = FLOOR_PLAN_ROOMS.filter((room) => room.chairs > 0)
    const expected = {
      ...Object.fromEntries(inRooms.map((room) => [room.name, room.chairs])),
      Unallocated: FLOOR_PLAN_CHAIRS_OUTSIDE,
    }
    expect(byName(chairs?.byZone)).toEqual(expected)
    expect(byName(bill.priced?.items.find((item) => item.code === 'F1')?.byZone)).toEqual(expected)

    const book = new ExcelJS.Workbook()
    await book.xlsx.load(await (await ann(job.result?.xlsxUrl ?? '')).arrayBuffer())
    const names = book.worksheets.map((sheet) => sheet.name)
    expect(names).toEqual(expect.arrayContaining(['By location', 'Rooms']))
    const rooms = book.getWorksheet('Rooms')
    const cells: unknown[] = []
    rooms?.eachRow((row) => {
      cells.push(...(row.values as unknown[]))
    })
    for (const room of FLOOR_PLAN_ROOMS) expect(cells).toContain(room.name)

    // A re-price prices the zones the job was measured with, and says so.
    const repriced = await ann(`/api/boq/jobs/${job.id}/reprice`, { method: 'POST', body: '{}' })
    expect(repriced.status).toBe(200)
    const kept: Boq = v.parse(BoqSchema, await ann.json(job.result?.jsonUrl ?? ''))
    expect(kept.zones).toEqual(bill.zones)
    expect(byName(kept.priced?.items.find((item) => item.code === 'F1')?.byZone)).toEqual(expected)
    expect((await ann.json<Job>(`/api/boq/jobs/${job.id}`)).pricedWith).toMatchObject({
      locationsVersion: 4,
    })
  }, 120_000)

  it('answers 404 for a project the person cannot see, and 401 without a sign-in', async () => {
    const unseen = '/api/boq/projects/b.not-a-project/locations'
    for (const route of ['', '/history', '/history/1']) {
      expect(await answer(await ann(`${unseen}${route}`))).toMatchObject({
        status: 404,
        body: expect.stringMatching(/no such project/),
      })
    }
    expect((await ann(unseen, { method: 'PUT', body: '{}' })).status).toBe(404)
    expect((await createClient(server.url)(path)).status).toBe(401)
  })
})
