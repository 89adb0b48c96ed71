import { Readable } from 'node:stream'
import { createGunzip } from 'node:zlib'
import { type Context, Hono } from 'hono'
import { GEOMETRY_CONTENT_TYPE } from '#contract/drawing-geometry.ts'
import type { WithCloud } from '../auth/cloud-access.ts'
import { printable } from '../cloud/names.ts'
import type { CloudBackend } from '../cloud/types.ts'
import { AppError } from '../errors.ts'
import { limitBody } from '../http/body.ts'
import { contentDisposition, noStore } from '../http/response-headers.ts'
import type { BillPool } from './bill-pool.ts'
import { changeBillCache } from './change-bill.ts'
import { CONTENT_TYPES } from './content-types.ts'
import { tooLargeMessage } from './failure.ts'
import type { GeometryBuilds } from './geometry-builds.ts'
import { toJobJson } from './job-json.ts'
import type { PerUserLimit } from './per-user-limit.ts'
import { resultFileName } from './result-name.ts'
import { sameDrawing } from './same-drawing.ts'
import type { JobRecord, JobStore } from './types.ts'
import { userJob } from './user-job.ts'
import { parseExtractRequest } from './validate.ts'

export interface JobsRoutesOptions {
  store: JobStore
  cloud: CloudBackend
  /**
   * Runs `fn` with the signed-in user's CloudContext (server/auth's CloudAccess.run: 401 without a
   * session; refreshes and retries once when the cloud refuses the token).
   */
  withCloud: WithCloud
  maxFileBytes: number
  maxQueuedPerUser: number
  /** Where change bills are made, off the thread answering requests. */
  bills: BillPool
  /** How many heavy requests (change bills, pricing) each user may have running at once. */
  heavy: PerUserLimit
  /** Builds the geometry of a succeeded job kept without it. */
  geometries: GeometryBuilds
}

/** How long the browser may keep a job's geometry (a day: a job's result never changes). */
const GEOMETRY_MAX_AGE_S = 24 * 60 * 60

/**
 * POST /extract, GET /jobs, /jobs/{id}, /jobs/{id}/result.{xlsx,csv,json}, /jobs/{id}/geometry,
 * /compare; mounted under /api/boq.
 */
