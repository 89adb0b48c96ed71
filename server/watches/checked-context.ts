import type { CloudBackend, CloudContext } from '../cloud/types.ts'
import { AppError, TokenRejectedError } from '../errors.ts'
import { log } from '../log.ts'
import { ACCESS_NEEDED, type StandingAccess } from './standing-access.ts'
import type { PauseCause, WatchRecord, WatchStore } from './store/types.ts'

/** What a paused watch tells its owner when its folder is gone or no longer theirs to write to. */
export const FOLDER_LOST =
  'The folder is gone or you can no longer write to it, so BOQ cannot write its bills there. The watch resumes by itself once you can write to it again; or stop watching it.'

/**
 * The watch owner's context, once the cloud has answered it for the watched folder; undefined
 * when the versions must wait (the watch paused saying why, or the cloud unreachable for now).
 * An access token that looks valid may have been revoked: a job given it would fail, so one cheap
 * call proves it first, and a refusal refreshes the grant at once (a refused refresh pauses every
 * watch of the person).
 */
export async function checkedContext(
  deps: {
    store: Pick<WatchStore, 'getWatch' | 'updateWatch'>
    cloud: Pick<CloudBackend, 'checkFolder'>
    access: StandingAccess
  },
  watch: WatchRecord,
): Promise<CloudContext | undefined> {
  const { store, cloud, access } = deps
  const pause = async (reason: string, pausedFor: PauseCause) => {
    const current = await store.getWatch(watch.id)
    if (current?.state === 'active') {
      await store.updateWatch(watch.id, { state: 'paused', pausedReason: reason, pausedFor })
    }
  }
  const context = await access.contextFor(watch.userId)
  if (!context) {
    // No grant at all (a refused one has already paused the watch, saying why).
    await pause(ACCESS_NEEDED, 'access')
    return undefined
  }
  const check = (ctx: CloudContext) =>
    cloud.checkFolder(ctx, watch.projectId, watch.fileFolderId).then(() => ctx)
  try {
    try {
      return await check(context)
    } catch (error) {
      if (!(error instanceof TokenRejectedError)) throw error
    }
    const renewed = await access.contextFor(watch.userId, { rejected: context.accessToken })
    return renewed && (await check(renewed))
  } catch (error) {
    if (error instanceof AppError && (error.status === 403 || error.status === 404)) {
      // Paused, not ended: a folder can come back (restored, or the permission given again), and
      // ending the watch would drop what waits and the person's choice without a word to them.
      log.warn('watches: a watched folder is gone or no longer writable; the watch pauses', {
        watchId: watch.id,
        status: error.status,
      })
      await pause(FOLDER_LOST, 'folder')
      return undefined
    }
    // The cloud unreachable, or the token refused again just after its refresh: the next
    // round tries again.
    log.warn('watches: a watched folder could not be checked; its versions wait', {
      watchId: watch.id,
      err: error,
    })
    return undefined
  }
}
