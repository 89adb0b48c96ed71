import { readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { TEMP_SUFFIX, writeFileAtomic } from '../../lib/atomic-write.ts'
import {
  logLine,
  readSeen,
  readStart,
  type Seen,
  type StartingPoint,
  startText,
} from './embedded-files.ts'
import type { WatchRecord } from './types.ts'
import { damagedWatch, parseWatchRecord, pausedAsDamaged } from './watch-record.ts'

/** Each watch's record. */
export const RECORD = 'watch.json'
/** Each watch's starting point: the versions already in its folder, written once. */
export const START = 'start.json'
/** Each watch's versions seen since: a log of their states, one JSON line per change, the last one holds. */
export const SEEN_LOG = 'versions.jsonl'

const ID_PATTERN = /^[0-9a-f-]{36}$/

/** A watch read back from its folder: its record and the versions it has seen. */
export interface OpenedWatch {
  record: WatchRecord
  versions: Map<string, Seen>
}

/** Every watch under `root` read back, by id; one that cannot be read at all is named and skipped. */
export async function openWatchFolders(
  root: string,
  log: (message: string) => void,
): Promise<Map<string, OpenedWatch>> {
  const opened = new Map<string, OpenedWatch>()
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || !ID_PATTERN.test(entry.name)) continue
    const dir = join(root, entry.name)
    try {
      const watch = await openWatchFolder(dir, entry.name, log)
      if (watch) opened.set(entry.name, watch)
    } catch (error) {
      log(`watches: skipped the unreadable watch ${dir}: ${String(error)}`)
    }
  }
  return opened
}

/**
 * Reads a watch's folder back. What cannot be read is said, never acted on as if it were less:
 * a damaged line of the log is left out (named in the log) and the rest kept; a log emptied or
 * lost leaves the starting point, kept apart (the versions seen since are found again by the
 * next look, and one already extracted is skipped as such); a record or starting point that
 * cannot be read pauses the watch, saying so.
 */
async function openWatchFolder(
  dir: string,
  id: string,
  log: (message: string) => void,
): Promise<OpenedWatch | undefined> {
  for (const name of await readdir(dir)) {
    if (name.endsWith(TEMP_SUFFIX)) await rm(join(dir, name), { force: true })
  }
  const recordFile = join(dir, RECORD)
  let recordText: string
  try {
    recordText = await readFile(recordFile, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    // Killed while the watch was being made: its POST never answered.
    await rm(dir, { recursive: true, force: true })
    return undefined
  }
  let record: WatchRecord
  try {
    record = parseWatchRecord(JSON.parse(recordText), id)
  } catch (error) {
    // Shown paused to its owner when the record still says whose it is, so they can end it.
    const standIn = damagedWatch(id, objectIn(recordText))
    log(
      `watches: the record ${recordFile} cannot be read (${String(error)}); ` +
        (standIn ? 'the watch is shown paused until its owner stops it' : 'skipped'),
    )
    return standIn && { record: standIn, versions: new Map() }
  }
  const versions = await versionsFrom(dir, record, log).catch((error: unknown) => {
    log(
      `watches: what the watch ${dir} has seen cannot be read (${String(error)}); ` +
        'it is paused until its owner stops it and watches the folder again',
    )
    return undefined
  })
  if (!versions) {
    if (record.pausedFor !== 'record') {
      record = pausedAsDamaged(record)
      await writeFileAtomic(join(dir, RECORD), JSON.stringify(record))
    }
    return { record, versions: new Map() }
  }
  return { record, versions }
}

/**
 * The watch's versions: its starting point, then its log over it. Throws when the starting
 * point, or the log as a whole, cannot be read.
 */
async function versionsFrom(
  dir: string,
  record: WatchRecord,
  log: (message: string) => void,
): Promise<Map<string, Seen>> {
  const logFile = join(dir, SEEN_LOG)
  const startFile = join(dir, START)
  const logged = await readSeen(logFile)
  let start = await readStart(startFile, record.id)
  if (!start) {
    // Begun before starting points were kept apart: its log holds it, kept apart from now on.
    start = {
      at: record.createdAt,
      versions: [...logged.versions.values()]
        .filter((entry) => entry.state === 'baseline')
        .map((entry) => entry.version),
    }
    await writeFileAtomic(startFile, startText(record.id, start))
  }
  if (logged.unreadable.length > 0) {
    log(
      `watches: left out ${logged.unreadable.length} unreadable line(s) of ${logFile}, ` +
        `kept the rest: ${logged.unreadable.slice(0, 3).join(' | ')}`,
    )
  }
  const versions = startingVersions(start)
  // One process owns the folder: what a process before it had taken and not settled is
  // free at once (a version it had queued is then skipped as already extracted).
  let freed = 0
  for (const [fileStorageId, entry] of logged.versions) {
    if (entry.state === 'taken') {
      entry.state = 'pending'
      delete entry.takenAt
      freed++
    }
    versions.set(fileStorageId, entry)
  }
  // Kept short, and whole: a torn last line would join the next one appended.
  if (logged.lines !== logged.versions.size || freed > 0) {
    await writeFileAtomic(logFile, [...logged.versions.values()].map(logLine).join(''))
  }
  return versions
}

/** The starting point's versions, never to be extracted. */
export function startingVersions(start: StartingPoint): Map<string, Seen> {
  return new Map(
    start.versions.map((version) => [
      version.fileStorageId,
      { state: 'baseline', seenAt: start.at, version: structuredClone(version) },
    ]),
  )
}

/** The fields a damaged record's text still shows, if it is an object at all. */
function objectIn(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}