export function jobsRoutes(options: JobsRoutesOptions): Hono {
  const { store, cloud, withCloud, bills, heavy, geometries } = options
  const changeBills = changeBillCache(bills, store)
  const userIdOf = (c: Context) => withCloud(c, async (ctx) => ctx.user.userId)
  const routes = new Hono()

  routes.post(
    '/extract',
    limitBody(16 * 1024, 'The request body is too large for an extraction request.'),
    async (c) => {
      const text = await c.req.text()
      const { job, created } = await withCloud(c, async (ctx) => {
        // Sign-in first (401), then the body (400), then what only the cloud knows
        // (403/404, the version's own name 400, 413).
        const request = parseExtractRequest(text)
        await cloud.checkFolder(ctx, request.projectId, request.fileFolderId)
        const { projectId, fileStorageId, fileFolderId, fileName } = request
        // Independent questions to the cloud, asked together; answered in the order above.
        // What the job card shows and the tree opens is learnt now too, while it is cheap.
        const [size, version, place] = await Promise.allSettled([
          cloud.storageSize(ctx, projectId, fileStorageId),
          cloud.storedVersion(ctx, projectId, fileStorageId, { folderId: fileFolderId, fileName }),
          cloud.locate(ctx, request),
        ])
        const bytes = settled(size)
        const own = settled(version)
        // The BOQ is written back as `<name> BOQ.xlsx`: the name must be the drawing's own.
        if (own?.name !== fileName) throw new AppError(400, nameMismatch(fileName, own?.name))
        if (own.stillArriving) throw new AppError(409, stillArriving(fileName))
        if (bytes > options.maxFileBytes) {
          throw new AppError(413, tooLargeMessage(bytes, options.maxFileBytes))
        }
        // The job runs after this request has ended: it keeps the context (sealed in the store).
        return store.submit(
          {
            ...request,
            ...settled(place),
            fileVersionNumber: own.versionNumber,
            context: ctx,
          },
          { maxActivePerUser: options.maxQueuedPerUser },
        )
      })
      noStore(c)
      return c.json(toJobJson(job), created ? 202 : 200)
    },
  )

  routes.get('/jobs', async (c) => {
    const jobs = await store.listByUser(await userIdOf(c))
    noStore(c)
    return c.json({ data: jobs.map(toJobJson) })
  })

  routes.get('/jobs/:id', async (c) => {
    const job = await ownJob(c)
    noStore(c)
    return c.json(toJobJson(job))
  })

  for (const format of ['xlsx', 'csv', 'json'] as const) {
    routes.get(`/jobs/:id/result.${format}`, async (c) => {
      const job = await ownJob(c)
      const bytes = job.status === 'succeeded' ? await store.readResult(job.id, format) : undefined
      if (!bytes) {
        throw new AppError(
          404,
          job.status === 'failed'
            ? 'This job failed, so it has no result.'
            : 'This job has no result yet.',
        )
      }
      const name = resultFileName(job.fileName, format)
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': CONTENT_TYPES[format],
        'Content-Disposition': contentDisposition(name),
        'Cache-Control': 'private, no-store',
      })
    })
  }

  // The drawing's geometry the engine built with the bill, for the app to draw beside it: binary
  // (contract/drawing-geometry.ts), kept gzip-compressed and sent so to a browser that takes gzip
  // (every one: compressing 8 MB at each view would cost the server about 0.2 s), unpacked for
  // any other client. A job kept without it has it built now, from the drawing version it read,
  // and kept. A job's result never changes, so the browser may keep it (privately: it is the
  // user's).
  routes.get('/jobs/:id/geometry', async (c) => {
    const kept = await withCloud(c, async (ctx) => {
      const job = await userJob(store, ctx.user.userId, c.req.param('id'))
      if (job.status !== 'succeeded') throw new AppError(404, 'This job has no result yet.')
      return (await store.readResult(job.id, 'geometry')) ?? geometries.of(job, ctx)
    })
    const gzip = /\bgzip\b/i.test(c.req.header('accept-encoding') ?? '')
    // Unpacked as it is sent (zlib's own threads), never whole on the thread answering requests.
    const body = gzip
      ? (kept as Uint8Array<ArrayBuffer>)
      : (Readable.toWeb(Readable.from([kept]).pipe(createGunzip())) as ReadableStream<Uint8Array>)
    return c.body(body, 200, {
      'Content-Type': GEOMETRY_CONTENT_TYPE,
      ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
      Vary: 'Accept-Encoding',
      'Cache-Control': `private, max-age=${GEOMETRY_MAX_AGE_S}`,
    })
  })

  // The change bill between two of the user's finished jobs: JSON, or `format=xlsx|csv` to download.
  routes.get('/compare', async (c) => {
    const userId = await userIdOf(c)
    if (!c.req.query('from') || !c.req.query('to')) {
      throw new AppError(400, 'Name the two jobs to compare: ?from={jobId}&to={jobId}.')
    }
    const [from, to] = await Promise.all([
      userJob(store, userId, c.req.query('from')),
      userJob(store, userId, c.req.query('to')),
    ])
    const format = c.req.query('format') ?? 'json'
    if (format !== 'json' && format !== 'xlsx' && format !== 'csv') {
      throw new AppError(400, 'format must be json, xlsx or csv.')
    }
    const bytes = await heavy.one(userId, () => changeBills.of(from, to, format))
    noStore(c)
    if (format === 'json') {
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': 'application/json' })
    }
    const stem = (job: JobRecord) => job.fileName.replace(/\.dwg$/i, '')
    // Versions of one drawing are named after it; two drawings after both.
    const name = sameDrawing(from, to)
      ? `${stem(from)} changes ${versionName(from)} to ${versionName(to)}.${format}`
      : `${stem(from)} ${versionName(from)} to ${stem(to)} ${versionName(to)} changes.${format}`
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': CONTENT_TYPES[format],
      'Content-Disposition': contentDisposition(name),
    })
  })

  /** The job when it belongs to the signed-in user; another user's job is as unknown as a missing one. */
  async function ownJob(c: Context): Promise<JobRecord> {
    return userJob(store, await userIdOf(c), c.req.param('id'))
  }

  return routes
}

/** The value of a settled promise, or its error thrown. */
function settled<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'rejected') throw result.reason
  return result.value
}

/** Why a fileName is not the version's own (both names with invisible characters escaped). */
function nameMismatch(given: string, own: string | undefined): string {
  return own === undefined
    ? `fileName must be the version's own name; no drawing named ${printable(given)} in this folder has this version.`
    : `fileName must be the version's own name, ${printable(own)}; got ${printable(given)}.`
}

function stillArriving(fileName: string): string {
  return `${printable(fileName)} is still being copied into the folder: extract it once the copy is whole.`
}

/** `v3`, or the job's id when the version number is not known. */
function versionName(job: JobRecord): string {
  return job.fileVersionNumber === undefined ? job.id.slice(0, 8) : `v${job.fileVersionNumber}`
}
