import { readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Job } from '#contract/jobs.ts'
import { LocationsPreviewSchema } from '#contract/locations-preview.ts'
import { createClient, type TestClient } from '../testing/client.ts'
import { findDrawing, makeSeedDir } from '../testing/jobs/drawings.ts'
import { extractBody, postExtract, waitForJob } from '../testing/jobs/jobs-api.ts'
import { startSeveralUsersServer } from '../testing/jobs/several-users.ts'
import {
  FLOOR_PLAN_ROOMS,
  floorPlanDxf,
  floorPlanWithFaultsDxf,
} from '../testing/rules/floor-plan.ts'
import type { TestServer } from '../testing/start-test-server.ts'

// A locations table tried on a finished job's drawing over real HTTP on loopback: real sign-in,
// the local cloud, a real extraction and the real engine reading the drawing again.

const ROOMS = { layer: 'A-AREA', label: 'text' }

let server: TestServer
let seedDir: string
let ann: TestClient
let bob: TestClient
let job: Job
let spare: Job
let faulty: Job

beforeAll(async () => {
  seedDir = await makeSeedDir([])
  const longAgo = new Date('2020-01-01T00:00:00Z')
  const drawings = {
    'floor-plan.dwg': floorPlanDxf(),
    'spare-plan.dwg': floorPlanDxf(),
    'faulty-plan.dwg': floorPlanWithFaultsDxf(),
  }
  for (const [name, dxf] of Object.entries(drawings)) {
    // A DXF under a drawing's name: the engine reads it by its content.
    await writeFile(join(seedDir, name), dxf)
    await utimes(join(seedDir, name), longAgo, longAgo)
  }
  const started = await startSeveralUsersServer('boq-locations-preview-', seedDir, {
    BOQ_WORKERS: '1',
  })
  server = started.server
  ann = await started.signInAs(server.url, 'ann')
  bob = await started.signInAs(server.url, 'bob')
  const extract = async (name: string) => {
    const response = await postExtract(ann, extractBody(await findDrawing(ann.json, name)))
    return waitForJob(ann, ((await response.json()) as Job).id)
  }
  job = await extract('floor-plan.dwg')
  spare = await extract('spare-plan.dwg')
  faulty = await extract('faulty-plan.dwg')
}, 90_000)

afterAll(async () => {
  await server?.close()
  await rm(server?.dataDir ?? '', { recursive: true, force: true })
  await rm(seedDir, { recursive: true, force: true })
})

const preview = (client: TestClient, id: string, body: unknown) =>
  client(`/api/boq/jobs/${id}/locations-preview`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })

async function answer(response: Response) {
  return { status: response.status, body: await response.text() }
}

