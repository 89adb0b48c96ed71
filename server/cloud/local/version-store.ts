import { randomBytes } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { basename, dirname, extname, join } from 'node:path'

/**
 * Versions of one file, kept beside it: `<folder>/<name>` is always the newest version, and
 * `<folder>/.versions/<name>/` holds `versions.json` (who and when, per version) and the prior
 * versions' bytes as `v<N><ext>`. A file no record describes (dropped in or overwritten by hand)
 * counts as the next version, so a hand-dropped file is version 1.
 */

export const HISTORY_DIR = '.versions'
const META_FILE = 'versions.json'

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
  /** Where the bytes are: the item file itself (newest) or its archive copy. */
  path: string
}

export function historyDir(itemAbs: string): string {
  return join(dirname(itemAbs), HISTORY_DIR, basename(itemAbs))
}

function archivePath(itemAbs: string, number: number): string {
  return join(historyDir(itemAbs), `v${number}${extname(itemAbs)}`)
}

async function readRecords(itemAbs: string): Promise<Recorded[]> {
  try {
    const parsed = JSON.parse(await readFile(join(historyDir(itemAbs), META_FILE), 'utf8')) as {
      versions?: Recorded[]
    }
    return (parsed.versions ?? [])
      .filter((v) => Number.isInteger(v.number) && v.number > 0)
      .sort((a, b) => a.number - b.number)
  } catch {
    return []
  }
}

async function writeRecords(itemAbs: string, records: Recorded[]): Promise<void> {
  const dir = historyDir(itemAbs)
  await mkdir(dir, { recursive: true })
  const temp = join(dir, `.${META_FILE}.${randomBytes(6).toString('hex')}`)
  await writeFile(
    temp,
    `${JSON.stringify({ name: basename(itemAbs), versions: records }, null, 2)}\n`,
  )
  await rename(temp, join(dir, META_FILE))
}

async function archivedNumbers(itemAbs: string): Promise<Set<string>> {
  try {
    return new Set(await readdir(historyDir(itemAbs)))
  } catch {
    return new Set()
  }
}

/**
 * Every version still readable, oldest first; the last is the file itself.
 * `fallbackUser` names whoever wrote a file that no record describes.
 */
export async function listVersions(itemAbs: string, fallbackUser: string): Promise<VersionInfo[]> {
  const [info, records, archived] = await Promise.all([
    stat(itemAbs),
    readRecords(itemAbs),
    archivedNumbers(itemAbs),
  ])
  const ext = extname(itemAbs)
  const last = records.at(-1)
  const lastIsCurrent =
    last !== undefined && last.size === info.size && last.mtimeMs === info.mtimeMs
  const prior = lastIsCurrent ? records.slice(0, -1) : records
  const versions: VersionInfo[] = prior
    .filter((r) => archived.has(`v${r.number}${ext}`))
    .map((r) => ({ ...pick(r), path: archivePath(itemAbs, r.number) }))
  const current: Recorded =
    lastIsCurrent && last
      ? last
      : {
          number: (last?.number ?? 0) + 1,
          createTime: info.mtime.toISOString(),
          userName: fallbackUser,
          size: info.size,
          mtimeMs: info.mtimeMs,
        }
  versions.push({ ...pick(current), path: itemAbs })
  return versions
}

function pick(r: Recorded): Omit<VersionInfo, 'path'> {
  return { number: r.number, createTime: r.createTime, userName: r.userName, size: r.size }
}

/**
 * Writes `bytes` as the newest version of `itemAbs`, keeping the current file as a prior version.
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
  const known = exists ? await listVersions(itemAbs, fallbackUser) : []
  // A file deleted by hand keeps its history: numbering goes on from the archived versions.
  const archivedOnly = exists ? [] : await readArchivedOnly(itemAbs)
  const dir = historyDir(itemAbs)
  await mkdir(dir, { recursive: true })
  const incoming = join(dir, `.incoming-${randomBytes(6).toString('hex')}`)
  await writeFile(incoming, bytes)
  try {
    const current = known.at(-1)
    if (current) await rename(itemAbs, archivePath(itemAbs, current.number))
    await rename(incoming, itemAbs)
  } catch (error) {
    await rm(incoming, { force: true })
    throw error
  }
  const history = exists ? known : archivedOnly
  const number = (history.at(-1)?.number ?? 0) + 1
  const info = await stat(itemAbs)
  const records: Recorded[] = history.map((v) => ({
    number: v.number,
    createTime: v.createTime,
    userName: v.userName,
    size: v.size,
    mtimeMs: 0,
  }))
  records.push({
    number,
    createTime: new Date().toISOString(),
    userName,
    size: info.size,
    mtimeMs: info.mtimeMs,
  })
  await writeRecords(itemAbs, records)
  return { number, createdItem: history.length === 0 }
}

async function readArchivedOnly(itemAbs: string): Promise<VersionInfo[]> {
  const [records, archived] = await Promise.all([readRecords(itemAbs), archivedNumbers(itemAbs)])
  const ext = extname(itemAbs)
  return records
    .filter((r) => archived.has(`v${r.number}${ext}`))
    .map((r) => ({ ...pick(r), path: archivePath(itemAbs, r.number) }))
}
