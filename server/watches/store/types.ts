import type { ExtractUnits } from '#contract/units.ts'
import type { WatchState } from '#contract/watches.ts'
import type { Tokens, UserProfile } from '../../auth/types.ts'
import type { FolderPlace } from '../../cloud/types.ts'

/** A watched folder as the store keeps it (its owner's grant is kept apart, sealed). */
export interface WatchRecord {
  id: string
  userId: string
  projectId: string
  fileFolderId: string
  folder?: FolderPlace
  /** The units of every bill the watch starts; absent: by each drawing. */
  units?: ExtractUnits
  createdAt: string
  updatedAt: string
  state: WatchState
  /** Why the watch is paused and what to do, in the person's words. */
  pausedReason?: string
  /**
   * What the pause waits for: the person's standing access (given again: every such watch
   * resumes), its folder (back, or writable again: checked each round), or nothing that comes by
   * itself: its stored record cannot be read (the person stops it and watches the folder again).
   */
  pausedFor?: PauseCause
  /**
   * When the watch last became paused (set by the store, gone once active again): a cloud that
   * tells of new versions only while a watch listens looks back to it on resuming.
   */
  pausedAt?: string
  /** Autodesk: the id of the folder's webhook, deleted with the watch. */
  hookId?: string
}

export type PauseCause = 'access' | 'folder' | 'record'

/** What `updateWatch` may change. */
export type WatchPatch = Partial<
  Pick<WatchRecord, 'state' | 'pausedReason' | 'pausedFor' | 'hookId'>
>

export type NewWatch = Omit<WatchRecord, 'id' | 'createdAt' | 'updatedAt' | 'pausedAt'>

/**
 * What lets the server act for a person while they are away: who they are and their tokens (the
 * refresh token rotated on every use). One per person, shared by all their watches; kept sealed.
 */
export interface StandingGrant {
  user: UserProfile
  tokens: Tokens
}

/**
 * A person's grant as the store finds it: undefined when none is kept, `'damaged'` when one is
 * kept that cannot be read (cut short, altered, or sealed with another key; the store logs where).
 */
export type KeptGrant = StandingGrant | 'damaged' | undefined

/** A drawing version a watch saw in its folder. */
export interface WatchedVersion {
  /** The version's storage id: one job per version, whichever way it was seen. */
  fileStorageId: string
  fileName: string
  projectId: string
  /** The folder the drawing is in (the watched one or one of its subfolders). */
  fileFolderId: string
  fileVersionNumber?: number
  folder?: FolderPlace
}

/**
 * What became of a version a dispatcher took: queued as a job, skipped (with why, kept with the
 * version for whoever reads the store), or given back to wait (its owner's job limit is reached).
 */
export type WatchedOutcome = { jobId: string } | { skipped: string } | 'wait'

/**
 * The watches and what they have seen, so that with several processes exactly one reacts to each
 * new version: a version is recorded once per watch, and a pending one is taken by one dispatcher
 * only. A watch whose stored state cannot be read (its record, or what it has seen since it
 * began) is never answered as active while it does nothing: it is answered paused, saying so
 * (`pausedFor: 'record'`), updates leave it so, and deleting it ends it. Kept beside the jobs:
 * in the data folder (`embedded-store.ts`), or on the PostgreSQL job store's pool (`pg/`).
 */
export interface WatchStore {
  /**
   * Records a watch with the versions already in its folder (`baseline`: never to be extracted),
   * in one step: no watcher sees the watch before its starting point. A person watches a folder
   * once: when they already have a watch of that project and folder, it is answered as it is
   * (`created: false`) and nothing is recorded, however many calls there are at once, in any
   * process.
   */
  createWatch(
    watch: NewWatch,
    baseline?: WatchedVersion[],
  ): Promise<{ watch: WatchRecord; created: boolean }>
  getWatch(id: string): Promise<WatchRecord | undefined>
  /** The watch whose webhook is `hookId` (Autodesk), or undefined. */
  watchByHookId(hookId: string): Promise<WatchRecord | undefined>
  /** The person's watches, newest first. */
  watchesOf(userId: string): Promise<WatchRecord[]>
  /** Every watch, of everyone (the watchers and dispatchers go through them). */
  allWatches(): Promise<WatchRecord[]>
  updateWatch(id: string, patch: WatchPatch): Promise<void>
  /** Ends a watch with what it has seen (the jobs it started stay). */
  deleteWatch(id: string): Promise<void>
  /**
   * Records versions a watch saw, once each: answers how many were new to it. `baseline`: seen
   * when the watch was set, recorded so as never to be extracted; `pending`: to be extracted.
   */
  noteWatchedVersions(
    watchId: string,
    versions: WatchedVersion[],
    as: 'pending' | 'baseline',
  ): Promise<number>
  /**
   * Takes up to `limit` of the watch's pending versions, oldest first, for the caller alone (a
   * version taken and not settled within a few minutes, its process gone, is pending again).
   */
  takeWatchedVersions(watchId: string, limit: number): Promise<WatchedVersion[]>
  settleWatchedVersion(
    watchId: string,
    fileStorageId: string,
    outcome: WatchedOutcome,
  ): Promise<void>
  /** How many of the watch's versions wait to be extracted. */
  waitingCount(watchId: string): Promise<number>
  /** The person's standing grant, unsealed; undefined when none is kept, `'damaged'` when unreadable. */
  standingGrant(userId: string): Promise<KeptGrant>
  /**
   * Runs `use` with the person's grant while no other process uses it, and keeps what it answers
   * (a rotated refresh token); `undefined` from `use` drops the grant (refused for good, or
   * damaged).
   */
  withStandingGrant<T>(
    userId: string,
    use: (grant: KeptGrant) => Promise<{ grant: StandingGrant | undefined; value: T }>,
  ): Promise<T>
  /** Waits for the writes under way (the pool a PostgreSQL store shares is its opener's to close). */
  close(): Promise<void>
}
