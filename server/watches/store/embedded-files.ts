import { readFile } from 'node:fs/promises'
import * as v from 'valibot'
import { unseal } from '../../auth/sealed.ts'
import type { KeptGrant, StandingGrant, WatchedVersion } from './types.ts'
import { parseWatchedVersion } from './watch-record.ts'

/**
 * The files of one embedded watch read back, each checked: what cannot be read is told apart
 * from what is not there, so that the store can say it rather than act on less than it had.
 */

/** What became of a version a watch saw. */
export type SeenState = 'baseline' | 'pending' | 'taken' | 'queued' | 'skipped'

export interface Seen {
  state: SeenState
  /** When it was first seen: its place in line. */
  seenAt: string
  takenAt?: string
  jobId?: string
  /** Why it is never to be extracted (skipped). */
  skipped?: string
  version: WatchedVersion
}

/** The versions in the folder when the watch began, kept apart from the log that changes. */
export interface StartingPoint {
  at: string
  versions: WatchedVersion[]
}

export const logLine = (entry: Seen) => `${JSON.stringify(entry)}\n`

const text = v.pipe(v.string(), v.minLength(1))

const SeenSchema = v.looseObject({
  state: v.picklist(['baseline', 'pending', 'taken', 'queued', 'skipped']),
  seenAt: text,
  takenAt: v.optional(v.string()),
  jobId: v.optional(v.string()),
  skipped: v.optional(v.string()),
  version: v.looseObject({ fileStorageId: text }),
})

/** A log line as a version's state, or undefined when it is not one (torn, or not ours). */
function seenOf(line: string): Seen | undefined {
  try {
    const entry = v.parse(SeenSchema, JSON.parse(line))
    parseWatchedVersion(entry.version, entry.version.fileStorageId)
    return entry as unknown as Seen
  } catch {
    return undefined
  }
}

/**
 * The watch's log read back: each version's last line wins; a line that is not a version's state
 * (torn by a power cut, or damaged) is left out, counted in `lines` and shown in `unreadable`
 * (the first few, cut short). Missing: nothing seen yet. Throws when the file cannot be read.
 */
export async function readSeen(file: string): Promise<{
  versions: Map<string, Seen>
  lines: number
  unreadable: string[]
}> {
  let content: string
  try {
    content = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { versions: new Map(), lines: 0, unreadable: [] }
    }
    throw error
  }
  const versions = new Map<string, Seen>()
  const unreadable: string[] = []
  let lines = 0
  for (const line of content.split('\n')) {
    if (!line) continue
    lines++
    const entry = seenOf(line)
    if (entry) versions.set(entry.version.fileStorageId, entry)
    else unreadable.push(line.slice(0, 80))
  }
  return { versions, lines, unreadable }
}

const StartSchema = v.object({
  watchId: text,
  at: text,
  versions: v.array(v.unknown()),
})

/**
 * The watch's starting point: undefined when the watch has none kept apart (it began before
 * they were); throws saying why when the file is there and cannot be read.
 */
export async function readStart(file: string, watchId: string): Promise<StartingPoint | undefined> {
  let content: string
  try {
    content = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  const start = v.parse(StartSchema, JSON.parse(content))
  if (start.watchId !== watchId) throw new Error(`it names watch ${start.watchId}`)
  const versions = start.versions.map((version) =>
    parseWatchedVersion(version, String((version as WatchedVersion | null)?.fileStorageId)),
  )
  return { at: start.at, versions }
}

export const startText = (watchId: string, start: StartingPoint) =>
  JSON.stringify({ watchId, at: start.at, versions: start.versions })

/**
 * A person's sealed grant: undefined when there is none, `'damaged'` when the file is there and
 * does not unseal (`onDamaged` is told, to name it).
 */
export async function readGrant(
  file: string,
  key: Uint8Array,
  onDamaged: () => void,
): Promise<KeptGrant> {
  let sealed: string
  try {
    sealed = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  const grant = await unseal<StandingGrant>(sealed, key)
  if (grant) return grant
  onDamaged()
  return 'damaged'
}
