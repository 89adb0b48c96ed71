import { createHash, randomUUID } from 'node:crypto'
import { appendFile, mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { seal } from '../../auth/sealed.ts'
import { writeFileAtomic } from '../../lib/atomic-write.ts'
import { createKeyedLock } from '../../lib/keyed-lock.ts'
import { log as serverLog } from '../../log.ts'
import { logLine, readGrant, type Seen, type StartingPoint, startText } from './embedded-files.ts'
import { openWatchFolders, RECORD, SEEN_LOG, START, startingVersions } from './embedded-open.ts'
import type { WatchedOutcome, WatchRecord, WatchStore } from './types.ts'
import { newWatchRecord, patchedWatch, TAKEN_LEASE_MS } from './watch-record.ts'

/**
 * The embedded watch store: one folder per watch under `<dataDir>/watches`, with its record
 * (`watch.json`), its starting point (`start.json`, the versions already in its folder, written
 * once) and what it has seen since (`versions.jsonl`, a log of the versions' states, rewritten
 * short when the watch is opened). The standing grants are sealed, one file per person in
 * `<dataDir>/watches/grants`. One process owns the folder.
 */
export async function openEmbeddedWatchStore(options: {
  /** BOQ_DATA_DIR: the store keeps everything under `<dataDir>/watches`. */
  dataDir: string
  /** Seals the standing grants (the key the jobs' tokens are sealed with). */
  tokenKey: Uint8Array
  log?: (message: string) => void
}): Promise<WatchStore> {
  const log = options.log ?? ((message: string) => serverLog.warn(message))
  const root = join(options.dataDir, 'watches')
  const grantsDir = join(root, 'grants')
  await mkdir(grantsDir, { recursive: true, mode: 0o700 })

  const watches = new Map<string, WatchRecord>()
  const seen = new Map<string, Map<string, Seen>>()
  const grantLock = createKeyedLock()
  /** Per person: a folder is watched once. */
  const userLock = createKeyedLock()
  /** Per watch: its record written, its log appended and its folder removed, one at a time. */
  const watchLock = createKeyedLock()

  const dirOf = (id: string) => join(root, id)
  const grantFile = (userId: string) =>
    join(grantsDir, createHash('sha256').update(userId).digest('hex'))

  const writeRecord = (record: WatchRecord) =>
    writeFileAtomic(join(dirOf(record.id), RECORD), JSON.stringify(record))

  const grantOf = (file: string) =>
    readGrant(file, options.tokenKey, () =>
      log(
        `watches: the standing grant ${file} cannot be read (cut short, altered, or sealed ` +
          'with another key); its owner’s watches pause until BOQ is allowed again',
      ),
    )

  /**
   * Appends the entries' new states to the watch's log, one line each, in order per watch. Not
   * flushed: a line lost to a power cut is mended by the watch itself (the poller notes again
   * what it finds unrecorded after a restart; a taken version whose settling was lost is taken
   * again after the lease, and skipped as already extracted).
   */
  function logSeen(watchId: string, entries: Seen[]): Promise<void> {
    const lines = entries.map(logLine).join('')
    return watchLock(watchId, async () => {
      if (watches.has(watchId)) await appendFile(join(dirOf(watchId), SEEN_LOG), lines)
    })
  }

  /** What the watch has seen; a watch deleted meanwhile has seen nothing and keeps nothing. */
  const versionsOf = (watchId: string) => seen.get(watchId) ?? new Map<string, Seen>()

  for (const [id, opened] of await openWatchFolders(root, log)) {
    watches.set(id, opened.record)
    seen.set(id, opened.versions)
  }

  return {
    createWatch(input, baseline = []) {
      // Looked for and recorded under the person's lock: two calls at once make one watch.
      return userLock(input.userId, async () => {
        const same = [...watches.values()].find(
          (watch) =>
            watch.userId === input.userId &&
            watch.projectId === input.projectId &&
            watch.fileFolderId === input.fileFolderId,
        )
        if (same) return { watch: structuredClone(same), created: false }
        const record = newWatchRecord(randomUUID(), input)
        const start: StartingPoint = { at: record.createdAt, versions: structuredClone(baseline) }
        // The starting point first, the record last: a watch is whole once its record is there.
        await mkdir(dirOf(record.id), { mode: 0o700 })
        await writeFileAtomic(join(dirOf(record.id), START), startText(record.id, start))
        await writeRecord(record)
        watches.set(record.id, record)
        seen.set(record.id, startingVersions(start))
        return { watch: structuredClone(record), created: true }
      })
    },
    async getWatch(id) {
      const record = watches.get(id)
      return record && structuredClone(record)
    },
    async watchByHookId(hookId) {
      const [watch] = [...watches.values()].filter((w) => w.hookId === hookId).sort(newestFirst)
      return watch && structuredClone(watch)
    },
    async watchesOf(userId) {
      return [...watches.values()]
        .filter((watch) => watch.userId === userId)
        .sort(newestFirst)
        .map((watch) => structuredClone(watch))
    },
    async allWatches() {
      return [...watches.values()].sort(newestFirst).map((watch) => structuredClone(watch))
    },
    updateWatch(id, patch) {
      // Under the watch's lock, as its folder is removed: a watch deleted meanwhile stays gone.
      return watchLock(id, async () => {
        const current = watches.get(id)
        // A watch whose stored state cannot be read stays as it is said to be, until it ends.
        if (!current || current.pausedFor === 'record') return
        const next = patchedWatch(current, patch)
        await writeRecord(next)
        if (watches.has(id)) watches.set(id, next)
      })
    },
    async deleteWatch(id) {
      watches.delete(id)
      seen.delete(id)
      await watchLock(id, () => rm(dirOf(id), { recursive: true, force: true }))
    },
    async noteWatchedVersions(watchId, list, as) {
      const versions = versionsOf(watchId)
      const now = new Date().toISOString()
      const added: Seen[] = []
      for (const version of list) {
        if (versions.has(version.fileStorageId)) continue
        const entry: Seen = { state: as, seenAt: now, version: structuredClone(version) }
        versions.set(version.fileStorageId, entry)
        added.push(entry)
      }
      if (added.length > 0) await logSeen(watchId, added)
      return added.length
    },
    async takeWatchedVersions(watchId, limit) {
      const versions = versionsOf(watchId)
      const lapsed = new Date(Date.now() - TAKEN_LEASE_MS).toISOString()
      const now = new Date().toISOString()
      const taken: Seen[] = []
      // The map keeps the order versions were first seen in (a change of state keeps its place).
      for (const entry of versions.values()) {
        if (taken.length >= limit) break
        const free =
          entry.state === 'pending' || (entry.state === 'taken' && (entry.takenAt ?? '') < lapsed)
        if (!free) continue
        entry.state = 'taken'
        entry.takenAt = now
        taken.push(entry)
      }
      if (taken.length > 0) await logSeen(watchId, taken)
      return taken.map((entry) => structuredClone(entry.version))
    },
    async settleWatchedVersion(watchId, fileStorageId, outcome) {
      const entry = seen.get(watchId)?.get(fileStorageId)
      if (!entry) return
      settle(entry, outcome)
      await logSeen(watchId, [entry])
    },
    async waitingCount(watchId) {
      let count = 0
      for (const entry of seen.get(watchId)?.values() ?? []) {
        if (entry.state === 'pending' || entry.state === 'taken') count++
      }
      return count
    },
    async standingGrant(userId) {
      return grantOf(grantFile(userId))
    },
    withStandingGrant(userId, use) {
      return grantLock(userId, async () => {
        const file = grantFile(userId)
        const { grant, value } = await use(await grantOf(file))
        if (grant) await writeFileAtomic(file, await seal(grant, options.tokenKey))
        else await rm(file, { force: true })
        return value
      })
    },
    async close() {
      await Promise.allSettled([...watches.keys()].map((id) => watchLock(id, async () => {})))
    },
  }
}

function settle(entry: Seen, outcome: WatchedOutcome): void {
  delete entry.takenAt
  if (outcome === 'wait') entry.state = 'pending'
  else if ('jobId' in outcome) {
    entry.state = 'queued'
    entry.jobId = outcome.jobId
  } else {
    entry.state = 'skipped'
    entry.skipped = outcome.skipped
  }
}

function newestFirst(a: WatchRecord, b: WatchRecord): number {
  return b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id)
}
