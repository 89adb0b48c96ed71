import { randomBytes } from 'node:crypto'
import { link, mkdir, open, readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import * as v from 'valibot'
import { syncDirectory, TEMP_SUFFIX } from '../../lib/atomic-write.ts'
import type { Saved, SavedMeta, SavedOutcome } from './types.ts'

const VERSION_FILE = /^(\d+)\.json$/

/** What a version's file must hold to be read: the version it is named for, whole. */
const StoredVersionSchema = v.looseObject({
  version: v.number(),
  savedBy: v.string(),
  savedAt: v.string(),
})

export interface VersionedFilesOptions<T> {
  /** The folder of a project's versions of this document. */
  dirOf: (projectId: string) => string
  /** The field of a version's file that holds the document (`rows`, `settings`). */
  field: string
  /** The document read back, checked as the API checks it before saving; throws saying where. */
  check: (content: unknown) => T
  /** How large a version is, for its history (a table's rows); none: not said. */
  sizeOf?: (content: T) => number
  log: (message: string) => void
}

/**
 * A project's saved versions of one document on files: `<dir>/<version>.json`, one file per
 * version, never changed once there. A version's file is written whole under a temporary name,
 * then hard-linked to its own name: the link fails when that name exists, so of two saves of the
 * same version exactly one wins, whichever processes make them, and nobody ever reads a
 * half-written version. A version's file that cannot be read (cut short, not a version, or a
 * document that does not check, as the PostgreSQL store checks it) is named in the log and
 * skipped: the newest readable version answers, history lists the readable ones, and a save of
 * the newest readable one goes after the unreadable ones above it.
 */
export function versionedFiles<T>(options: VersionedFilesOptions<T>) {
  const { dirOf, field, check, log } = options
  /** Saved versions never change: what history needs of each is read once. */
  const metas = new Map<string, SavedMeta & { size?: number }>()
  /** The unreadable versions' files already named in the log. */
  const said = new Set<string>()

  async function versions(dir: string): Promise<number[]> {
    let names: string[]
    try {
      names = await readdir(dir)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw error
    }
    return names
      .map((name) => VERSION_FILE.exec(name)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
      .sort((a, b) => b - a)
  }

  /** The version's file, checked; undefined (named in the log, once) when it cannot be read. */
  async function read(dir: string, version: number): Promise<Saved<T> | undefined> {
    const file = join(dir, `${version}.json`)
    try {
      const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        // Never saved (a version asked for by its number): nothing to say.
        if (error.code === 'ENOENT') return undefined
        throw error
      })
      if (text === undefined) return undefined
      const stored = v.parse(StoredVersionSchema, JSON.parse(text))
      if (stored.version !== version) throw new Error(`it holds version ${stored.version}`)
      const { savedBy, savedAt } = stored
      return { version, savedBy, savedAt, content: check(stored[field]) }
    } catch (error) {
      if (!said.has(file)) {
        said.add(file)
        log(`rules: skipped the unreadable saved version ${file}: ${String(error)}`)
      }
      return undefined
    }
  }

  /** The newest readable version. */
  async function latest(projectId: string): Promise<Saved<T> | undefined> {
    const dir = dirOf(projectId)
    for (const number of await versions(dir)) {
      const stored = await read(dir, number)
      if (stored) return stored
    }
    return undefined
  }

  return {
    latest,

    async version(projectId: string, version: number): Promise<Saved<T> | undefined> {
      if (!Number.isSafeInteger(version) || version < 1) return undefined
      return read(dirOf(projectId), version)
    },

    /** Every readable version, newest first, with its size. */
    async history(projectId: string): Promise<(SavedMeta & { size?: number })[]> {
      const dir = dirOf(projectId)
      const history: (SavedMeta & { size?: number })[] = []
      for (const version of await versions(dir)) {
        const key = `${dir}/${version}`
        let meta = metas.get(key)
        if (!meta) {
          const stored = await read(dir, version)
          if (!stored) continue
          const { savedBy, savedAt, content } = stored
          const size = options.sizeOf?.(content)
          meta = { version, savedBy, savedAt, ...(size === undefined ? {} : { size }) }
          metas.set(key, meta)
        }
        history.push({ ...meta })
      }
      return history
    },

    async save(
      projectId: string,
      expectedVersion: number,
      content: T,
      savedBy: string,
    ): Promise<SavedOutcome<T>> {
      const dir = dirOf(projectId)
      const conflict = async (): Promise<SavedOutcome<T>> => {
        const current = await latest(projectId)
        if (!current) return { conflict: undefined }
        const { content: _content, ...meta } = current
        return { conflict: meta }
      }
      // Versions are dense (each is linked only beside its predecessor): a held version that is
      // not the newest one is stale, or was never saved, unless the ones above it cannot be read
      // (the person holds the newest they could see).
      const [newest = 0] = await versions(dir)
      if (newest !== expectedVersion) {
        const readable = await latest(projectId)
        if ((readable?.version ?? 0) !== expectedVersion) return conflict()
      }
      await mkdir(dir, { recursive: true, mode: 0o700 })
      const version = newest + 1
      const saved: Saved<T> = { version, savedBy, savedAt: new Date().toISOString(), content }
      const temp = join(dir, `.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`)
      const file = await open(temp, 'wx', 0o600)
      try {
        const { content: _content, ...meta } = saved
        await file.writeFile(JSON.stringify({ projectId, ...meta, [field]: content }))
        await file.sync()
      } finally {
        await file.close()
      }
      try {
        await link(temp, join(dir, `${version}.json`))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return conflict()
        throw error
      } finally {
        await rm(temp, { force: true })
      }
      await syncDirectory(dir)
      return { saved }
    },
  }
}
