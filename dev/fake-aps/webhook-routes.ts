import { randomUUID } from 'node:crypto'
import type { Context, Hono } from 'hono'
import { bearer, type FakeContext, hasScope, unauthorized } from './context.ts'
import type { FakeHook } from './state.ts'
import { hookFields } from './webhooks.ts'

const HOOKS = '/webhooks/v1/systems/:system/events/:event/hooks'

/** The Webhooks API's error body: a status, a code and what went wrong. */
function hookError(c: Context, status: number, code: string, detail: string) {
  return c.json({ id: randomUUID(), status: String(status), code, detail: [detail] }, status as 400)
}

/** A hook as GET …/hooks lists it: what a delivery names, and its list-only fields. */
function hookResource(hook: FakeHook) {
  return {
    ...hookFields(hook),
    lastUpdatedDate: hook.createdDate,
    autoReactivateHook: false,
    callbackWithEventPayloadOnly: false,
  }
}

/**
 * Webhooks API v1 for Data Management events (three-legged tokens): create, list and delete a
 * user's hooks on a folder; set or replace the user's secret token that signs their deliveries.
 */
export function registerWebhookRoutes(app: Hono, ctx: FakeContext): void {
  const { state } = ctx

  function authorize(c: Context, write: boolean) {
    const grant = bearer(c, ctx)
    if (!grant) return { refused: unauthorized(c) }
    const ok =
      hasScope(grant, 'data:read') && (!write || hasScope(grant, 'data:write', 'data:create'))
    if (!ok) {
      return {
        refused: hookError(c, 403, 'FORBIDDEN', 'The token does not have the scope this needs.'),
      }
    }
    return { grant }
  }

  async function jsonBody(c: Context): Promise<Record<string, unknown> | undefined> {
    try {
      const body = await c.req.json()
      return body && typeof body === 'object' ? (body as Record<string, unknown>) : undefined
    } catch {
      return undefined
    }
  }

  app.post(HOOKS, async (c) => {
    const auth = authorize(c, true)
    if (auth.refused) return auth.refused
    const { system, event } = c.req.param()
    if (system !== 'data' || !event.startsWith('dm.')) {
      return hookError(c, 400, 'BAD_INPUT', 'The fake knows Data Management events only.')
    }
    const body = await jsonBody(c)
    const callbackUrl = body?.callbackUrl
    const folderId = (body?.scope as { folder?: unknown } | undefined)?.folder
    if (
      typeof callbackUrl !== 'string' ||
      !URL.canParse(callbackUrl) ||
      typeof folderId !== 'string'
    ) {
      return hookError(c, 400, 'BAD_INPUT', 'A hook needs a callbackUrl and a scope folder.')
    }
    if (!state.folders.has(folderId)) {
      return hookError(c, 400, 'BAD_INPUT', 'The scope folder does not exist or is not visible.')
    }
    const userId = auth.grant.userId
    // Unique across the app's hooks, whoever made them: the stricter reading of Autodesk's 409.
    const same = [...state.hooks.values()].find(
      (h) => h.event === event && h.callbackUrl === callbackUrl && h.scope.folder === folderId,
    )
    if (same) return hookError(c, 409, 'CONFLICT', 'The webhook already exists.')
    const hook: FakeHook = {
      hookId: randomUUID(),
      system: 'data',
      event,
      callbackUrl,
      scope: { folder: folderId },
      hookAttribute: body?.hookAttribute,
      createdBy: userId,
      createdDate: new Date().toISOString().replace('Z', '+0000'),
      status: 'active',
    }
    state.hooks.set(hook.hookId, hook)
    c.header(
      'Location',
      `${ctx.origin}/webhooks/v1/systems/${system}/events/${event}/hooks/${hook.hookId}`,
    )
    return c.body(null, 201)
  })

  app.get(HOOKS, (c) => {
    const auth = authorize(c, false)
    if (auth.refused) return auth.refused
    const { system, event } = c.req.param()
    const data = [...state.hooks.values()]
      .filter((h) => h.createdBy === auth.grant.userId && h.system === system && h.event === event)
      .map(hookResource)
    return c.json({ links: { next: null }, data })
  })

  app.delete(`${HOOKS}/:hookId`, (c) => {
    const auth = authorize(c, true)
    if (auth.refused) return auth.refused
    const hook = state.hooks.get(c.req.param('hookId'))
    if (!hook || hook.createdBy !== auth.grant.userId) {
      return hookError(c, 404, 'NOT_FOUND', 'The webhook does not exist.')
    }
    state.hooks.delete(hook.hookId)
    return c.body(null, 204)
  })

  const tokenOf = async (c: Context) => {
    const token = (await jsonBody(c))?.token
    return typeof token === 'string' && token.length >= 1 ? token : undefined
  }

  app.post('/webhooks/v1/tokens', async (c) => {
    const auth = authorize(c, true)
    if (auth.refused) return auth.refused
    const token = await tokenOf(c)
    if (!token) return hookError(c, 400, 'BAD_INPUT', 'The body needs a token.')
    if (state.hookSecrets.has(auth.grant.userId)) {
      return hookError(c, 400, 'BAD_INPUT', 'Secret token already exists.')
    }
    state.hookSecrets.set(auth.grant.userId, token)
    return c.json({ status: 200, detail: ['Token created successfully for client: *****'] })
  })

  app.put('/webhooks/v1/tokens/@me', async (c) => {
    const auth = authorize(c, true)
    if (auth.refused) return auth.refused
    const token = await tokenOf(c)
    if (!token) return hookError(c, 400, 'BAD_INPUT', 'The body needs a token.')
    if (!state.hookSecrets.has(auth.grant.userId)) {
      return hookError(c, 404, 'NOT_FOUND', 'No secret token was set.')
    }
    state.hookSecrets.set(auth.grant.userId, token)
    return c.body(null, 204)
  })
}