describe('POST /api/boq/jobs/{id}/locations-preview over HTTP', () => {
  it('answers the zones the rows find in the drawing, their figures, and what each row found', async () => {
    expect(job.status).toBe('succeeded')
    const response = await preview(ann, job.id, {
      locations: [ROOMS, { layer: 'Furniture', label: 'layer' }],
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const found = v.parse(LocationsPreviewSchema, await response.json())
    expect(found.jobId).toBe(job.id)
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name)
    expect(found.units).toEqual({ length: 'm', area: 'm²' })
    expect(
      found.zones
        .map((z) => ({
          name: z.name,
          path: z.path,
          layer: z.layer,
          area: z.area,
          perimeter: z.perimeter,
          label: z.label.source,
          row: z.row,
        }))
        .sort(byName),
    ).toEqual(
      [...FLOOR_PLAN_ROOMS].sort(byName).map((room) => ({
        name: room.name,
        path: room.name,
        layer: 'A-AREA',
        area: expect.closeTo(room.area, 9),
        perimeter: expect.closeTo(room.perimeter, 9),
        label: 'text',
        row: 1,
      })),
    )
    // Chairs are block references, no outline: the second row finds nothing, and says why.
    expect(found.rows).toEqual([
      { row: 1, layer: 'A-AREA', zones: 3, unnamed: 0, warnings: [] },
      {
        row: 2,
        layer: 'Furniture',
        zones: 0,
        unnamed: 0,
        warnings: ['Found no zone: no closed outline on its layers (Furniture).'],
      },
    ])
    expect(found.warnings).toEqual([])
  })

  it('gives each row its own warnings: an open outline on one row, an unnamed zone on another', async () => {
    expect(faulty.status).toBe('succeeded')
    const response = await preview(ann, faulty.id, {
      locations: [ROOMS, { layer: 'A-SPACE', label: 'text' }, { layer: 'A-TEXT', label: 'layer' }],
    })
    expect(response.status).toBe(200)
    const found = v.parse(LocationsPreviewSchema, await response.json())
    expect(found.rows).toEqual([
      {
        row: 1,
        layer: 'A-AREA',
        zones: 3,
        unnamed: 0,
        warnings: ['1 outline on zone layer A-AREA is not closed: not a zone.'],
      },
      {
        row: 2,
        layer: 'A-SPACE',
        zones: 1,
        unnamed: 1,
        warnings: ['1 zone has no label inside: named Unnamed zone 1.'],
      },
      {
        row: 3,
        layer: 'A-TEXT',
        zones: 0,
        unnamed: 0,
        warnings: ['Found no zone: no closed outline on its layers (A-TEXT).'],
      },
    ])
    expect(found.zones.find((z) => z.row === 2)).toMatchObject({
      name: 'Unnamed zone 1',
      layer: 'A-SPACE',
      area: expect.closeTo(6, 9),
    })
    // What the rows say is not said again in the list of the read's own warnings.
    expect(found.warnings).toEqual([])
  })

  it('names zones it finds no label for, and says so in its warnings', async () => {
    const response = await preview(ann, job.id, {
      locations: [{ ...ROOMS, labelLayer: 'NO-SUCH-LAYER' }],
    })
    expect(response.status).toBe(200)
    const found = v.parse(LocationsPreviewSchema, await response.json())
    expect(found.zones.map((z) => [z.name, z.label.source])).toEqual([
      ['Unnamed zone 1', 'none'],
      ['Unnamed zone 2', 'none'],
      ['Unnamed zone 3', 'none'],
    ])
    expect(found.rows).toEqual([
      {
        row: 1,
        layer: 'A-AREA',
        zones: 3,
        unnamed: 3,
        warnings: [
          '3 zones have no label inside: named Unnamed zone 1, Unnamed zone 2, Unnamed zone 3.',
          'No text is on a layer matching its label layer NO-SUCH-LAYER: no zone of this row is named from it.',
        ],
      },
    ])
    expect(found.warnings).toEqual([])
  })

  it('answers no zones for no rows, without reading the drawing', async () => {
    const found = v.parse(
      LocationsPreviewSchema,
      await (await preview(ann, job.id, { locations: [] })).json(),
    )
    expect(found.zones).toEqual([])
    expect(found.rows).toEqual([])
  })

  it('refuses rows that cannot find zones with 400 naming the row, as a save does', async () => {
    expect(
      await answer(
        await preview(ann, job.id, { locations: [ROOMS, { layer: 'A', label: 'room' }] }),
      ),
    ).toEqual({ status: 400, body: "Row 2: label 'room' is not text, attribute:TAG or layer." })
    expect(
      await answer(
        await preview(ann, job.id, { locations: [{ layer: 'ROOMS\\', label: 'layer' }] }),
      ),
    ).toEqual({ status: 400, body: "Row 1: layer: 'ROOMS\\' ends with an escape (\\)." })
    expect(await answer(await preview(ann, job.id, [ROOMS]))).toEqual({
      status: 400,
      body: 'The request body must be a JSON object: {"locations": [...]}.',
    })
    expect(await answer(await preview(ann, job.id, 'not json'))).toEqual({
      status: 400,
      body: 'The request body must be JSON: {"locations": [...]}.',
    })
    expect((await preview(ann, job.id, { locations: Array(1001).fill(ROOMS) })).status).toBe(400)
  })

  it("answers 404 for another person's job or none, and 401 without a session", async () => {
    expect(await answer(await preview(bob, job.id, { locations: [ROOMS] }))).toEqual({
      status: 404,
      body: 'There is no such job.',
    })
    expect((await preview(ann, 'no-such-job', { locations: [ROOMS] })).status).toBe(404)
    // No session, its anti-forgery token sent as the app sends it.
    const anonymous = createClient(server.url)
    await anonymous('/api/aps/auth/token')
    expect((await preview(anonymous, job.id, { locations: [ROOMS] })).status).toBe(401)
  })

  it('answers 422 for a version that can no longer be read and 404 for one gone from the cloud', async () => {
    const files = await cloudFiles(join(server.dataDir, 'cloud'), 'spare-plan.dwg')
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) await writeFile(file, 'AC1032 not a drawing at all')
    const unreadable = await answer(await preview(ann, spare.id, { locations: [ROOMS] }))
    expect(unreadable.status).toBe(422)
    expect(unreadable.body).toMatch(/^The drawing this job read can no longer be read: .+\.$/)
    for (const file of files) await rm(file)
    expect(await answer(await preview(ann, spare.id, { locations: [ROOMS] }))).toEqual({
      status: 404,
      body: 'The drawing version this job read is no longer in the cloud, so its zones cannot be found.',
    })
  }, 60_000)
})

/** Every file of the item `name` under `dir`: the item's own and its versions' copies. */
async function cloudFiles(dir: string, name: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter(
      (e) =>
        e.isFile() &&
        (e.name === name || (basename(e.parentPath) === name && /^v\d+\./.test(e.name))),
    )
    .map((e) => join(e.parentPath, e.name))
}
