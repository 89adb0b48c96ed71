import { randomBytes } from 'node:crypto'
import type { Stats } from 'node:fs'
import {
  constants,
  copyFile,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises'
import { basename, dirname, extname, join } from 'node:path'
import { check as lockedNow, lock as lockFile } from 'proper-lockfile'
import { AppError } from '../../errors.ts'
import { renameDurably, writeFileAtomic } from '../../lib/atomic-write.ts'
import { log } from '../../log.ts'

/**
 * Versions of one file, kept beside it: `<folder>/<name>` is always the newest version, and
 * `<folder>/.versions/<name>/` holds `versions.json` (who and when, per version) and a copy of
 * every recorded version's bytes as `v<N><ext>`, the newest included, so that a file overwritten
 * by hand never takes a recorded version with it. A file no record describes (dropped in or
 * overwritten by hand) is the next version: `recordCurrent` records it and copies its bytes, once
 * it has stopped changing (its caller says when: settling.ts).
 *
 * Several processes may share the folder: the callers hold the item's lock (item-lock.ts) around
 * every write, and a new version's number is claimed by creating its copy exclusively, so two
 * writers never get one number even if that lock failed them. An upload's bytes are received
 * before the lock is taken, into an incoming file marked as being filled (`openIncoming`).
 *
 * The copies are what a history is rebuilt from. A copy whose record is lost (versions.json
 * damaged, truncated or deleted) is still its version, under its number, by an unknown author at
 * the copy's mtime. What a write stopped halfway leaves (temporary files, an incoming file whose
 * mark went stale, a claimed copy still empty, a copy the file itself never had) is no version: it is removed, and its number given
 * again. Both are put in order on disk the next time the item is written or recorded, under its
 * lock, when no write to it can be half done; until then reads show the history as rebuilt.
 */

export const HISTORY_DIR = '.versions'
const META_FILE = 'versions.json'
/** Copies of a file that changed while it was being copied are thrown away and tried again. */
const COPY_TRIES = 3
/** The author of a version rebuilt from its copy, its record lost: nobody can tell. */
export const UNKNOWN_USER = 'unknown'
/** The mtime of a version rebuilt from its copy: no file on disk is known to be that version. */
const UNKNOWN_MTIME = -1
/** The temporary files of `tempPath`. */
const TEMP_NAME = /^\.(?:copy|incoming|versions\.json)-[0-9a-f]{12}$/
/** The incoming files of `openIncoming`, and the marks (lock directories) of those being filled. */
const INCOMING_NAME = /^(\.incoming-[0-9a-f]{12})(\.lock)?$/
/**
 * A mark its writer no longer refreshes (the process was killed while receiving) is stale after
 * this long, and its file a leftover; the writer refreshes it every half of it.
 */
const RECEIVING_STALE_MS = 10_000
/** Bytes compared at a time when a rebuilt version is checked against the file on disk. */
const COMPARE_CHUNK = 1024 * 1024

interface Recorded {
  number: number
  createTime: string
  userName: string
  size: number
  /** Size and mtime tell whether the file on disk is still the version this record describes. */
  mtimeMs: number
}

export interface VersionInfo {
  number: number
  createTime: string
  userName: string
  size: number
  /** Where the bytes are: the version's copy, or the item file itself while it has none. */
  path: string
  /** The newest, a file dropped by hand still changing: shown, not recorded yet (settling.ts). */
  settling?: boolean
}

interface History {
  /** Oldest first: those of versions.json, and those rebuilt from copies it has none for. */
  records: Recorded[]
  /** Numbers of the version copies in the history folder. */
  copies: Set<number>
  /** Numbers of the records rebuilt from their copies. */
  rebuilt: number[]
  /** Names in the history folder of what an unfinished write left there. */
  leftovers: string[]
  /** versions.json is there but could not be read whole. */
  unreadable: boolean
}

export function historyDir(itemAbs: string): string {
  return join(dirname(itemAbs), HISTORY_DIR, basename(itemAbs))
}

function copyPath(itemAbs: string, number: number): string {
  return join(historyDir(itemAbs), `v${number}${extname(itemAbs)}`)
}

function tempPath(itemAbs: string, what: 'copy' | 'incoming' | typeof META_FILE): string {
  return join(historyDir(itemAbs), `.${what}-${randomBytes(6).toString('hex')}`)
}

const isMissing = (error: unknown) =>
  ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')

function isRecord(value: unknown): value is Recorded {
  const r = value as Partial<Recorded> | null
  return (
    typeof r === 'object' &&
    r !== null &&
    Number.isInteger(r.number) &&
    (r.number as number) > 0 &&
    typeof r.createTime === 'string' &&
    typeof r.userName === 'string' &&
    Number.isFinite(r.size) &&
    Number.isFinite(r.mtimeMs)
  )
}

/**
 * The records of versions.json that can be read, oldest first; `unreadable` when it is there but
 * not whole (not JSON, cut short, a record without its fields). Read errors are thrown.
 */
async function readRecords(itemAbs: string): Promise<{ records: Recorded[]; unreadable: boolean }> {
  let text: string
  try {
    text = await readFile(join(historyDir(itemAbs), META_FILE), 'utf8')
  } catch (error) {
    if (isMissing(error)) return { records: [], unreadable: false }
    throw error
  }
  let versions: unknown
  try {
    versions = (JSON.parse(text) as { versions?: unknown } | null)?.versions
  } catch {
    versions = undefined
  }
  if (!Array.isArray(versions)) return { records: [], unreadable: true }
  const byNumber = new Map<number, Recorded>()
  for (const v of versions) if (isRecord(v) && !byNumber.has(v.number)) byNumber.set(v.number, v)
  const records = [...byNumber.values()].sort((a, b) => a.number - b.number)
  return { records, unreadable: records.length !== versions.length }
}

function describes(record: Recorded | undefined, info: Stats): record is Recorded {
  return record !== undefined && record.size === info.size && record.mtimeMs === info.mtimeMs
}

/**
 * The item's history as its copies tell it (see the top of this file); `item` is the stat of the
 * file on disk, undefined when there is none. Reads only.
 */
async function readHistory(itemAbs: string, item: Stats | undefined): Promise<History> {
  const ext = extname(itemAbs)
  const [{ records: kept, unreadable }, names] = await Promise.all([
    readRecords(itemAbs),
    readdir(historyDir(itemAbs)).catch((error) => {
      if (isMissing(error)) return [] as string[]
      throw error
    }),
  ])
  const copies = new Set<number>()
  const leftovers: string[] = []
  const receiving = await receivingNow(itemAbs, names)
  for (const name of names) {
    const incoming = INCOMING_NAME.exec(name)
    if (incoming ? !receiving.has(incoming[1] as string) : TEMP_NAME.test(name)) {
      leftovers.push(name)
    }
    const digits =
      name.startsWith('v') && name.endsWith(ext) ? name.slice(1, -ext.length || undefined) : ''
    if (/^[1-9]\d{0,8}$/.test(digits)) copies.add(Number(digits))
  }
  // The file on disk is the version its record describes: a copy numbered past it with no record
  // is of a write that stopped before putting its bytes in place.
  const current = item?.isFile() ? kept.findLast((r) => describes(r, item)) : undefined
  const recorded = new Set(kept.map((r) => r.number))
  const rebuilt: Recorded[] = []
  for (const number of [...copies].filter((n) => !recorded.has(n)).sort((a, b) => a - b)) {
    const info = await stat(copyPath(itemAbs, number)).catch(() => undefined)
    if (!info?.isFile()) continue
    if (info.size === 0 || (current && number > current.number)) {
      leftovers.push(basename(copyPath(itemAbs, number)))
      continue
    }
    rebuilt.push({
      number,
      createTime: info.mtime.toISOString(),
      userName: UNKNOWN_USER,
      size: info.size,
      mtimeMs: UNKNOWN_MTIME,
    })
  }
  return {
    records: [...kept, ...rebuilt].sort((a, b) => a.number - b.number),
    copies,
    rebuilt: rebuilt.map((r) => r.number),
    leftovers,
    unreadable,
  }
}

/**
 * The incoming files among `names` (the history folder's) that a write is still filling, in this
 * process or in another: those whose mark is there and fresh.
 */
async function receivingNow(itemAbs: string, names: readonly string[]): Promise<Set<string>> {
  const incoming = new Set<string>()
  for (const name of names) {
    const match = INCOMING_NAME.exec(name)
    if (match?.[2]) incoming.add(match[1] as string)
  }
  const live = new Set<string>()
  for (const name of incoming) {
    const file = join(historyDir(itemAbs), name)
    const marked = await lockedNow(file, {
      lockfilePath: `${file}.lock`,
      realpath: false,
      stale: RECEIVING_STALE_MS,
    }).catch(() => false)
    if (marked) live.add(name)
  }
  return live
}

const needsRepair = (history: History) =>
  history.unreadable || history.rebuilt.length > 0 || history.leftovers.length > 0

/**
 * Writes versions.json whole, then renames it in. `flush`: on disk before this returns (a
 * version written through BOQ); what is not flushed, `repair` rebuilds from the copies.
 */
async function writeRecords(itemAbs: string, records: Recorded[], flush: boolean): Promise<void> {
  await writeFileAtomic(
    join(historyDir(itemAbs), META_FILE),
    `${JSON.stringify({ name: basename(itemAbs), versions: records }, null, 2)}\n`,
    { temp: tempPath(itemAbs, META_FILE), flush },
  )
}

/**
 * Adds a record to versions.json as it is now on disk (re-read just before: another process may
 * have added one), keeping `known` records it lacks.
 */
async function addRecord(
  itemAbs: string,
  known: Recorded[],
  record: Recorded,
  flush: boolean,
): Promise<void> {
  const byNumber = new Map(known.map((r) => [r.number, r]))
  for (const r of (await readRecords(itemAbs)).records) byNumber.set(r.number, r)
  byNumber.set(record.number, record)
  await writeRecords(
    itemAbs,
    [...byNumber.values()].sort((a, b) => a.number - b.number),
    flush,
  )
}

/** Whether two files hold the same bytes. */
async function sameBytes(a: string, b: string): Promise<boolean> {
  const [first, second] = await Promise.all([open(a, 'r'), open(b, 'r')])
  try {
    const one = Buffer.alloc(COMPARE_CHUNK)
    const other = Buffer.alloc(COMPARE_CHUNK)
    for (let position = 0; ; position += COMPARE_CHUNK) {
      const [x, y] = await Promise.all([
        first.read(one, 0, COMPARE_CHUNK, position),
        second.read(other, 0, COMPARE_CHUNK, position),
      ])
      if (x.bytesRead !== y.bytesRead) return false
      if (x.bytesRead === 0) return true
      if (!one.subarray(0, x.bytesRead).equals(other.subarray(0, y.bytesRead))) return false
    }
  } finally {
    await Promise.all([first.close(), second.close()])
  }
}

/**
 * Puts the history in order on disk: removes what unfinished writes left, and writes versions.json
 * again with a record for every copy, when it was damaged or lacked some. A rebuilt newest version
 * whose bytes are the file's is recorded as the file (its size and mtime). The caller holds the
 * item's lock, so that no write to it is half done.
 */
async function repair(
  itemAbs: string,
  history: History,
  item: Stats | undefined,
): Promise<History> {
  if (!needsRepair(history)) return history
  const dir = historyDir(itemAbs)
  if (history.leftovers.length > 0) {
    // Recursive: the mark of an incoming file is a directory.
    await Promise.all(
      history.leftovers.map((name) => rm(join(dir, name), { force: true, recursive: true })),
    )
    log.info('local cloud: removed what an unfinished write left', {
      dir,
      files: history.leftovers,
    })
  }
  const records = [...history.records]
  const newest = records.at(-1)
  if (
    newest &&
    history.rebuilt.includes(newest.number) &&
    item?.isFile() &&
    item.size === newest.size &&
    (await sameBytes(itemAbs, copyPath(itemAbs, newest.number)))
  ) {
    records[records.length - 1] = { ...newest, mtimeMs: item.mtimeMs }
  }
  if (history.unreadable || history.rebuilt.length > 0) {
    await writeRecords(itemAbs, records, false)
    log.warn('local cloud: versions.json was damaged or lacked versions; rebuilt from the copies', {
      file: join(dir, META_FILE),
      rebuilt: history.rebuilt,
    })
  }
  const removed = new Set(history.leftovers)
  const copies = [...history.copies].filter((n) => !removed.has(basename(copyPath(itemAbs, n))))
  return { records, copies: new Set(copies), rebuilt: [], leftovers: [], unreadable: false }
}

/**
 * Past every record and every copy: a number is never given twice, even when `versions.json` was
 * lost or damaged, so no kept copy is ever written over.
 */
function nextNumber(history: History): number {
  return Math.max(history.records.at(-1)?.number ?? 0, ...history.copies) + 1
}

/**
 * Claims the first number from `from` on whose copy no one else has a claim, by creating the
 * copy's file exclusively (empty until the bytes are renamed over it).
 */
async function claimNumber(itemAbs: string, from: number): Promise<number> {
  for (let number = from; ; number++) {
    try {
      await (await open(copyPath(itemAbs, number), 'wx')).close()
      return number
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
}

/**
 * The file's stat when it is a recorded version with its bytes kept and its history is in order,
 * `undefined` otherwise (not recorded yet, being written, or its history to be put in order): what
 * `recordCurrent` would leave as it is. Reads only.
 */
export async function keptVersion(itemAbs: string): Promise<Stats | undefined> {
  const info = await stat(itemAbs)
  const history = await readHistory(itemAbs, info)
  const last = history.records.at(-1)
  return info.isFile() &&
    !needsRepair(history) &&
    describes(last, info) &&
    history.copies.has(last.number)
    ? info
    : undefined
}

/**
 * Makes the file on disk a recorded version with its bytes kept, and returns its stat as recorded;
 * `undefined` when it kept changing while being copied (it is recorded at a later call);
 * `settling` when no record describes it and `settled` says it has not stopped changing (a copy
 * by hand still being written: recorded at a later call, once whole, as one version). A file
 * already recorded and kept costs a read of `versions.json` and of the history folder; a new one
 * is copied once. Puts the history in order first (`repair`). The caller holds the item's lock.
 */
export async function recordCurrent(
  itemAbs: string,
  fallbackUser: string,
  settled: (info: Stats) => boolean = () => true,
): Promise<Stats | 'settling' | undefined> {
  for (let tries = 0; tries < COPY_TRIES; tries++) {
    const before = await stat(itemAbs)
    if (!before.isFile()) return undefined
    const history = await repair(itemAbs, await readHistory(itemAbs, before), before)
    const last = history.records.at(-1)
    const known = describes(last, before)
    if (known && history.copies.has(last.number)) return before
    if (!known && !settled(before)) return 'settling'
    await mkdir(historyDir(itemAbs), { recursive: true })
    const temp = tempPath(itemAbs, 'copy')
    let number: number
    try {
      await copyFile(itemAbs, temp, constants.COPYFILE_FICLONE)
      // A copy taken while the file was being written may be torn: keep it only if nothing moved.
      const after = await stat(itemAbs)
      if (after.size !== before.size || after.mtimeMs !== before.mtimeMs) continue
      // Known without a copy: the newest version as written before every version was copied.
      number = known ? last.number : await claimNumber(itemAbs, nextNumber(history))
      // Not flushed: a folder of thousands of files dropped by hand is recorded at its first
      // listing, and a copy lost in a crash is taken again from the file at the next one.
      await rename(temp, copyPath(itemAbs, number))
    } finally {
      await rm(temp, { force: true })
    }
    if (!known) {
      await addRecord(
        itemAbs,
        history.records,
        {
          number,
          createTime: before.mtime.toISOString(),
          userName: fallbackUser,
          size: before.size,
          mtimeMs: before.mtimeMs,
        },
        false,
      )
    }
    return before
  }
  return undefined
}

/**
 * Every version still readable, oldest first; the last is the one on disk. Reads only: a file no
 * record describes is shown as the next version (its bytes kept once `recordCurrent` ran).
 * `fallbackUser` names whoever wrote such a file.
 */
export async function listVersions(itemAbs: string, fallbackUser: string): Promise<VersionInfo[]> {
  const info = await stat(itemAbs)
  const history = await readHistory(itemAbs, info)
  const last = history.records.at(-1)
  const current: Recorded = describes(last, info)
    ? last
    : {
        number: nextNumber(history),
        createTime: info.mtime.toISOString(),
        userName: fallbackUser,
        size: info.size,
        mtimeMs: info.mtimeMs,
      }
  const versions: VersionInfo[] = history.records
    .filter((r) => r.number !== current.number && history.copies.has(r.number))
    .map((r) => ({ ...pick(r), path: copyPath(itemAbs, r.number) }))
  const currentPath = history.copies.has(current.number)
    ? copyPath(itemAbs, current.number)
    : itemAbs
  versions.push({ ...pick(current), path: currentPath })
  return versions
}

function pick(r: Recorded): Omit<VersionInfo, 'path'> {
  return { number: r.number, createTime: r.createTime, userName: r.userName, size: r.size }
}

/** A new version's bytes received into the item's history folder before its lock is taken. */
export interface Incoming {
  /** The file to write the bytes to (a temporary file of the history folder). */
  readonly path: string
  /** Removes the file unless it became the version, and takes its mark away. */
  close(): Promise<void>
}

/**
 * A temporary file for a new version's bytes that arrive slowly (an upload as it streams in), to
 * be filled without the item's lock, so that other writes and listings of the item do not wait
 * for the sender; `writeVersion` then puts it in place under the lock. While it is being filled
 * it carries a mark, a lock directory beside it that proper-lockfile keeps fresh, and the
 * clean-up of leftovers (`repair`, in this process or another) leaves it alone; once its writer
 * is gone (killed while receiving) the mark goes stale, and the file is removed as any leftover.
 */
export async function openIncoming(itemAbs: string): Promise<Incoming> {
  await mkdir(historyDir(itemAbs), { recursive: true })
  const path = tempPath(itemAbs, 'incoming')
  const unmark = await lockFile(path, {
    lockfilePath: `${path}.lock`,
    realpath: false,
    stale: RECEIVING_STALE_MS,
    // The default throws from a timer, which would end the server.
    onCompromised: (error) => log.warn('incoming file lost its mark while filled', { path, error }),
  })
  let closed = false
  return {
    path,
    async close() {
      if (closed) return
      closed = true
      // The file first: it is never there unmarked while its writer lives.
      await rm(path, { force: true })
      await unmark().catch(() => undefined)
    },
  }
}

/**
 * Writes the newest version of `itemAbs` and keeps its copy: `bytes`, or the file `Incoming`
 * received (renamed in place, never read into memory). The file it replaces is recorded and kept
 * first. A file deleted by hand keeps its history: numbering goes on from it. The caller holds
 * the item's lock.
 */
export async function writeVersion(
  itemAbs: string,
  source: Uint8Array | Incoming,
  userName: string,
  fallbackUser: string,
): Promise<{ number: number; createdItem: boolean }> {
  const exists = await stat(itemAbs).then(
    (s) => s.isFile(),
    () => false,
  )
  if (exists && !(await recordCurrent(itemAbs, fallbackUser))) {
    throw new AppError(409, `"${basename(itemAbs)}" is being written to; try again.`)
  }
  const item = await stat(itemAbs).catch(() => undefined)
  const history = await repair(itemAbs, await readHistory(itemAbs, item), item)
  await mkdir(historyDir(itemAbs), { recursive: true })
  const number = await claimNumber(itemAbs, nextNumber(history))
  const received = !(source instanceof Uint8Array)
  const incoming = received ? source.path : tempPath(itemAbs, 'incoming')
  const copy = tempPath(itemAbs, 'copy')
  let kept = false
  try {
    if (!received) await writeFile(incoming, source)
    await copyFile(incoming, copy, constants.COPYFILE_FICLONE)
    await renameDurably(copy, copyPath(itemAbs, number))
    kept = true
    await renameDurably(incoming, itemAbs)
  } finally {
    await Promise.all([
      received ? undefined : rm(incoming, { force: true }),
      rm(copy, { force: true }),
      // The number claimed and never filled is given again at once.
      kept ? undefined : rm(copyPath(itemAbs, number), { force: true }),
    ])
  }
  const info = await stat(itemAbs)
  await addRecord(
    itemAbs,
    history.records,
    {
      number,
      createTime: new Date().toISOString(),
      userName,
      size: info.size,
      mtimeMs: info.mtimeMs,
    },
    true,
  )
  return { number, createdItem: history.records.length === 0 }
}
