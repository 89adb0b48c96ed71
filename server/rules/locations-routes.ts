import { type Context, Hono } from 'hono'
import type { LocationsDocument } from '#contract/locations-api.ts'
import { MAX_RULES_FILE_BYTES } from '#contract/takeoff-rules.ts'
import type { WithCloud } from '../auth/cloud-access.ts'
import { AppError } from '../errors.ts'
import { limitBody } from '../http/body.ts'
import { contentDisposition, noStore } from '../http/response-headers.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import { CONTENT_TYPES } from '../jobs/content-types.ts'
import type { PerUserLimit } from '../jobs/per-user-limit.ts'
import { locationsFromBody } from './locations-body.ts'
import { locationsCsv, locationsXlsx } from './locations-export.ts'
import type { VisibleProject } from './project-access.ts'
import { heldVersion } from './rules-body.ts'
import { conflictMessage, noSuchVersion, versionOf } from './rules-routes.ts'
import type { RulesStore, SavedLocations } from './store/types.ts'

export interface LocationsRoutesOptions {
  store: RulesStore
  withCloud: WithCloud
  visibleProject: VisibleProject
  /** Where a table sent is read and checked, off the thread answering requests. */
  bills: BillPool
  /** Reading a table counts among a person's heavy requests (429 past their share). */
  heavy: PerUserLimit
}

/**
 * GET/PUT /projects/{projectId}/locations (JSON, or a CSV/XLSX file to export or import),
 * …/history and …/history/{version}: which closed outlines of the project's drawings are zones
 * and where their names come from, versioned as the rules are, read and changed by anyone who
 * can see the project. A save names the version it replaces (If-Match).
 */
export function locationsRoutes(options: LocationsRoutesOptions): Hono {
  const { store, withCloud, visibleProject, bills, heavy } = options
  const routes = new Hono()
  const path = '/projects/:projectId/locations'

  routes.get(path, async (c) => {
    const { project, saved } = await withCloud(c, async (ctx) => {
      const project = await visibleProject(ctx, projectIdOf(c))
      return { project, saved: await store.locations(projectIdOf(c)) }
    })
    const format = c.req.query('format') ?? 'json'
    noStore(c)
    c.header('ETag', `"${saved?.version ?? 0}"`)
    if (format === 'json') return c.json(documentOf(saved))
    if (format !== 'csv' && format !== 'xlsx') {
      throw new AppError(400, 'format must be json, csv or xlsx.')
    }
    const rows = saved?.rows ?? []
    const bytes = format === 'csv' ? locationsCsv(rows) : await locationsXlsx(rows)
    const name = `${project.name} locations v${saved?.version ?? 0}.${format}`
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': CONTENT_TYPES[format],
      'Content-Disposition': contentDisposition(name),
    })
  })

  routes.get(`${path}/history`, async (c) => {
    const history = await withCloud(c, async (ctx) => {
      await visibleProject(ctx, projectIdOf(c))
      return store.locationsHistory(projectIdOf(c))
    })
    noStore(c)
    return c.json(history)
  })

  // One saved version, read-only (the app shows it, and restores it by a PUT of its rows).
  routes.get(`${path}/history/:version`, async (c) => {
    const saved = await withCloud(c, async (ctx) => {
      await visibleProject(ctx, projectIdOf(c))
      const version = versionOf(c.req.param('version'))
      return version && (await store.savedLocations(projectIdOf(c), version))
    })
    if (!saved) throw noSuchVersion('locations')
    noStore(c)
    c.header('ETag', `"${saved.version}"`)
    return c.json(documentOf(saved))
  })

  routes.put(
    path,
    limitBody(
      MAX_RULES_FILE_BYTES,
      `The locations table is larger than ${MAX_RULES_FILE_BYTES / 1024 / 1024} MB; that is more than a table can be.`,
    ),
    async (c) => {
      const projectId = projectIdOf(c)
      const outcome = await withCloud(c, async (ctx) => {
        // Who first (401), then which project (404), then what is asked (428, 400).
        await visibleProject(ctx, projectId)
        const held = heldVersion(c.req.header('if-match'), 'locations')
        const bytes = new Uint8Array(await c.req.arrayBuffer())
        const rows = await heavy.one(ctx.user.userId, () =>
          locationsFromBody(bills, bytes, c.req.header('content-type')),
        )
        const by = ctx.user.name || ctx.user.userId
        return { held, result: await store.saveLocations(projectId, held, rows, by) }
      })
      if ('conflict' in outcome.result) {
        throw new AppError(412, conflictMessage('locations', outcome.held, outcome.result.conflict))
      }
      noStore(c)
      c.header('ETag', `"${outcome.result.saved.version}"`)
      return c.json(documentOf(outcome.result.saved))
    },
  )

  return routes
}

function documentOf(saved: SavedLocations | undefined): LocationsDocument {
  return {
    version: saved?.version ?? 0,
    savedBy: saved?.savedBy ?? null,
    savedAt: saved?.savedAt ?? null,
    locations: saved?.rows ?? [],
  }
}

function projectIdOf(c: Context): string {
  return c.req.param('projectId') ?? ''
}
