import { randomBytes } from 'node:crypto'
import type { Stats } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../../lib/atomic-write.ts'
import { log } from '../../log.ts'
import { createSettling, type SettleOptions } from './settling.ts'
import {
  HISTORY_DIR,
  keptVersion,
  listVersions,
  recordCurrent,
  type VersionInfo,
} from './version-store.ts'

type Lock = <T>(key: string, task: () => Promise<T>) => Promise<T>

/** New versions copied at once while a folder is listed: enough to overlap disk waits. */
const PARALLEL = 8
/** Files remembered as recorded; past this the oldest are forgotten (and checked on disk again). */
const REMEMBERED = 200_000
/**
 * `<folder>/.versions/.recorded.json`: name → size and mtime of each file last seen recorded, so
 * that the first listing after a restart need not read every file's history. Only a shortcut: a
 * name missing or out of date there is checked on disk. No item's history folder starts with a dot.
 */
const SUMMARY = '.recorded.json'
/** Listings of an item taken before answering with one that met a write half done. */
const LISTING_TRIES = 3

export interface ListedFile {
  name: string
  abs: string
  info: Stats
}

/** What `record` did: the file is a version kept, is still settling, or could not be recorded. */
export type Recorded = 'kept' | 'settling' | 'not kept'

export interface VersionRecorder {
  /**
   * Records the item's file as a version with its bytes kept, unless it already is, or it is a
   * file dropped by hand that has not stopped changing yet (settling.ts).
   */
  record(itemAbs: string): Promise<Recorded>
  /** The same for a folder's files, skipping those whose size and mtime are known as recorded. */
  recordAll(folderAbs: string, files: readonly ListedFile[]): Promise<void>
  /**
   * The item's versions, oldest first, once its file is recorded (version-store's
   * `listVersions`); a file still settling is the newest, marked `settling`, not yet recorded.
   */
  versions(itemAbs: string): Promise<VersionInfo[]>
}

const signature = (info: Stats) => `${info.size}:${info.mtimeMs}`

/**
 * The summary's names and values; none when it is missing or cannot be read. One that cannot be
 * read is only logged: the listing then checks every file on disk and writes it again whole.
 */
async function readSummaryFile(file: string): Promise<Record<string, unknown>> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return {}
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    return parsed as Record<string, unknown>
  }
  log.warn('local cloud: the cache of recorded versions cannot be read; it is made again', { file })
  return {}
}

/**
 * Records versions the first time the cloud lists or reads them (version-store's `recordCurrent`),
 * under the item's lock so that two listings at once, in one process or in several, record a
 * version once and never between the steps of an upload. A file already recorded is seen so
 * without the lock: reads never wait for another process's writes to other files. A file dropped
 * by hand is recorded once it has stopped changing (`settle`), so a copy seen half written is not
 * a version of its own. Recording is best effort: a folder BOQ cannot write to is still listed.
 */
export function createVersionRecorder(options: {
  lock: Lock
  fallbackUser: string
  settle?: SettleOptions
}): VersionRecorder {
  const { lock, fallbackUser } = options
  const settling = createSettling(options.settle)
  /** itemAbs → size and mtime of the version last seen recorded and kept. */
  const seen = new Map<string, string>()
  /** Folders whose summary was read into `seen`. */
  const summaries = new Set<string>()

  function remember(itemAbs: string, value: string) {
    seen.delete(itemAbs)
    seen.set(itemAbs, value)
    if (seen.size > REMEMBERED) seen.delete(seen.keys().next().value as string)
  }

  async function record(itemAbs: string): Promise<Recorded> {
    try {
      let recorded = await keptVersion(itemAbs)
      if (!recorded) {
        // Still changing: not worth the lock (it is asked again under it).
        if (!settling.settled(itemAbs, await stat(itemAbs))) return 'settling'
        const done = await lock(itemAbs, () =>
          recordCurrent(itemAbs, fallbackUser, (info) => settling.settled(itemAbs, info)),
        )
        if (done === 'settling') return done
        recorded = done
      }
      if (!recorded) return 'not kept'
      settling.forget(itemAbs)
      remember(itemAbs, signature(recorded))
      return 'kept'
    } catch {
      // Not recorded (no write access, the file gone meanwhile): the listing answers all the same.
      return 'not kept'
    }
  }

  async function readSummary(folderAbs: string, files: readonly ListedFile[]) {
    if (summaries.has(folderAbs)) return
    summaries.add(folderAbs)
    const summary = await readSummaryFile(join(folderAbs, HISTORY_DIR, SUMMARY))
    for (const file of files) {
      const value = summary[file.name]
      if (typeof value === 'string' && !seen.has(file.abs)) remember(file.abs, value)
    }
  }

  async function writeSummary(folderAbs: string, files: readonly ListedFile[]) {
    const summary: Record<string, string> = {}
    for (const file of files) {
      const value = seen.get(file.abs)
      if (value) summary[file.name] = value
    }
    const dir = join(folderAbs, HISTORY_DIR)
    const temp = join(dir, `${SUMMARY}.${randomBytes(6).toString('hex')}`)
    // Not flushed, and failing quietly: without it the next start checks the files on disk,
    // slower, never wrong.
    await writeFileAtomic(join(dir, SUMMARY), JSON.stringify(summary), {
      temp,
      flush: false,
    }).catch(() => undefined)
  }

  return {
    record,

    async versions(itemAbs) {
      for (let tries = 1; ; tries++) {
        const recorded = await record(itemAbs)
        const versions = await listVersions(itemAbs, fallbackUser)
        const newest = versions.at(-1)
        if (newest?.path !== itemAbs) return versions
        // Read from the item file, not from its copy: a copy by hand still being written...
        if (recorded === 'settling')
          return [...versions.slice(0, -1), { ...newest, settling: true }]
        // ...or not recorded after all, because another process had replaced the file and not yet
        // recorded it when this one looked (or the folder cannot be written to). Once that write
        // is over, the listing is whole.
        if (tries === LISTING_TRIES) return versions
      }
    },

    async recordAll(folderAbs, files) {
      await readSummary(folderAbs, files)
      const unknown = files.filter((file) => seen.get(file.abs) !== signature(file.info))
      if (unknown.length === 0) return
      let next = 0
      const worker = async () => {
        while (next < unknown.length) {
          const file = unknown[next++]
          if (file) await record(file.abs)
        }
      }
      await Promise.all(Array.from({ length: Math.min(PARALLEL, unknown.length) }, worker))
      await writeSummary(folderAbs, files)
    },
  }
}
