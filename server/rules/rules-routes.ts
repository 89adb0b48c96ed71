import { type Context, Hono } from 'hono'
import { MAX_RULES_FILE_BYTES } from '#contract/takeoff-rules.ts'
import type { ClassificationDocument, RulesDocument } from '#contract/takeoff-rules-api.ts'
import type { WithCloud } from '../auth/cloud-access.ts'
import { AppError } from '../errors.ts'
import { limitBody } from '../http/body.ts'
import { contentDisposition, noStore } from '../http/response-headers.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import { CONTENT_TYPES } from '../jobs/content-types.ts'
import type { PerUserLimit } from '../jobs/per-user-limit.ts'
import type { VisibleProject } from './project-access.ts'
import { type DocumentKind, heldVersion, LIST_KEY, NOUN, tableFromBody } from './rules-body.ts'
import { tableCsv, tableXlsx } from './rules-export.ts'
import type { RulesKind, RulesStore, SavedMeta, SavedRules } from './store/types.ts'

export interface RulesRoutesOptions {
  store: RulesStore
  withCloud: WithCloud
  visibleProject: VisibleProject
  /** Where a table sent is read and checked, off the thread answering requests. */
  bills: BillPool
  /** Reading a table counts among a person's heavy requests (429 past their share). */
  heavy: PerUserLimit
}

/** The document in a sentence. */
const THESE = {
  rules: 'these rules',
  classification: 'this classification',
  'bill-settings': 'these bill settings',
  locations: 'these locations',
} as const
const NONE_SAVED = {
  rules: 'No rules have',
  classification: 'No classification has',
  'bill-settings': 'No bill settings have',
  locations: 'No locations have',
} as const

/**
 * GET/PUT /projects/{projectId}/rules and …/classification (JSON, or a CSV/XLSX file to export
 * or import), and …/history: anyone who can see the project reads and changes them. A save names
 * the version it replaces (If-Match), so a colleague's save in between is refused, never lost.
 */
export function rulesRoutes(options: RulesRoutesOptions): Hono {
  const { store, withCloud, visibleProject, bills, heavy } = options
  const routes = new Hono()

  for (const kind of ['rules', 'classification'] as const) {
    const path = `/projects/:projectId/${kind}`

    routes.get(path, async (c) => {
      const { project, saved } = await withCloud(c, async (ctx) => {
        const project = await visibleProject(ctx, projectIdOf(c))
        return { project, saved: await store.rules(projectIdOf(c), kind) }
      })
      const format = c.req.query('format') ?? 'json'
      noStore(c)
      c.header('ETag', `"${saved?.version ?? 0}"`)
      if (format === 'json') return c.json(documentOf(kind, saved))
      if (format !== 'csv' && format !== 'xlsx') {
        throw new AppError(400, 'format must be json, csv or xlsx.')
      }
      const rows = saved?.rows ?? []
      const bytes = format === 'csv' ? tableCsv(kind, rows) : await tableXlsx(kind, rows)
      const name = `${project.name} ${NOUN[kind]} v${saved?.version ?? 0}.${format}`
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': CONTENT_TYPES[format],
        'Content-Disposition': contentDisposition(name),
      })
    })

    routes.get(`${path}/history`, async (c) => {
      const history = await withCloud(c, async (ctx) => {
        await visibleProject(ctx, projectIdOf(c))
        return store.rulesHistory(projectIdOf(c), kind)
      })
      noStore(c)
      return c.json(history)
    })

    // One saved version, read-only (the app opens it, and restores it as a new version by a PUT
    // of its rows); 404 for a version never saved, as for a project the person cannot see.
    routes.get(`${path}/history/:version`, async (c) => {
      const saved = await withCloud(c, async (ctx) => {
        await visibleProject(ctx, projectIdOf(c))
        const version = versionOf(c.req.param('version'))
        return version && (await store.savedRules(projectIdOf(c), kind, version))
      })
      if (!saved) throw noSuchVersion(kind)
      noStore(c)
      c.header('ETag', `"${saved.version}"`)
      return c.json(documentOf(kind, saved))
    })

    routes.put(
      path,
      limitBody(
        MAX_RULES_FILE_BYTES,
        `The ${NOUN[kind]} table is larger than ${MAX_RULES_FILE_BYTES / 1024 / 1024} MB; that is more than a table can be.`,
      ),
      async (c) => {
        const projectId = projectIdOf(c)
        const outcome = await withCloud(c, async (ctx) => {
          // Who first (401), then which project (404), then what is asked (428, 400).
          await visibleProject(ctx, projectId)
          const held = heldVersion(c.req.header('if-match'), kind)
          const bytes = new Uint8Array(await c.req.arrayBuffer())
          const rows = await heavy.one(ctx.user.userId, () =>
            tableFromBody(bills, kind, bytes, c.req.header('content-type')),
          )
          const by = ctx.user.name || ctx.user.userId
          return { held, result: await store.saveRules(projectId, kind, held, rows, by) }
        })
        if ('conflict' in outcome.result) {
          throw new AppError(412, conflictMessage(kind, outcome.held, outcome.result.conflict))
        }
        noStore(c)
        c.header('ETag', `"${outcome.result.saved.version}"`)
        return c.json(documentOf(kind, outcome.result.saved))
      },
    )
  }

  return routes
}

function documentOf(
  kind: RulesKind,
  saved: SavedRules | undefined,
): RulesDocument | ClassificationDocument {
  return {
    version: saved?.version ?? 0,
    savedBy: saved?.savedBy ?? null,
    savedAt: saved?.savedAt ?? null,
    [LIST_KEY[kind]]: saved?.rows ?? [],
  } as RulesDocument | ClassificationDocument
}

/** Why a save was refused, in words: who saved the version there is now, and when (UTC). */
export function conflictMessage(
  kind: DocumentKind,
  held: number,
  current: SavedMeta | undefined,
): string {
  const noun = NOUN[kind]
  if (!current) {
    return `${NONE_SAVED[kind]} been saved for this project yet, so there is no version ${held}: reload and save again.`
  }
  const when = `${current.savedAt.slice(11, 16)} UTC${sameDay(current.savedAt) ? '' : ` on ${current.savedAt.slice(0, 10)}`}`
  if (held > current.version) {
    return `There is no version ${held} of ${THESE[kind]}; the newest is version ${current.version}, saved by ${current.savedBy} at ${when}: reload to see it.`
  }
  return `Saved by ${current.savedBy} at ${when} since you opened it: reload to see their ${noun}.`
}

function sameDay(iso: string): boolean {
  return iso.slice(0, 10) === new Date().toISOString().slice(0, 10)
}

/** The 404 of a saved version asked for that is not there. */
export function noSuchVersion(kind: DocumentKind): AppError {
  return new AppError(404, `There is no such version of ${THESE[kind]}.`)
}

/** A version number as written in a path (`3`); undefined for anything else. */
export function versionOf(text: string | undefined): number | undefined {
  if (!text || !/^[1-9]\d{0,8}$/.test(text)) return undefined
  return Number(text)
}

function projectIdOf(c: Context): string {
  return c.req.param('projectId') ?? ''
}
