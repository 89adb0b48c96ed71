import type { ApsConfig } from '../../config.ts'
import { AppError } from '../../errors.ts'
import type { CloudContext } from '../types.ts'
import { checkFolderId } from './ids.ts'
import { createUpstream, type UpstreamOptions } from './upstream.ts'
import { badAnswer } from './upstream-errors.ts'

/** Where Autodesk delivers a watched folder's events: BOQ's own origin, under /api/boq. */
export const HOOK_EVENTS_PATH = '/api/boq/watches/events'
/** The one event a watch listens to: a new version of a file, in the folder or below it. */
export const VERSION_ADDED = 'dm.version.added'

/** The events' callback on the origin Autodesk already sends the person back to (APS_CALLBACK_URL). */
export function hookCallbackUrl(apsCallbackUrl: string): string {
  return new URL(HOOK_EVENTS_PATH, new URL(apsCallbackUrl).origin).href
}

/** The secret token as Autodesk takes it (32 to 64 letters and digits): the 32-byte key in hex. */
export function hookSecretToken(key: Uint8Array): string {
  return Buffer.from(key).toString('hex')
}

/** The person's own callback URL: the events' callback, naming them in its query. */
export function hookCallbackFor(callbackUrl: string, userId: string): string {
  const url = new URL(callbackUrl)
  url.searchParams.set('user', userId)
  return url.href
}

/** A hook as Autodesk lists it. */
export interface ApsHook {
  hookId: string
  callbackUrl: string
  folderId: string
}

export interface ApsHooksOptions extends Omit<UpstreamOptions, 'baseUrl'> {
  /** The events' callback (hookCallbackUrl). */
  callbackUrl: string
  /** The secret token every delivery is signed with (hookSecretToken). */
  secret: string
}

/**
 * Autodesk's Webhooks API v1 for a person's watched folders. Hooks are made with the person's
 * three-legged token, so they are the person's: the secret token that signs their deliveries is
 * set per person too, once per process (the first hook a person makes here sets it). Autodesk
 * answers 409 to a hook whose event, folder and callback URL another hook of the app has, and
 * lists a person only their own: so each person's callback URL is their own
 * (`hookCallbackFor`), and a second person watching a folder gets a hook of their own.
 */
export interface ApsHooks {
  /**
   * The folder's dm.version.added hook for the person's callback: its id (their existing one is
   * reused).
   */
  create(ctx: CloudContext, folderId: string): Promise<string>
  /** Deletes a hook; one already gone is fine. */
  remove(ctx: CloudContext, hookId: string): Promise<void>
  /** The person's dm.version.added hooks. */
  list(ctx: CloudContext): Promise<ApsHook[]>
}

const HOOKS_PATH = `/webhooks/v1/systems/data/events/${VERSION_ADDED}/hooks`
const JSON_TYPE = { 'content-type': 'application/json' }

export function createApsHooks(
  settings: Pick<ApsConfig, 'baseUrl'>,
  options: ApsHooksOptions,
): ApsHooks {
  const { callbackUrl, secret, ...upstreamOptions } = options
  const upstream = createUpstream({ ...upstreamOptions, baseUrl: settings.baseUrl })
  const secretsSet = new Map<string, Promise<void>>()

  async function setSecret(ctx: CloudContext): Promise<void> {
    const send = (method: 'PUT' | 'POST', path: string) =>
      upstream.send(upstream.url(path), {
        method,
        accessToken: ctx.accessToken,
        headers: JSON_TYPE,
        body: JSON.stringify({ token: secret }),
      })
    try {
      await send('PUT', '/webhooks/v1/tokens/@me')
    } catch (error) {
      if (!(error instanceof AppError && error.status === 404)) throw error
      try {
        await send('POST', '/webhooks/v1/tokens')
      } catch (again) {
        // Another process set it between the two calls: replace it, it is the same token.
        if (!(again instanceof AppError && again.status === 400)) throw again
        await send('PUT', '/webhooks/v1/tokens/@me')
      }
    }
  }

  function secretSetFor(ctx: CloudContext): Promise<void> {
    const userId = ctx.user.userId
    let set = secretsSet.get(userId)
    if (!set) {
      set = setSecret(ctx)
      secretsSet.set(userId, set)
      // A failure is tried again with the person's next hook.
      set.catch(() => secretsSet.delete(userId))
    }
    return set
  }

  async function list(ctx: CloudContext): Promise<ApsHook[]> {
    const hooks: ApsHook[] = []
    let pageState: string | undefined
    do {
      const answer = await upstream.json<{ links?: { next?: unknown }; data?: unknown }>(
        upstream.url(HOOKS_PATH, { pageState }),
        { accessToken: ctx.accessToken },
      )
      if (!Array.isArray(answer.data)) throw badAnswer('a list of webhooks')
      for (const entry of answer.data as Record<string, unknown>[]) {
        const folderId = (entry.scope as { folder?: unknown } | undefined)?.folder
        if (typeof entry.hookId === 'string' && typeof folderId === 'string') {
          hooks.push({ hookId: entry.hookId, callbackUrl: String(entry.callbackUrl), folderId })
        }
      }
      const next = answer.links?.next
      pageState =
        typeof next === 'string' && next
          ? (new URL(next, upstream.baseUrl).searchParams.get('pageState') ?? undefined)
          : undefined
    } while (pageState)
    return hooks
  }

  return {
    async create(ctx, folderId) {
      const folder = checkFolderId(folderId)
      const personal = hookCallbackFor(callbackUrl, ctx.user.userId)
      await secretSetFor(ctx)
      try {
        const answer = await upstream.send(upstream.url(HOOKS_PATH), {
          method: 'POST',
          accessToken: ctx.accessToken,
          headers: JSON_TYPE,
          body: JSON.stringify({ callbackUrl: personal, scope: { folder } }),
        })
        await answer.body?.cancel()
        // Autodesk answers 201 with no body: the new hook's id ends its Location.
        const hookId = answer.headers.get('location')?.split('/').pop()
        if (!hookId) throw badAnswer('a new webhook without its address')
        return decodeURIComponent(hookId)
      } catch (error) {
        if (!(error instanceof AppError && error.status === 409)) throw error
        // The person's hook exists (one left by a watch whose end could not delete it): reuse it.
        const same = (await list(ctx)).find(
          (h) => h.folderId === folder && h.callbackUrl === personal,
        )
        if (!same) throw error
        return same.hookId
      }
    },

    async remove(ctx, hookId) {
      try {
        const answer = await upstream.send(
          upstream.url(`${HOOKS_PATH}/${encodeURIComponent(hookId)}`),
          { method: 'DELETE', accessToken: ctx.accessToken },
        )
        await answer.body?.cancel()
      } catch (error) {
        if (!(error instanceof AppError && error.status === 404)) throw error
      }
    },

    list,
  }
}
