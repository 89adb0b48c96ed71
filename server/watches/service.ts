import type { Hono } from 'hono'
import type { CloudAccess } from '../auth/cloud-access.ts'
import type { CloudBackend } from '../cloud/types.ts'
import type { Config } from '../config.ts'
import { type Background, background } from './aps/background.ts'
import { catchUpResumed, type EventCatchUps, eventCatchUps } from './aps/catch-up.ts'
import { startDispatcher, type WatchJobs } from './dispatcher.ts'
import { startLocalPoller } from './local/local-poller.ts'
import { watchRoutes } from './routes.ts'
import type { WatchSource } from './source.ts'
import type { StandingAccess } from './standing-access.ts'
import type { StandingGrant, WatchStore } from './store/types.ts'

/** Makes the routes a cloud calls to tell of new versions, given where to note them. */
export type WatchEventRoutes = (deps: {
  store: WatchStore
  access: StandingAccess
  /** A version was noted: dispatch now. */
  onNoted: () => void
  /** Where work after an answer runs: closing waits for it. */
  background: Background
  /** Catches up a watch whose event failed after it was answered. */
  catchUps: Pick<EventCatchUps, 'after'>
}) => Hono

export interface WatchesService {
  /** The watches' API, to mount under /api/boq. */
  routes: Hono
  /**
   * Keeps a standing grant the person has just given (the sign-in's second purpose); the watches
   * it resumes then look, meanwhile, for the versions told of while they were paused.
   */
  keepGrant(grant: StandingGrant): Promise<void>
  close(): Promise<void>
}

/**
 * Watched folders: their routes, and where this process runs jobs, the dispatcher that turns
 * new versions into jobs and (local cloud) the poller that finds them. Autodesk tells of new
 * versions through its webhooks instead (`eventRoutes`, given by its back end).
 */
export function startWatches(options: {
  config: Pick<Config, 'role' | 'maxQueuedPerUser' | 'watchPollSeconds'>
  store: WatchStore
  /** Where the jobs the watches start go. */
  jobs: WatchJobs
  /** Acts for the watches' owners while they are away (their jobs run with it too). */
  standing: StandingAccess
  /** Tells of each job of this process that ended: its owner may have a free place. */
  jobEnded: { add(listener: () => void): () => void }
  cloud: CloudBackend
  access: CloudAccess
  source: WatchSource
  /** Routes the cloud calls to tell of new versions (Autodesk's webhooks). */
  eventRoutes?: WatchEventRoutes
}): WatchesService {
  const { config, store, cloud, standing } = options
  const everyMs = config.watchPollSeconds * 1000
  // A web process only takes requests: the processes that run jobs dispatch and poll.
  const runs = config.role !== 'web'
  const dispatcher = runs
    ? startDispatcher({
        store,
        jobs: options.jobs,
        cloud,
        access: standing,
        maxActivePerUser: config.maxQueuedPerUser,
        everyMs,
      })
    : undefined
  const kick = () => dispatcher?.kick()
  const unsubscribe = options.jobEnded.add(kick)
  const poller =
    runs && cloud.kind === 'local'
      ? startLocalPoller({ store, cloud, access: standing, everyMs, onNoted: kick })
      : undefined
  const routes = watchRoutes({
    store,
    cloud,
    access: options.access,
    standing,
    source: options.source,
    sessionGrantReusable: cloud.kind === 'local',
  })
  // Only a cloud that tells of new versions itself drops what it told while a watch was paused,
  // or what it told when handling it failed after the answer; a polled one (the local cloud) finds
  // it at its next look through the folder.
  const work = background()
  const catchUpDeps = { store, cloud, access: standing, onNoted: kick }
  const catchUps = options.eventRoutes
    ? eventCatchUps({ ...catchUpDeps, background: work })
    : undefined
  if (options.eventRoutes && catchUps) {
    routes.route(
      '/',
      options.eventRoutes({ store, access: standing, onNoted: kick, background: work, catchUps }),
    )
  }
  return {
    routes,
    async keepGrant(grant) {
      const resumed = await standing.keep(grant)
      // Looking through the folders may take long: not within the person's sign-in.
      if (catchUps && resumed.length > 0) {
        work.run('resumed watches could not catch up', () => catchUpResumed(catchUpDeps, resumed))
      }
    },
    async close() {
      unsubscribe()
      // The work after answers first: it notes versions into the store the others go on using.
      await work.settled()
      await catchUps?.close()
      await poller?.close()
      await dispatcher?.close()
    },
  }
}
