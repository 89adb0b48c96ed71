import type { CloudBackend } from '../cloud/types.ts'
import { AppError } from '../errors.ts'
import type { JobRecord, JobStore } from '../jobs/types.ts'
import { log } from '../log.ts'
import { checkedContext } from './checked-context.ts'
import type { StandingAccess } from './standing-access.ts'
import type { WatchedVersion, WatchRecord, WatchStore } from './store/types.ts'

/** What the watches need of the jobs: a person's jobs (to keep their limit), and submitting one. */
export type WatchJobs = Pick<JobStore, 'listByUser' | 'submit'>

/** Versions one watch hands to the job store per round (the rest wait for the next round). */
const TAKE_PER_ROUND = 100

export interface Dispatcher {
  /** Starts a round now (or once more after the one under way): a version was noted, a job ended. */
  kick(): void
  /** Stops; resolves once the round under way has ended. */
  close(): Promise<void>
}

/**
 * Turns the versions watches noted into jobs, in the watch owner's name with the watch's units
 * and a context the cloud has just accepted for the watched folder, within the owner's job limit:
 * a version that finds the limit reached, or no usable context, is given back to wait its turn
 * (none is dropped), one already extracted with the same units is skipped. The store hands each
 * pending version to one dispatcher, so any number of processes may run one.
 */
export function startDispatcher(options: {
  store: WatchStore
  /** Where the jobs go: the owner's jobs are read to keep their limit, new ones submitted. */
  jobs: WatchJobs
  cloud: Pick<CloudBackend, 'locate' | 'checkFolder'>
  access: StandingAccess
  maxActivePerUser: number
  /** Rounds run at least this often (a job another process ran may have freed a place). */
  everyMs: number
}): Dispatcher {
  const { store, jobs: jobStore, access } = options
  let running: Promise<void> | undefined
  let again = false
  let closed = false

  async function round(): Promise<void> {
    const full = new Set<string>()
    for (const watch of await store.allWatches()) {
      if (closed) return
      // One watch's trouble (the cloud or the database failing for it) never holds the others.
      try {
        if (watch.state === 'paused' && watch.pausedFor === 'folder') await folderBack(watch)
        else if (watch.state !== 'active' || full.has(watch.userId)) continue
        else if (!(await dispatch(watch))) full.add(watch.userId)
      } catch (error) {
        log.warn('watches: a watch could not be dispatched this round', {
          watchId: watch.id,
          err: error,
        })
      }
    }
  }

  /** A watch paused for its folder resumes once the folder is there and writable again. */
  async function folderBack(watch: WatchRecord): Promise<void> {
    const context = await access.contextFor(watch.userId)
    if (!context) return
    try {
      await options.cloud.checkFolder(context, watch.projectId, watch.fileFolderId)
    } catch {
      return
    }
    log.info('watches: a watched folder is back; the watch resumes', { watchId: watch.id })
    await store.updateWatch(watch.id, { state: 'active' })
    again = true
  }

  /** Hands the watch's pending versions to the job store; false when the owner's limit is reached. */
  async function dispatch(watch: WatchRecord): Promise<boolean> {
    const jobs = await jobStore.listByUser(watch.userId)
    const active = jobs.filter((job) => job.status === 'queued' || job.status === 'running')
    const free = options.maxActivePerUser - active.length
    if (free <= 0) return false
    const taken = await store.takeWatchedVersions(watch.id, Math.min(free, TAKE_PER_ROUND))
    if (taken.length === 0) return true
    const context = await checkedContext({ store, cloud: options.cloud, access }, watch).catch(
      async (error) => {
        await giveBack(watch, taken)
        throw error
      },
    )
    if (!context) {
      await giveBack(watch, taken)
      return true
    }
    for (const [index, version] of taken.entries()) {
      if (alreadyExtracted(jobs, version, watch)) {
        await store.settleWatchedVersion(watch.id, version.fileStorageId, {
          skipped: 'already extracted with the same units',
        })
        // Its place is still free: the next round fills it.
        again = true
        continue
      }
      try {
        // Where the job card opens the tree, as an extraction asked by hand learns it.
        const place = await options.cloud.locate(context, version)
        const versionNumber = version.fileVersionNumber ?? place.fileVersionNumber
        const { job } = await jobStore.submit(
          {
            fileName: version.fileName,
            projectId: version.projectId,
            fileFolderId: version.fileFolderId,
            fileStorageId: version.fileStorageId,
            ...(versionNumber === undefined ? {} : { fileVersionNumber: versionNumber }),
            folder: version.folder ?? place.folder,
            ...(watch.units ? { units: watch.units } : {}),
            watchId: watch.id,
            context,
          },
          { maxActivePerUser: options.maxActivePerUser },
        )
        await store.settleWatchedVersion(watch.id, version.fileStorageId, { jobId: job.id })
      } catch (error) {
        if (error instanceof AppError && error.status === 429) {
          await giveBack(watch, taken.slice(index))
          return false
        }
        const refused = error instanceof AppError && error.status >= 400 && error.status < 500
        log.warn(
          refused
            ? 'watches: a new version was refused; it is skipped'
            : 'watches: a new version could not be queued for now; it waits',
          { watchId: watch.id, fileName: version.fileName, err: error },
        )
        // Only a refusal of this version is final: the database or the cloud failing for now
        // leaves it, and the rest, to the next round.
        if (!refused) {
          await giveBack(watch, taken.slice(index))
          return true
        }
        await store.settleWatchedVersion(watch.id, version.fileStorageId, {
          skipped: error.message,
        })
      }
    }
    return true
  }

  async function giveBack(watch: WatchRecord, versions: WatchedVersion[]): Promise<void> {
    for (const version of versions) {
      await store.settleWatchedVersion(watch.id, version.fileStorageId, 'wait')
    }
  }

  function kick(): void {
    if (closed) return
    if (running) {
      again = true
      return
    }
    running = (async () => {
      do {
        again = false
        await round().catch((error) => log.warn('watches: a dispatch round failed', { err: error }))
      } while (again && !closed)
    })().finally(() => {
      running = undefined
    })
  }

  const timer = setInterval(kick, options.everyMs)
  timer.unref()
  kick()
  return {
    kick,
    async close() {
      closed = true
      clearInterval(timer)
      await running
    },
  }
}

/** The owner has a job of this version with the same units that succeeded, or is under way. */
function alreadyExtracted(jobs: JobRecord[], version: WatchedVersion, watch: WatchRecord): boolean {
  return jobs.some(
    (job) =>
      job.fileStorageId === version.fileStorageId &&
      job.status !== 'failed' &&
      sameUnits(job.units, watch.units),
  )
}

function sameUnits(a: JobRecord['units'], b: JobRecord['units']): boolean {
  return (
    (a?.system ?? null) === (b?.system ?? null) &&
    (a?.drawingUnits ?? null) === (b?.drawingUnits ?? null)
  )
}
