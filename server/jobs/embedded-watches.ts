import { createHash, randomUUID } from 'node:crypto'
import { mkdir, readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import * as v from 'valibot'
import { WatchStateSchema } from '../../contract/watches.ts'
import { seal, unseal } from '../auth/sealed.ts'
import { createKeyedLock } from '../cloud/local/keyed-lock.ts'
import { TEMP_SUFFIX, writeFileAtomic } from '../lib/atomic-write.ts'
import { newWatchRecord, patchedWatch } from './watch-record.ts'
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
  version: WatchedVersion
}

/** A taken version not settled within this long (its process gone) is pending again. */
export const TAKEN_LEASE_MS = 5 * 60 * 1000

const ID_PATTERN = /^[0-9a-f-]{36}$/

const WatchRecordSchema = v.looseObject({
  id: v.string(),
  userId: v.string(),
  projectId: v.string(),
  fileFolderId: v.string(),
  createdAt: v.string(),
  updatedAt: v.string(),
  state: WatchStateSchema,
})

/**
 * The embedded store's watches: one folder per watch under `<dataDir>/watches`, with its record
 * (`watch.json`) and what it has seen (`versions.json`, rewritten whole, at most one write at a
 * time: changes made during a write go in the next). The standing grants are sealed, one file
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
  const versionWrites = new Map<string, { running: Promise<void>; again: boolean }>()

  const dirOf = (id: string) => join(root, id)
  const grantFile = (userId: string) =>
    join(grantsDir, createHash('sha256').update(userId).digest('hex'))

  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || !ID_PATTERN.test(entry.name)) continue
    try {
      for (const name of await readdir(dirOf(entry.name))) {
        if (name.endsWith(TEMP_SUFFIX)) await rm(join(dirOf(entry.name), name), { force: true })
      }
      const record = checkedWatch(await readFile(join(dirOf(entry.name), 'watch.json'), 'utf8'))
      if (record.id !== entry.name) throw new Error(`it names watch ${record.id}`)
      watches.set(record.id, record)
      seen.set(record.id, await readSeen(join(dirOf(entry.name), 'versions.json')))
    } catch (error) {
      options.log(`watches: skipped the unreadable watch ${dirOf(entry.name)}: ${String(error)}`)
    }
  }

  const writeRecord = (record: WatchRecord) =>
    writeFileAtomic(join(dirOf(record.id), 'watch.json'), JSON.stringify(record))

  /** Writes the watch's versions now, or once more after the write under way. */
  function saveSeen(watchId: string): Promise<void> {
    const under = versionWrites.get(watchId)
    if (under) {
      under.again = true
      return under.running
    }
    const entry = { running: Promise.resolve(), again: false }
    entry.running = (async () => {
      do {
        entry.again = false
        const versions = seen.get(watchId)
        if (!versions || !watches.has(watchId)) return
        await writeFileAtomic(
          join(dirOf(watchId), 'versions.json'),
          JSON.stringify(Object.fromEntries(versions)),
        )
      } while (entry.again)
    })().finally(() => versionWrites.delete(watchId))
    versionWrites.set(watchId, entry)
    return entry.running
  }

  /** What the watch has seen; a watch deleted meanwhile has seen nothing and keeps nothing. */
  const versionsOf = (watchId: string) => seen.get(watchId) ?? new Map<string, Seen>()

  return {
    async createWatch(input) {
      const record = newWatchRecord(randomUUID(), input)
      await mkdir(dirOf(record.id), { mode: 0o700 })
      await writeFileAtomic(join(dirOf(record.id), 'versions.json'), '{}')
      await writeRecord(record)
      watches.set(record.id, record)
      seen.set(record.id, new Map())
      return structuredClone(record)
    },
    async getWatch(id) {
      const record = watches.get(id)
      return record && structuredClone(record)
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
    async updateWatch(id, patch) {
      const current = watches.get(id)
      if (!current) return
      const next = patchedWatch(current, patch)
      await writeRecord(next)
      if (watches.has(id)) watches.set(id, next)
    },
    async deleteWatch(id) {
      watches.delete(id)
      seen.delete(id)
      await versionWrites.get(id)?.running.catch(() => {})
      await rm(dirOf(id), { recursive: true, force: true })
    },
    async noteWatchedVersions(watchId, list, as) {
      const versions = versionsOf(watchId)
      const now = new Date().toISOString()
      let added = 0
      for (const version of list) {
        if (versions.has(version.fileStorageId)) continue
        versions.set(version.fileStorageId, {
          state: as,
          seenAt: now,
          version: structuredClone(version),
        })
        added++
      }
      if (added > 0) await saveSeen(watchId)
      return added
    },
    async takeWatchedVersions(watchId, limit) {
      const versions = versionsOf(watchId)
      const lapsed = new Date(Date.now() - TAKEN_LEASE_MS).toISOString()
      const now = new Date().toISOString()
      const taken: WatchedVersion[] = []
      for (const entry of [...versions.values()].sort(inLine)) {
        if (taken.length >= limit) break
        const free =
          entry.state === 'pending' || (entry.state === 'taken' && (entry.takenAt ?? '') < lapsed)
        if (!free) continue
        entry.state = 'taken'
        entry.takenAt = now
        taken.push(structuredClone(entry.version))
      }
      if (taken.length > 0) await saveSeen(watchId)
      return taken
    },
    async settleWatchedVersion(watchId, fileStorageId, outcome) {
      const entry = seen.get(watchId)?.get(fileStorageId)
      if (!entry) return
      settle(entry, outcome)
      await saveSeen(watchId)
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
      await Promise.allSettled([...versionWrites.values()].map((entry) => entry.running))
    },
  }
}

function settle(entry: Seen, outcome: WatchedOutcome): void {
  delete entry.takenAt
  if (outcome === 'wait') entry.state = 'pending'
  else if ('jobId' in outcome) {
    entry.state = 'queued'
    entry.jobId = outcome.jobId
  } else entry.state = 'skipped'
}

function checkedWatch(text: string): WatchRecord {
  const result = v.safeParse(WatchRecordSchema, JSON.parse(text))
  if (!result.success) throw new Error(result.issues[0].message)
  return result.output as unknown as WatchRecord
}

async function readSeen(file: string): Promise<Map<string, Seen>> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map()
    throw error
  }
  return new Map(Object.entries(JSON.parse(text) as Record<string, Seen>))
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

function inLine(a: Seen, b: Seen): number {
  return (
    a.seenAt.localeCompare(b.seenAt) ||
    a.version.fileStorageId.localeCompare(b.version.fileStorageId)
  )
}
