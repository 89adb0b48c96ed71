import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Job } from '#contract/jobs.ts'
import type { TestClient } from '../testing/client.ts'
import { blockCountsFromXlsx } from '../testing/jobs/boq-counts.ts'
import { type DrawingRef, findDrawing, findItems, makeSeedDir } from '../testing/jobs/drawings.ts'
import { extractBody, postExtract, waitForJob } from '../testing/jobs/jobs-api.ts'
import { startSeveralUsersServer } from '../testing/jobs/several-users.ts'
import type { TestServer } from '../testing/start-test-server.ts'

// The jobs over real HTTP on loopback: real sign-in and anti-forgery, the local cloud seeded with
// a sample drawing, the real BOQ engine in worker threads.

let server: TestServer
let seedDir: string
let ann: TestClient
let bob: TestClient
let drawing: DrawingRef
let broken: DrawingRef
let signInAs: (url: string, name: string) => Promise<TestClient>

/** The units of the bill's lines in a BOQ CSV (rows whose Section is `Bill`, column `Unit`). */
function billUnits(csv: string): string[] {
  const [header = [], ...rows] = csv.split(/\r?\n/).map(csvCells)
  const column = header.indexOf('Unit')
  if (column < 0) throw new Error(`No Unit column in ${header.join(',')}`)
  return [...new Set(rows.filter((r) => r[0] === 'Bill').map((r) => r[column] ?? ''))]
}

/** One CSV line's cells (quoted cells may hold commas and doubled quotes). */
function csvCells(line: string): string[] {
  const cells: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]
    if (quoted && ch === '"' && line[i + 1] === '"') {
      cell += '"'
      i++
    } else if (ch === '"') quoted = !quoted
    else if (ch === ',' && !quoted) {
      cells.push(cell)
      cell = ''
    } else cell += ch
  }
  cells.push(cell)
  return cells
}

beforeAll(async () => {
  seedDir = await makeSeedDir(['example_2018.dwg', 'sample_2018.dwg', 'sample_2000.dwg'], {
    broken: true,
  })
  const env = { BOQ_MAX_QUEUED_PER_USER: '3', BOQ_WORKERS: '1' }
  ;({ server, signInAs } = await startSeveralUsersServer('boq-jobs-http-', seedDir, env))
  ann = await signInAs(server.url, 'ann')
  bob = await signInAs(server.url, 'bob')
  drawing = await findDrawing(ann.json, 'example_2018.dwg')
  broken = await findDrawing(ann.json, 'broken.dwg')
}, 60_000)

afterAll(async () => {
  await server?.close()
  await rm(server?.dataDir ?? '', { recursive: true, force: true })
  await rm(seedDir, { recursive: true, force: true })
})

