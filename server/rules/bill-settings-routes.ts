import { type Context, Hono } from 'hono'
import * as v from 'valibot'
import {
  type BillSettingsDocument,
  type BillSettingsVersion,
  checkBillSettings,
} from '#contract/bill-settings.ts'
import type { WithCloud } from '../auth/cloud-access.ts'
import { AppError } from '../errors.ts'
import { checkedBody, limitBody } from '../http/body.ts'
import { noStore } from '../http/response-headers.ts'
import type { VisibleProject } from './project-access.ts'
import { heldVersion } from './rules-body.ts'
import { conflictMessage, noSuchVersion, versionOf } from './rules-routes.ts'
import type { RulesStore, SavedBillSettings } from './store/types.ts'

export interface BillSettingsRoutesOptions {
  store: RulesStore
  withCloud: WithCloud
  visibleProject: VisibleProject
}

/** Settings are a few hundred bytes; a hundred adjustments of the longest names fit well in this. */
const MAX_SETTINGS_BODY_BYTES = 256 * 1024

/** A PUT body: the settings under their own key, as the document holds them. */
const SettingsBodySchema = v.object({ settings: v.unknown() })

/**
 * GET/PUT /projects/{projectId}/bill-settings, …/history and …/history/{version}: the project's
 * bill settings (currency, header, decimals per unit, adjustments), versioned as its rules are,
 * read and changed by anyone who can see the project. A save names the version it replaces
 * (If-Match); settings that do not check are a 400 naming every field that is wrong.
 */
export function billSettingsRoutes(options: BillSettingsRoutesOptions): Hono {
  const { store, withCloud, visibleProject } = options
  const routes = new Hono()
  const path = '/projects/:projectId/bill-settings'

  routes.get(path, async (c) => {
    const saved = await withCloud(c, async (ctx) => {
      await visibleProject(ctx, projectIdOf(c))
      return store.billSettings(projectIdOf(c))
    })
    noStore(c)
    c.header('ETag', `"${saved?.version ?? 0}"`)
    return c.json(documentOf(saved))
  })

  routes.get(`${path}/history`, async (c) => {
    const history: BillSettingsVersion[] = await withCloud(c, async (ctx) => {
      await visibleProject(ctx, projectIdOf(c))
      return store.billSettingsHistory(projectIdOf(c))
    })
    noStore(c)
    return c.json(history)
  })

  routes.get(`${path}/history/:version`, async (c) => {
    const saved = await withCloud(c, async (ctx) => {
      await visibleProject(ctx, projectIdOf(c))
      const version = versionOf(c.req.param('version'))
      return version && (await store.savedBillSettings(projectIdOf(c), version))
    })
    if (!saved) throw noSuchVersion('bill-settings')
    noStore(c)
    c.header('ETag', `"${saved.version}"`)
    return c.json(documentOf(saved))
  })

  routes.put(
    path,
    limitBody(MAX_SETTINGS_BODY_BYTES, 'The bill settings sent are larger than settings can be.'),
    async (c) => {
      const projectId = projectIdOf(c)
      const text = await c.req.text()
      const outcome = await withCloud(c, async (ctx) => {
        // Who first (401), then which project (404), then what is asked (428, 400).
        await visibleProject(ctx, projectId)
        const held = heldVersion(c.req.header('if-match'), 'bill-settings')
        const body = checkedBody(SettingsBodySchema, text, { shape: '{"settings": {...}}' })
        const checked = checkBillSettings(body.settings)
        if ('problems' in checked) throw new AppError(400, sentences(checked.problems))
        const by = ctx.user.name || ctx.user.userId
        return {
          held,
          result: await store.saveBillSettings(projectId, held, checked.settings, by),
        }
      })
      if ('conflict' in outcome.result) {
        const { held, result } = outcome
        throw new AppError(412, conflictMessage('bill-settings', held, result.conflict))
      }
      noStore(c)
      c.header('ETag', `"${outcome.result.saved.version}"`)
      return c.json(documentOf(outcome.result.saved))
    },
  )

  return routes
}

function documentOf(saved: SavedBillSettings | undefined): BillSettingsDocument {
  return {
    version: saved?.version ?? 0,
    savedBy: saved?.savedBy ?? null,
    savedAt: saved?.savedAt ?? null,
    settings: saved?.settings ?? {},
  }
}

/** Every problem, one sentence each (`currency: "EU" is not …`), on lines of their own. */
function sentences(problems: string[]): string {
  return problems
    .map((problem) => {
      const text = problem.charAt(0).toUpperCase() + problem.slice(1)
      return /[.!?]$/.test(text) ? text : `${text}.`
    })
    .join('\n')
}

function projectIdOf(c: Context): string {
  return c.req.param('projectId') ?? ''
}
