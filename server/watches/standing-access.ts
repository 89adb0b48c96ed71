import { REFRESH_MARGIN_MS } from '../auth/cloud-access.ts'
import type { AuthProvider, CloudContext } from '../auth/types.ts'
import { SessionExpiredError } from '../errors.ts'
import { log } from '../log.ts'
import type { StandingGrant, WatchRecord, WatchStore } from './store/types.ts'

/** What a paused watch tells its owner when the cloud refused BOQ's standing access. */
export const ACCESS_REFUSED =
  'Autodesk no longer lets BOQ read your folders while you are away (the access was revoked or has expired). Allow it again to resume this watch.'
/** What a paused watch tells its owner when the standing access kept for them cannot be read. */
export const ACCESS_DAMAGED =
  'BOQ’s kept access for watching your folders is damaged and cannot be read. Allow it again to resume this watch (or stop watching and watch the folder again).'
/** What a watch tells its owner when no standing access was ever given. */
export const ACCESS_NEEDED =
  'BOQ needs your permission to read this folder while you are away. Allow it to start this watch.'

/**
 * Acts for a person while they are away, with their standing grant: the access token kept while
 * it lasts, else refreshed (the refresh token rotated and kept, in one process at a time). When
 * the cloud refuses the grant, it is dropped and every watch of the person pauses, saying why.
 */
export interface StandingAccess {
  /**
   * The person's context; undefined when there is no grant, or it was just refused, or it cannot
   * be read (dropped then, and the person's watches pause saying so). `rejected`:
   * the cloud refused this access token before its time (the access was revoked), so the grant
   * is refreshed now, which tells whether it still holds (unless another caller already did).
   */
  contextFor(userId: string, options?: { rejected?: string }): Promise<CloudContext | undefined>
  /**
   * Keeps a grant given now (at a watch's creation, or the person allowed it again) and resumes
   * the person's paused watches; answers those, as they were while paused (`pausedAt` says since
   * when).
   */
  keep(grant: StandingGrant): Promise<WatchRecord[]>
}

export function standingAccess(store: WatchStore, provider: AuthProvider): StandingAccess {
  async function pauseAll(userId: string, reason: string): Promise<void> {
    for (const watch of await store.watchesOf(userId)) {
      if (watch.state === 'active')
        await store.updateWatch(watch.id, {
          state: 'paused',
          pausedReason: reason,
          pausedFor: 'access',
        })
    }
  }

  return {
    async contextFor(userId, options = {}) {
      const refused = { refused: false, damaged: false }
      const context = await store.withStandingGrant(userId, async (grant) => {
        if (grant === 'damaged') {
          refused.damaged = true
          return { grant: undefined, value: undefined }
        }
        if (!grant) return { grant, value: undefined }
        const rejected = grant.tokens.accessToken === options.rejected
        if (!rejected && grant.tokens.expiresAt - Date.now() > REFRESH_MARGIN_MS) {
          return { grant, value: contextOf(grant) }
        }
        try {
          const tokens = await provider.refresh(grant.tokens)
          const next: StandingGrant = {
            user: grant.user,
            // A provider may answer without a new refresh token: the old one still holds.
            tokens: { ...tokens, refreshToken: tokens.refreshToken ?? grant.tokens.refreshToken },
          }
          return { grant: next, value: contextOf(next) }
        } catch (error) {
          if (!(error instanceof SessionExpiredError)) throw error
          refused.refused = true
          return { grant: undefined, value: undefined }
        }
      })
      if (refused.refused) {
        log.warn('watches: the cloud refused a standing grant; the person’s watches pause', {
          userId,
        })
        await pauseAll(userId, ACCESS_REFUSED)
      }
      if (refused.damaged) {
        log.warn(
          'watches: a standing grant cannot be read; it is dropped, the person’s watches pause',
          {
            userId,
          },
        )
        await pauseAll(userId, ACCESS_DAMAGED)
      }
      return context
    },
    async keep(grant) {
      await store.withStandingGrant(grant.user.userId, async () => ({ grant, value: undefined }))
      // Watches paused for want of access resume (one waiting for its folder waits on, and one
      // whose record is damaged waits for its owner to end it).
      const resumed: WatchRecord[] = []
      for (const watch of await store.watchesOf(grant.user.userId)) {
        if (
          watch.state === 'paused' &&
          watch.pausedFor !== 'folder' &&
          watch.pausedFor !== 'record'
        ) {
          await store.updateWatch(watch.id, { state: 'active', pausedReason: undefined })
          resumed.push(watch)
        }
      }
      return resumed
    },
  }
}

function contextOf(grant: StandingGrant): CloudContext {
  return { user: grant.user, accessToken: grant.tokens.accessToken }
}
