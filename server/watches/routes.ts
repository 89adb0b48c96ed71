import { Hono } from 'hono'
import type { CloudAccess } from '../auth/cloud-access.ts'
import type { CloudBackend } from '../cloud/types.ts'
import { AppError } from '../errors.ts'
import { limitBody } from '../http/body.ts'
import { noStore } from '../http/response-headers.ts'
import { log } from '../log.ts'
import { parseWatchRequest } from './parse-watch-request.ts'
import type { WatchSource } from './source.ts'
import { ACCESS_NEEDED, type StandingAccess } from './standing-access.ts'
import type { NewWatch, WatchRecord, WatchStore } from './store/types.ts'
import { toWatchJson } from './watch-json.ts'

export interface WatchRoutesOptions {
  store: WatchStore
  cloud: CloudBackend
  access: CloudAccess
  standing: StandingAccess
  source: WatchSource
  /**
   * The sign-in's refresh token may be used again (the local provider's): a new watch keeps the
   * session's tokens as its owner's standing grant. Autodesk's are single-use: the person allows
   * the standing access on its own (`consentUrl`).
   */
  sessionGrantReusable: boolean
}

/** POST /watches, GET /watches, DELETE /watches/{id}; mounted under /api/boq. */
export function watchRoutes(options: WatchRoutesOptions): Hono {
  const { store, cloud, access, standing, source } = options
  const routes = new Hono()
  const json = async (watch: WatchRecord) =>
    toWatchJson(watch, await store.waitingCount(watch.id), {
      askConsent: !options.sessionGrantReusable,
    })

  routes.post(
    '/watches',
    limitBody(16 * 1024, 'The request body is too large for a watch request.'),
    async (c) => {
      const text = await c.req.text()
      const session = await access.session(c)
      const { watch, created } = await access.run(c, async (ctx) => {
        // Sign-in first (401), then the body (400), then the folder (403/404).
        const request = parseWatchRequest(text)
        await cloud.checkFolder(ctx, request.projectId, request.fileFolderId)
        const userId = ctx.user.userId
        if (options.sessionGrantReusable)
          await standing.keep({ user: ctx.user, tokens: session.tokens })
        const same = (await store.watchesOf(userId)).find(
          (w) => w.projectId === request.projectId && w.fileFolderId === request.fileFolderId,
        )
        if (same) return { watch: same, created: false }
        const place = await cloud.locate(ctx, { ...request, fileStorageId: '' })
        const kept = await store.standingGrant(userId)
        // A grant that cannot be read is none: the watch waits to be allowed.
        const granted = kept !== undefined && kept !== 'damaged'
        const draft: NewWatch = {
          ...request,
          userId,
          folder: place.folder,
          ...(granted
            ? { state: 'active' }
            : { state: 'paused', pausedReason: ACCESS_NEEDED, pausedFor: 'access' }),
        }
        const begun = await source.begin(ctx, draft)
        const undo = () =>
          source
            .end(ctx, { ...draft, ...begun, id: '', createdAt: '', updatedAt: '' })
            .catch(() => {})
        const made = await store
          .createWatch(
            { ...draft, ...(begun.hookId ? { hookId: begun.hookId } : {}) },
            // What is there already is the starting point: only versions added from now on
            // get a bill.
            begun.existing,
          )
          .catch(async (error) => {
            await undo()
            throw error
          })
        if (!made.created) {
          // Set meanwhile by another request of the person's: the store's watch holds. Its hook
          // may be the one begun here (Autodesk answers the folder's existing hook): kept then.
          if (begun.hookId !== made.watch.hookId) await undo()
          return made
        }
        log.info('watches: a folder is watched', { watchId: made.watch.id, userId })
        return made
      })
      noStore(c)
      return c.json(await json(watch), created ? 201 : 200)
    },
  )

  routes.get('/watches', async (c) => {
    const userId = await access.run(c, async (ctx) => ctx.user.userId)
    const watches = await store.watchesOf(userId)
    noStore(c)
    return c.json({ data: await Promise.all(watches.map(json)) })
  })

  routes.delete('/watches/:id', async (c) => {
    await access.run(c, async (ctx) => {
      const watch = await store.getWatch(c.req.param('id'))
      // Another person's watch is as unknown as a missing one.
      if (!watch || watch.userId !== ctx.user.userId) {
        throw new AppError(404, 'There is no such watch.')
      }
      // The hook first: a watch whose hook could not be deleted stays, to be ended again.
      await source.end(ctx, watch)
      await store.deleteWatch(watch.id)
      log.info('watches: a watch ended', { watchId: watch.id, userId: ctx.user.userId })
    })
    return c.body(null, 204)
  })

  return routes
}
