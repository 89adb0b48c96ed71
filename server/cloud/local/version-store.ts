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
import { AppError } from '../../errors.ts'

/**
 * Versions of one file, kept beside it: `<folder>/<name>` is always the newest version, and
 * `<folder>/.versions/<name>/` holds `versions.json` (who and when, per version) and a copy of
 * every recorded version's bytes as `v<N><ext>`, the newest included, so that a file overwritten
 * by hand never takes a recorded version with it. A file no record describes (dropped in or
 * overwritten by hand) is the next version: `recordCurrent` records it and copies its bytes.
 *
 * Several processes may share the folder: the callers hold the item's lock (item-lock.ts) around
 * every write, and a new version's number is claimed by creating its copy exclusively, so two
 * writers never get one number even if that lock failed them.
 */

export const HISTORY_DIR = '.versions'
const META_FILE = 'versions.json'
/** Copies of a file that changed while it was being copied are thrown away and tried again. */
const COPY_TRIES = 3

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
}

interface History {
  /** Oldest first. */
  records: Recorded[]
  /** Numbers of the version copies in the history folder. */
  copies: Set<number>
}

export function historyDir(itemAbs: string): string {
  return join(dirname(itemAbs), HISTORY_DIR, basename(itemAbs))
}

function copyPath(itemAbs: string, number: number): string {
  return join(historyDir(itemAbs), `v${number}${extname(itemAbs)}`)
}

function tempPath(itemAbs: string, what: string): string {
  return join(historyDir(itemAbs), `.${what}-${randomBytes(6).toString('hex')}`)
}

const isMissing = (error: unknown) =>
  ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')

/** The records; none when there are none yet or they cannot be parsed. Read errors are thrown. */
async function readRecords(itemAbs: string): Promise<Recorded[]> {
  let text: string
  try {
    text = await readFile(join(historyDir(itemAbs), META_FILE), 'utf8')
  } catch (error) {
    if (isMissing(error)) return []
    throw error
  }
  try {
    const parsed = JSON.parse(text) as { versions?: Recorded[] }
    return (parsed.versions ?? [])
      .filter((v) => Number.isInteger(v.number) && v.number > 0)
      .sort((a, b) => a.number - b.number)
  } catch {
    return []
  }
}

async function readHistory(itemAbs: string): Promise<History> {
  const ext = extname(itemAbs)
  const [records, names] = await Promise.all([
    readRecords(itemAbs),
    readdir(historyDir(itemAbs)).catch((error) => {
      if (isMissing(error)) return [] as string[]
      throw error
    }),
  ])
  const copies = new Set<number>()
  for (const name of names) {
    const digits =
      name.startsWith('v') && name.endsWith(ext) ? name.slice(1, -ext.length || undefined) : ''
    if (/^[1-9]\d{0,8}$/.test(digits)) copies.add(Number(digits))
  }
  return { records, copies }
}

/** Adds a record to `versions.json` as it is now on disk (written whole, then renamed in). */
async function addRecord(itemAbs: string, record: Recorded): Promise<void> {
  const records = [...(await readRecords(itemAbs)), record].sort((a, b) => a.number - b.number)
  const temp = tempPath(itemAbs, META_FILE)
  await writeFile(
    temp,
    `${JSON.stringify({ name: basename(itemAbs), versions: records }, null, 2)}\n`,
  )
  await rename(temp, join(historyDir(itemAbs), META_FILE))
}

function describes(record: Recorded | undefined, info: Stats): record is Recorded {
  return record !== undefined && record.size === info.size && record.mtimeMs === info.mtimeMs
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
 * The file's stat when it is a recorded version with its bytes kept, `undefined` otherwise (not
 * recorded yet, or being written): what `recordCurrent` would leave as it is. Reads only.
 */
export async function keptVersion(itemAbs: string): Promise<Stats | undefined> {
  const [info, history] = await Promise.all([stat(itemAbs), readHistory(itemAbs)])
  const last = history.records.at(-1)
  return info.isFile() && describes(last, info) && history.copies.has(last.number)
    ? info
    : undefined
}

/**
 * Makes the file on disk a recorded version with its bytes kept, and returns its stat as recorded;
 * `undefined` when it kept changing while being copied (it is recorded at a later call). A file
 * already recorded and kept costs a read of `versions.json` and of the history folder; a new one
 * is copied once. The caller serialises calls and writes for one item.
 */
export async function recordCurrent(
  itemAbs: string,
  fallbackUser: string,
): Promise<Stats | undefined> {
  for (let tries = 0; tries < COPY_TRIES; tries++) {
    const before = await stat(itemAbs)
    if (!before.isFile()) return undefined
    const history = await readHistory(itemAbs)
    const last = history.records.at(-1)
    const known = describes(last, before)
    if (known && history.copies.has(last.number)) return before
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
      await rename(temp, copyPath(itemAbs, number))
    } finally {
      await rm(temp, { force: true })
    }
    if (!known) {
      await addRecord(itemAbs, {
        number,
        createTime: before.mtime.toISOString(),
        userName: fallbackUser,
        size: before.size,
        mtimeMs: before.mtimeMs,
      })
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
  const [info, history] = await Promise.all([stat(itemAbs), readHistory(itemAbs)])
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

/**
 * Writes `bytes` as the newest version of `itemAbs` and keeps their copy; the file it replaces is
 * recorded and kept first. A file deleted by hand keeps its history: numbering goes on from it.
 * The caller serialises writes to one item.
 */
export async function writeVersion(
  itemAbs: string,
  bytes: Uint8Array,
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
  const history = await readHistory(itemAbs)
  await mkdir(historyDir(itemAbs), { recursive: true })
  const number = await claimNumber(itemAbs, nextNumber(history))
  const incoming = tempPath(itemAbs, 'incoming')
  const copy = tempPath(itemAbs, 'copy')
  try {
    await writeFile(incoming, bytes)
    await copyFile(incoming, copy, constants.COPYFILE_FICLONE)
    await rename(copy, copyPath(itemAbs, number))
    await rename(incoming, itemAbs)
  } finally {
    await Promise.all([rm(incoming, { force: true }), rm(copy, { force: true })])
  }
  const info = await stat(itemAbs)
  await addRecord(itemAbs, {
    number,
    createTime: new Date().toISOString(),
    userName,
    size: info.size,
    mtimeMs: info.mtimeMs,
  })
  return { number, createdItem: history.records.length === 0 }
}
