import { type Dirent, type Stats, statSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { type CloudPaths, isListedName } from './paths.ts'

export interface Entry {
  name: string
  rel: string
  abs: string
  info: Stats
}

/**
 * Natural, case-insensitive order ("plan 2" before "plan 10") through a precomputed key: plain
 * string comparison of keys is several times faster than Intl.Collator on 10,000 names.
 */
function sortByName(list: Entry[]): Entry[] {
  const keyed = list.map((entry) => ({
    entry,
    key: entry.name.toLowerCase().replace(/\d+/g, (digits) => digits.padStart(16, '0')),
  }))
  keyed.sort((a, b) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : a.entry.name < b.entry.name ? -1 : 1,
  )
  return keyed.map((k) => k.entry)
}
const STAT_SLICE = 500
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * Visible files and folders of a folder already resolved inside the cloud: one stat each.
 * Stats run synchronously in slices (several times faster than 10,000 promises on the thread
 * pool) with a yield between slices so other requests are not held up.
 */
export async function entries(
  paths: CloudPaths,
  dirAbs: string,
  dirRel: string,
): Promise<{ folders: Entry[]; files: Entry[] }> {
  let dirents: Dirent[]
  try {
    dirents = await readdir(dirAbs, { withFileTypes: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { folders: [], files: [] }
    throw error
  }
  const folders: Entry[] = []
  const files: Entry[] = []
  const prefix = dirRel ? `${dirRel}/` : ''
  for (let start = 0; start < dirents.length; start += STAT_SLICE) {
    if (start > 0) await yieldToOthers()
    for (const dirent of dirents.slice(start, start + STAT_SLICE)) {
      if (!isListedName(dirent.name)) continue
      const symlink = dirent.isSymbolicLink()
      if (!symlink && !dirent.isFile() && !dirent.isDirectory()) continue
      const abs = join(dirAbs, dirent.name)
      // A symlink is shown only when it points back inside the cloud folder.
      if (symlink && !(await paths.staysInside(abs))) continue
      const info = statSync(abs, { throwIfNoEntry: false })
      if (!info) continue
      const entry = { name: dirent.name, rel: prefix + dirent.name, abs, info }
      if (info.isDirectory()) folders.push(entry)
      else if (info.isFile()) files.push(entry)
    }
  }
  return { folders: sortByName(folders), files: sortByName(files) }
}
