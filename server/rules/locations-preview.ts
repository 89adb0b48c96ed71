import { type Context, Hono } from 'hono'
import * as v from 'valibot'
import type { LocationRow, Zone } from '#contract/locations.ts'
import type { LocationsPreview, PreviewRow, PreviewZone } from '#contract/locations-preview.ts'
import { MAX_RULES_FILE_BYTES } from '#contract/takeoff-rules.ts'
import type { WithCloud } from '../auth/cloud-access.ts'
import type { RowFindings } from '../boq/locations/row-problems.ts'
import { checkedLocations } from '../boq/locations/table.ts'
import type { CloudBackend, CloudContext } from '../cloud/types.ts'
import { AppError } from '../errors.ts'
import { checkedBody, limitBody } from '../http/body.ts'
import { noStore } from '../http/response-headers.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import type { Extractor } from '../jobs/extractor.ts'
import { isBoqError, tooLargeMessage } from '../jobs/failure.ts'
import type { PerUserLimit } from '../jobs/per-user-limit.ts'
import type { JobRecord, JobStore } from '../jobs/types.ts'
import { userJob } from '../jobs/user-job.ts'
import { locationsFromBody } from './locations-body.ts'
import type { VisibleProject } from './project-access.ts'

export interface LocationsPreviewOptions {
  store: JobStore
  cloud: CloudBackend
  withCloud: WithCloud
  /** The engine the extractions use: the drawing is read in the pool's drawings lane. */
  extractor: Extractor
  /** Where the rows sent are checked, as a save of the locations checks them. */
  bills: BillPool
  /** A preview reads a drawing: it counts among a person's heavy requests. */
  heavy: PerUserLimit
  visibleProject: VisibleProject
  maxFileBytes: number
}

/** The rows as a PUT of the locations sends them; each row is checked by the bill pool after. */
const PreviewRequestSchema = v.object({ locations: v.array(v.unknown()) })

/** What the engine writes as its `zones` file. */
type ZonesFile = {
  units: { length: string; area: string }
  zones: Zone[]
  warnings: string[]
  /** Each row's problems, and which of `warnings` they say again. */
  byRow?: RowFindings
}

/**
 * POST /jobs/{id}/locations-preview `{locations: [...]}`: the zones a locations table not yet
 * saved finds in the drawing version a finished job read. The version is downloaded again and
 * read by the engine with the table, as an extraction reads it (off the thread answering
 * requests); the answer is the zones, what each row found and the read's warnings, nothing kept.
 * Only the job's owner may, while they can still see its project.
 */
export function locationsPreviewRoutes(options: LocationsPreviewOptions): Hono {
  const { store, cloud, withCloud, extractor, bills, heavy, visibleProject, maxFileBytes } = options
  const routes = new Hono()

  routes.post(
    '/jobs/:id/locations-preview',
    limitBody(MAX_RULES_FILE_BYTES + 1024, 'The locations sent are larger than a table can be.'),
    async (c) => {
      const answer = await withCloud(c, async (ctx) => {
        const job = await finishedJob(c, ctx)
        const { locations } = checkedBody(PreviewRequestSchema, await c.req.text(), {
          shape: '{"locations": [...]}',
        })
        return heavy.one(job.userId, async () => {
          const body = new TextEncoder().encode(JSON.stringify({ locations }))
          const rows = await locationsFromBody(bills, body, 'application/json')
          // No row finds no zone: the drawing need not be read to say so.
          if (rows.length === 0) return previewOf(job, rows, null)
          const bytes = await drawingOf(job, ctx)
          return previewOf(job, rows, await zonesIn(job, bytes, rows))
        })
      })
      noStore(c)
      return c.json(answer)
    },
  )

  /** The user's own succeeded job, in a project they still see (404 else, as for a missing job). */
  async function finishedJob(c: Context, ctx: CloudContext): Promise<JobRecord> {
    const job = await userJob(store, ctx.user.userId, c.req.param('id'))
    if (job.status !== 'succeeded') throw new AppError(404, 'This job has no result yet.')
    await visibleProject(ctx, job.projectId)
    return job
  }

  /** The drawing version the job read, from the cloud, in the drawing view's words when gone. */
  async function drawingOf(job: JobRecord, ctx: CloudContext): Promise<Uint8Array> {
    let bytes: Uint8Array
    try {
      const size = await cloud.storageSize(ctx, job.projectId, job.fileStorageId)
      if (size > maxFileBytes) throw new AppError(413, tooLargeMessage(size, maxFileBytes))
      bytes = await cloud.download(ctx, job.projectId, job.fileStorageId)
    } catch (error) {
      if (error instanceof AppError && error.status === 404) {
        throw new AppError(
          404,
          'The drawing version this job read is no longer in the cloud, so its zones cannot be found.',
        )
      }
      throw error
    }
    if (bytes.byteLength > maxFileBytes) {
      throw new AppError(413, tooLargeMessage(bytes.byteLength, maxFileBytes))
    }
    return bytes
  }

  async function zonesIn(
    job: JobRecord,
    bytes: Uint8Array,
    locations: LocationRow[],
  ): Promise<ZonesFile> {
    let file: Uint8Array
    try {
      file = await extractor.zones({ bytes, fileName: job.fileName, locations })
    } catch (error) {
      if (!isBoqError(error)) throw error
      const reason = error.message.trim().replace(/[.\s]*$/, '')
      throw new AppError(422, `The drawing this job read can no longer be read: ${reason}.`)
    }
    return JSON.parse(new TextDecoder().decode(file)) as ZonesFile
  }

  return routes
}

/**
 * The answer: every zone with the row that took it, each row's counts and problems, and the
 * read's warnings that no row says.
 */
function previewOf(job: JobRecord, rows: LocationRow[], found: ZonesFile | null): LocationsPreview {
  const compiled = checkedLocations(rows).rows
  // An outline takes the first row whose layer glob matches its layer, as the engine takes it.
  const rowOfLayer = new Map<string, number>()
  const rowOf = (layer: string) => {
    let row = rowOfLayer.get(layer)
    if (row === undefined) {
      row = compiled.find((entry) => entry.layer.test(layer))?.row ?? 0
      rowOfLayer.set(layer, row)
    }
    return row
  }
  const counts: PreviewRow[] = compiled.map((entry) => ({
    row: entry.row,
    layer: entry.layer.source,
    zones: 0,
    unnamed: 0,
    warnings: [],
  }))
  for (const problem of found?.byRow?.problems ?? [])
    counts[problem.row - 1]?.warnings.push(problem.message)
  const detailed = new Set(found?.byRow?.detailed)
  const zones: PreviewZone[] = (found?.zones ?? []).map((zone) => {
    const row = rowOf(zone.layer)
    const count = counts[row - 1]
    if (count) {
      count.zones++
      if (zone.label.source === 'none') count.unnamed++
    }
    return {
      id: zone.id,
      name: zone.name,
      path: zone.path,
      layer: zone.layer,
      area: zone.area,
      perimeter: zone.perimeter,
      label:
        zone.label.tag === undefined
          ? { source: zone.label.source }
          : { source: zone.label.source, tag: zone.label.tag },
      row,
    }
  })
  return {
    jobId: job.id,
    units: found?.units ?? { length: '', area: '' },
    zones,
    rows: counts,
    warnings: (found?.warnings ?? []).filter((warning) => !detailed.has(warning)),
  }
}