describe('extraction jobs over HTTP', () => {
  let first: Job

  it('runs a job from queued to succeeded and writes the BOQ beside the drawing as a new item', async () => {
    const response = await postExtract(ann, extractBody(drawing))
    expect(response.status).toBe(202)
    const queued = (await response.json()) as Job
    expect(queued).toMatchObject({
      status: 'queued',
      fileName: 'example_2018.dwg',
      fileStorageId: drawing.storageId,
      fileFolderId: drawing.folderId,
      projectId: drawing.projectId,
    })
    expect(Date.parse(queued.createdAt)).not.toBeNaN()
    // Which version is read, and where its folder is: known from the ids at once.
    expect(queued).toMatchObject({
      fileVersionNumber: 1,
      folder: { name: 'Project Files', hubId: drawing.hubId, path: [drawing.folderId] },
    })

    const seen: Job[] = []
    first = await waitForJob(ann, queued.id, { seen })
    expect(first.error).toBeUndefined()
    expect(first.status).toBe('succeeded')
    for (const state of seen.filter((s) => s.status === 'running')) {
      expect(state.progress).toBeGreaterThanOrEqual(0)
      expect(state.progress).toBeLessThanOrEqual(1)
    }
    expect(first.result).toMatchObject({
      fileName: 'example_2018 BOQ.xlsx',
      versionNumber: 1,
      xlsxUrl: `/api/boq/jobs/${first.id}/result.xlsx`,
      csvUrl: `/api/boq/jobs/${first.id}/result.csv`,
    })
    // The bill's warnings come with the result (none or some: always a list and its count).
    expect(Array.isArray(first.result?.warnings)).toBe(true)
    expect(first.result?.warningCount).toBeGreaterThanOrEqual(first.result?.warnings.length ?? 0)

    const xlsx = await ann(first.result?.xlsxUrl ?? '')
    expect(xlsx.status).toBe(200)
    expect(xlsx.headers.get('content-disposition')).toContain('filename="example_2018 BOQ.xlsx"')
    const counts = await blockCountsFromXlsx(new Uint8Array(await xlsx.arrayBuffer()))
    expect(counts.get('bloko')).toBe(2)
    expect(counts.get('CIRKLO_PUNKTOJ')).toBe(8)

    const csv = await ann(first.result?.csvUrl ?? '')
    expect(csv.headers.get('content-disposition')).toContain('filename="example_2018 BOQ.csv"')
    expect(await csv.text()).toContain('CIRKLO_PUNKTOJ')

    const [written] = await findItems(ann.json, (name) => name === 'example_2018 BOQ.xlsx')
    expect(written).toMatchObject({ folderId: drawing.folderId, itemId: first.result?.itemId })
  })

  it('writes a second extraction of the same drawing as a new version of that item', async () => {
    const response = await postExtract(ann, extractBody(drawing))
    expect(response.status).toBe(202)
    const second = await waitForJob(ann, ((await response.json()) as Job).id)
    expect(second.result).toMatchObject({
      fileName: 'example_2018 BOQ.xlsx',
      itemId: first.result?.itemId,
      versionNumber: 2,
    })
    const items = await findItems(ann.json, (name) => name === 'example_2018 BOQ.xlsx')
    expect(items).toHaveLength(1)

    const list = await ann.json<{ data: Job[] }>('/api/boq/jobs')
    expect(list.data.map((j) => j.id).slice(0, 2)).toEqual([second.id, first.id])
  })

  it('answers a duplicate submission with the job already queued or running', async () => {
    const [a, b] = await Promise.all([
      postExtract(ann, extractBody(drawing)),
      postExtract(ann, extractBody(drawing)),
    ])
    expect([a.status, b.status].sort()).toEqual([200, 202])
    const [jobA, jobB] = (await Promise.all([a.json(), b.json()])) as Job[]
    expect(jobA.id).toBe(jobB.id)
    expect((await waitForJob(ann, jobA.id)).status).toBe('succeeded')
  })

  it("hides another user's job and its results (404), and lists only one's own", async () => {
    for (const path of ['', '/result.xlsx', '/result.csv']) {
      const response = await bob(`/api/boq/jobs/${first.id}${path}`)
      expect(response.status, path).toBe(404)
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    }
    expect((await bob.json<{ data: Job[] }>('/api/boq/jobs')).data).toEqual([])
    expect((await ann(`/api/boq/jobs/${first.id}/result.xlsx`)).status).toBe(200)
  })

  it('answers 401 without a session', async () => {
    const anonymous = (path: string) => fetch(new URL(path, server.url))
    expect((await anonymous('/api/boq/jobs')).status).toBe(401)
    expect((await anonymous(`/api/boq/jobs/${first.id}`)).status).toBe(401)
    expect((await anonymous(`/api/boq/jobs/${first.id}/result.xlsx`)).status).toBe(401)
  })

  it('refuses missing and invalid fields with a readable plain-text reason', async () => {
    const good = extractBody(drawing)
    const cases: [unknown, number, RegExp][] = [
      ['not json', 400, /must be JSON/],
      [{ ...good, fileName: undefined }, 400, /fileName is missing/],
      [{}, 400, /fileName, fileStorageId, fileFolderId, projectId/],
      [{ ...good, projectId: '  ' }, 400, /projectId is missing or empty/],
      [{ ...good, fileName: 'example_2018.pdf' }, 400, /Only \.dwg drawings/],
      [{ ...good, fileName: '../example_2018.dwg' }, 400, /is a path/],
      [{ ...good, fileName: 'example\u202E8102_.dwg' }, 400, /example\\u\{202E\}8102_\.dwg/],
      [{ ...good, fileName: '\u2028.dwg' }, 400, /invisible characters/],
      [{ ...good, fileName: '   .dwg' }, 400, /no name before/],
      [{ ...good, fileStorageId: `${good.fileStorageId}x` }, 404, /./],
      [{ ...good, fileFolderId: 'urn:nope' }, 404, /./],
      [{ ...good, projectId: 'b.nope' }, 404, /./],
      [{ ...good, units: 'imperial' }, 400, /^units must be a JSON object: \{"system"\?/],
      [{ ...good, units: { system: 'si' } }, 400, /"metric", "imperial" or "drawing"/],
      [{ ...good, units: { drawingUnits: 'km' } }, 400, /"mm", "cm", "m", "in" or "ft"/],
      [{ ...good, units: { scale: 1 } }, 400, /units takes only "system" and "drawingUnits"/],
    ]
    const before = (await ann.json<{ data: Job[] }>('/api/boq/jobs')).data.length
    for (const [body, status, reason] of cases) {
      const response = await postExtract(ann, body)
      const text = await response.text()
      expect(response.status, `${JSON.stringify(body)} → ${text}`).toBe(status)
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
      expect(text).toMatch(reason)
    }
    expect((await ann.json<{ data: Job[] }>('/api/boq/jobs')).data).toHaveLength(before)
  })

  it("refuses a fileName other than the version's own, so the BOQ cannot be written under another name", async () => {
    const before = (await ann.json<{ data: Job[] }>('/api/boq/jobs')).data.length
    for (const fileName of ['other.dwg', 'sample_2018.dwg']) {
      const response = await postExtract(ann, { ...extractBody(drawing), fileName })
      expect(response.status).toBe(400)
      expect(await response.text()).toBe(
        `fileName must be the version's own name, example_2018.dwg; got ${fileName}.`,
      )
    }
    // Nor into another folder than the drawing's own, even one of the same project.
    const elsewhere = await findDrawing(ann.json, 'sample_2018.dwg')
    expect(elsewhere.projectId).toBe(drawing.projectId)
    expect(elsewhere.folderId).not.toBe(drawing.folderId)
    const moved = await postExtract(ann, {
      ...extractBody(drawing),
      fileFolderId: elsewhere.folderId,
    })
    expect(moved.status).toBe(400)
    expect(await moved.text()).toBe(
      "fileName must be the version's own name; no drawing named example_2018.dwg in this folder has this version.",
    )
    expect((await ann.json<{ data: Job[] }>('/api/boq/jobs')).data).toHaveLength(before)
    const written = await findItems(ann.json, (name) =>
      /^(other|sample_2018|example_2018) BOQ\.xlsx$/.test(name),
    )
    expect(written.filter((item) => item.folderId === elsewhere.folderId)).toEqual([])
    expect(written.filter((item) => !item.fileName.startsWith('example_2018'))).toEqual([])
  })

  it('keeps the units chosen with the job, shows them, and extracts with them', async () => {
    const ref = await findDrawing(ann.json, 'sample_2018.dwg')
    const units = { system: 'imperial', drawingUnits: 'mm' }
    const response = await postExtract(ann, { ...extractBody(ref), units })
    expect(response.status).toBe(202)
    const queued = (await response.json()) as Job
    expect(queued.units).toEqual(units)
    const done = await waitForJob(ann, queued.id)
    expect(done).toMatchObject({ status: 'succeeded', units })
    const listed = await ann.json<{ data: Job[] }>('/api/boq/jobs')
    expect(listed.data.find((j) => j.id === done.id)?.units).toEqual(units)
    expect(listed.data.find((j) => j.id === first.id)?.units).toBeNull()

    // The engine got the choice: the bill of this metric drawing is in feet; without one, in metres.
    const chosen = billUnits(await (await ann(done.result?.csvUrl ?? '')).text())
    expect(chosen).toContain('ft')
    expect(chosen.every((unit) => ['nr', 'ft', 'ft²'].includes(unit))).toBe(true)
    const byDrawing = billUnits(await (await ann(first.result?.csvUrl ?? '')).text())
    expect(byDrawing).toContain('m')
    expect(byDrawing.every((unit) => ['nr', 'm', 'm²'].includes(unit))).toBe(true)
  })

  it('refuses a POST without the anti-forgery header (403), queuing nothing', async () => {
    const before = (await ann.json<{ data: Job[] }>('/api/boq/jobs')).data.length
    for (const header of ['', 'forged']) {
      const response = await postExtract(ann, extractBody(drawing), { 'x-xsrf-token': header })
      expect(response.status).toBe(403)
      expect(await response.text()).toMatch(/X-XSRF-TOKEN/)
    }
    expect((await ann.json<{ data: Job[] }>('/api/boq/jobs')).data).toHaveLength(before)
  })

  it('fails a corrupt drawing with a clear reason and keeps serving', async () => {
    const response = await postExtract(ann, extractBody(broken))
    expect(response.status).toBe(202)
    const failed = await waitForJob(ann, ((await response.json()) as Job).id)
    expect(failed.status).toBe('failed')
    // A folder below a top folder: the whole chain, top folder first (the seed's Architecture).
    const [topFolder] = await findItems(ann.json, (name) => name === 'example_2018.dwg')
    expect(failed).toMatchObject({
      fileVersionNumber: 1,
      folder: {
        name: 'Architecture',
        hubId: broken.hubId,
        path: [topFolder?.folderId, broken.folderId],
      },
    })
    expect(failed.error).toMatch(/^Could not extract the BOQ of broken\.dwg: \w.*\.$/)
    expect(failed.error).not.toMatch(/Error:|at .*\.ts/)
    expect(failed.result).toBeUndefined()
    expect((await ann(`/api/boq/jobs/${failed.id}/result.xlsx`)).status).toBe(404)

    expect((await ann('/api/aps/hubs')).status).toBe(200)
    const after = await postExtract(ann, extractBody(drawing))
    expect((await waitForJob(ann, ((await after.json()) as Job).id)).status).toBe('succeeded')
  })

  it('refuses more queued jobs per user than BOQ_MAX_QUEUED_PER_USER with 429', async () => {
    const refs = [
      drawing,
      await findDrawing(ann.json, 'sample_2018.dwg'),
      await findDrawing(ann.json, 'sample_2000.dwg'),
      broken,
    ]
    const answers = await Promise.all(refs.map((ref) => postExtract(bob, extractBody(ref))))
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s === 202)).toHaveLength(3)
    const refused = answers[statuses.indexOf(429)]
    expect(refused).toBeDefined()
    expect(await refused?.text()).toMatch(/limit is 3/)
    for (const answer of answers.filter((a) => a.status === 202)) {
      await waitForJob(bob, ((await answer.json()) as Job).id)
    }
    // Room again once they are done.
    expect((await postExtract(bob, extractBody(refs[3] as DrawingRef))).status).toBe(202)
  })
})
