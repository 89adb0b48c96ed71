import { createHash, randomUUID } from 'node:crypto'
import { appendFile, mkdir, readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { seal, unseal } from '../auth/sealed.ts'
import { createKeyedLock } from '../cloud/local/keyed-lock.ts'
import { TEMP_SUFFIX, writeFileAtomic } from '../lib/atomic-write.ts'
import { newWatchRecord, parseWatchRecord, patchedWatch, TAKEN_LEASE_MS } from './watch-record.ts'
import type {
  StandingGrant,
  WatchedOutcome,
  WatchedVersion,
  WatchRecord,
  WatchStore,
} from './watch-types.ts'

/** What became of a version a watch saw. */
type SeenState = 'baseline' | 'pending' | 'taken' | 'queued' | 'skipped'

interface Seen {
  state: SeenState
  /** When it was first seen: its place in line. */
  seenAt: string
  takenAt?: string
  jobId?: string
  /** Why it is never to be extracted (skipped). */
  skipped?: string
  version: WatchedVersion
}

const ID_PATTERN = /^[0-9a-f-]{36}$/
/** Each watch's versions: a log of their states, one JSON line per change, the last one holds. */
const SEEN_LOG = 'versions.jsonl'

/**
 * The embedded store's watches: one folder per watch under `<dataDir>/watches`, with its record
 * (`watch.json`) and what it has seen (`versions.jsonl`, a log of the versions' states, rewritten
 * short when the watch is opened). The standing grants are sealed, one file
 * per person in `<dataDir>/watches/grants`. One process owns the folder.
 */
export async function openEmbeddedWatches(options: {
  dataDir: string
  tokenKey: Uint8Array
  log: (message: string) => void
}): Promise<WatchStore & { close(): Promise<void> }> {
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

  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || !ID_PATTERN.test(entry.name)) continue
    try {
      for (const name of await readdir(dirOf(entry.name))) {
        if (name.endsWith(TEMP_SUFFIX)) await rm(join(dirOf(entry.name), name), { force: true })
      }
      const record = parseWatchRecord(
        JSON.parse(await readFile(join(dirOf(entry.name), 'watch.json'), 'utf8')),
        entry.name,
      )
      watches.set(record.id, record)
      const log = join(dirOf(entry.name), SEEN_LOG)
      const { versions, lines } = await readSeen(log)
      // One process owns the folder: what a process before it had taken and not settled is
      // free at once (a version it had queued is then skipped as already extracted).
      let freed = 0
      for (const version of versions.values()) {
        if (version.state !== 'taken') continue
        version.state = 'pending'
        delete version.takenAt
        freed++
      }
      // Kept short, and whole: a torn last line would join the next one appended.
      if (lines !== versions.size || freed > 0) {
        await writeFileAtomic(log, [...versions.values()].map(logLine).join(''))
      }
      seen.set(record.id, versions)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        // Killed while the watch was being made: its POST never answered.
        await rm(dirOf(entry.name), { recursive: true, force: true })
        continue
      }
      options.log(`watches: skipped the unreadable watch ${dirOf(entry.name)}: ${String(error)}`)
    }
  }

  const writeRecord = (record: WatchRecord) =>
    writeFileAtomic(join(dirOf(record.id), 'watch.json'), JSON.stringify(record))

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
        const now = new Date().toISOString()
        const versions = new Map<string, Seen>()
        for (const version of baseline) {
          versions.set(version.fileStorageId, {
            state: 'baseline',
            seenAt: now,
            version: structuredClone(version),
          })
        }
        // The starting point first, the record last: a watch is whole once its record is there.
        await mkdir(dirOf(record.id), { mode: 0o700 })
        await writeFileAtomic(
          join(dirOf(record.id), SEEN_LOG),
          [...versions.values()].map(logLine).join(''),
        )
        await writeRecord(record)
        watches.set(record.id, record)
        seen.set(record.id, versions)
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
        if (!current) return
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
      return readGrant(grantFile(userId), options.tokenKey)
    },
    withStandingGrant(userId, use) {
      return grantLock(userId, async () => {
        const file = grantFile(userId)
        const { grant, value } = await use(await readGrant(file, options.tokenKey))
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

const logLine = (entry: Seen) => `${JSON.stringify(entry)}\n`

/**
 * The watch's log read back: each version's last line wins; a torn line is left out. `lines`:
 * how many lines it had (torn ones included).
 */
async function readSeen(file: string): Promise<{ versions: Map<string, Seen>; lines: number }> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { versions: new Map(), lines: 0 }
    throw error
  }
  const versions = new Map<string, Seen>()
  let lines = 0
  for (const line of text.split('\n')) {
    if (!line) continue
    lines++
    let entry: Seen
    try {
      entry = JSON.parse(line) as Seen
    } catch {
      continue
    }
    versions.set(entry.version.fileStorageId, entry)
  }
  return { versions, lines }
}

async function readGrant(file: string, key: Uint8Array): Promise<StandingGrant | undefined> {
  try {
    return await unseal<StandingGrant>(await readFile(file, 'utf8'), key)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

function newestFirst(a: WatchRecord, b: WatchRecord): number {
  return b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id)
}
