import { createHmac, timingSafeEqual } from 'node:crypto'
import { Hono } from 'hono'
import { VERSION_ADDED } from '../../cloud/aps/hooks.ts'
import type { ApsVersion, ApsVersions } from '../../cloud/aps/version-by-id.ts'
import type { CloudContext } from '../../cloud/types.ts'
import { AppError, TokenRejectedError } from '../../errors.ts'
import { limitBody } from '../../http/body.ts'
import { log } from '../../log.ts'
import { isWatchedDrawing } from '../source.ts'
import type { StandingAccess } from '../standing-access.ts'
import type { WatchStore } from '../store/types.ts'
import type { Background } from './background.ts'
import type { EventCatchUps } from './catch-up.ts'
import { EVENT_WINDOW_MS } from './event-window.ts'

/** An event is a few kilobytes; anything much larger is not Autodesk's. */
export const MAX_EVENT_BYTES = 64 * 1024

/** What became of an event that was let in (for the log, and for tests to wait on). */
export type HookEventOutcome =
  | 'noted'
  | 'seen before'
  | 'not a drawing'
  | 'other event'
  | 'no watch'
  | 'paused'
  | 'no access'
  | 'failed'

export interface HookEventsDeps {
  store: Pick<WatchStore, 'watchByHookId' | 'noteWatchedVersions'>
  access: Pick<StandingAccess, 'contextFor'>
  versions: ApsVersions
  /** The secret token Autodesk signs deliveries with (hookSecretToken). */
  secret: string
  /** A version was noted: dispatch now. */
  onNoted: () => void
  /** Where the handling after the answer runs, so that closing waits for it. */
  background: Background
  /** Catches up a watch whose event failed after it was answered. */
  catchUps: Pick<EventCatchUps, 'after'>
  /** Told once each event let in is handled. */
  onHandled?: (outcome: HookEventOutcome) => void
  now?: () => number
}

/** What an event tells: the hook it came through, the version, and when it happened. */
interface HookEvent {
  hookId: string
  event: string
  versionId: string
  occurredAt: number
}

/**
 * POST /watches/events (mounted under /api/boq): Autodesk's webhook deliveries. Only a body
 * signed with BOQ's secret token and stamped within the window gets in (401 else, nothing
 * started); it is answered 200 at once, as Autodesk wants an answer within seconds, and the
 * version is looked up and noted for its watch afterwards. Autodesk does not deliver an answered
 * event again: when that fails (Autodesk, the network or the store failing), the watch looks
 * through its folder later for what was created since the event.
 */
export function hookEventsRoute(deps: HookEventsDeps): Hono {
  const { store, access, versions, secret, onNoted, catchUps } = deps
  const now = deps.now ?? Date.now
  const routes = new Hono()

  async function handle(event: HookEvent): Promise<HookEventOutcome> {
    if (event.event !== VERSION_ADDED) return 'other event'
    const watch = await store.watchByHookId(event.hookId)
    if (!watch) return 'no watch'
    if (watch.state !== 'active') return 'paused'
    const ctx = await access.contextFor(watch.userId)
    if (!ctx) return 'no access'
    const read = (context: CloudContext) =>
      versions.version(context, watch.projectId, event.versionId)
    let version: ApsVersion
    try {
      version = await read(ctx)
    } catch (error) {
      // Refused before its time (the person revoked BOQ's access): a refresh tells whether the
      // grant still holds; refused too, the person's watches pause saying why.
      if (!(error instanceof TokenRejectedError)) throw error
      const again = await access.contextFor(watch.userId, { rejected: ctx.accessToken })
      if (!again) return 'no access'
      version = await read(again)
    }
    if (!isWatchedDrawing(version.fileName)) return 'not a drawing'
    const inWatchedFolder = version.fileFolderId === watch.fileFolderId
    const noted = await store.noteWatchedVersions(
      watch.id,
      [
        {
          ...version,
          projectId: watch.projectId,
          ...(inWatchedFolder && watch.folder ? { folder: watch.folder } : {}),
        },
      ],
      'pending',
    )
    if (noted === 0) return 'seen before'
    onNoted()
    return 'noted'
  }

  routes.post(
    '/watches/events',
    limitBody(MAX_EVENT_BYTES, 'The event is larger than Autodesk’s events are.'),
    async (c) => {
      // The signature covers the bytes as sent: they are read before anything parses them.
      const raw = new Uint8Array(await c.req.arrayBuffer())
      if (!signedWith(secret, raw, c.req.header('x-adsk-signature'))) {
        throw new AppError(401, 'The event is not signed with BOQ’s secret token.')
      }
      const event = eventOf(raw)
      if (!event) throw new AppError(400, 'The event is not a Data Management event BOQ can read.')
      if (Math.abs(now() - event.occurredAt) > EVENT_WINDOW_MS) {
        throw new AppError(401, 'The event is too old to be taken (or its time is wrong).')
      }
      deps.background.run('the handling of an Autodesk event failed', async () => {
        const outcome = await handle(event).catch((error: unknown) => {
          log.warn('watches: an Autodesk event could not be handled; its folder is caught up', {
            hookId: event.hookId,
            versionId: event.versionId,
            err: error,
          })
          catchUps.after(event.hookId, event.occurredAt)
          return 'failed' as const
        })
        log.debug('watches: Autodesk event', { hookId: event.hookId, outcome })
        deps.onHandled?.(outcome)
      })
      return c.body(null, 200)
    },
  )
  return routes
}

/** `x-adsk-signature: sha1hash=<hex>`: the HMAC-SHA1 of the raw body with the secret token. */
function signedWith(secret: string, raw: Uint8Array, header: string | undefined): boolean {
  const match = /^sha1hash=([0-9a-f]{40})$/i.exec(header?.trim() ?? '')
  if (!match) return false
  const expected = createHmac('sha1', secret).update(raw).digest()
  const given = Buffer.from(match[1], 'hex')
  return given.length === expected.length && timingSafeEqual(given, expected)
}

function eventOf(raw: Uint8Array): HookEvent | undefined {
  let body: unknown
  try {
    body = JSON.parse(new TextDecoder().decode(raw))
  } catch {
    return undefined
  }
  const { hook, payload } = (body ?? {}) as {
    hook?: { hookId?: unknown; event?: unknown }
    payload?: { source?: unknown; createdTime?: unknown; modifiedTime?: unknown }
  }
  // The later of the two: a version brought in from elsewhere may keep its first creation time.
  const times = [payload?.createdTime, payload?.modifiedTime]
    .map((time) => (typeof time === 'string' ? Date.parse(time) : Number.NaN))
    .filter((time) => !Number.isNaN(time))
  const occurredAt = times.length > 0 ? Math.max(...times) : Number.NaN
  if (
    typeof hook?.hookId !== 'string' ||
    typeof hook.event !== 'string' ||
    typeof payload?.source !== 'string' ||
    Number.isNaN(occurredAt)
  ) {
    return undefined
  }
  return { hookId: hook.hookId, event: hook.event, versionId: payload.source, occurredAt }
}
