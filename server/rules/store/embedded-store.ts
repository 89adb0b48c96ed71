import { createHash, randomBytes } from 'node:crypto'
import { link, mkdir, open, readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import * as v from 'valibot'
import type { SavedVersion } from '../../../contract/takeoff-rules-api.ts'
import { syncDirectory, TEMP_SUFFIX } from '../../lib/atomic-write.ts'
import { log as serverLog } from '../../log.ts'
import { checkedSavedRows } from './saved-rows.ts'
import type { RowsOf, RulesKind, RulesStore, SavedRules, SaveOutcome } from './types.ts'

/** What one `<version>.json` holds. */
interface StoredVersion {
  projectId: string
  version: number
  savedBy: string
  savedAt: string
  rows: unknown[]
}

const VERSION_FILE = /^(\d+)\.json$/

/** What a version's file must hold to be read: the version it is named for, whole. */
const StoredVersionSchema = v.looseObject({
  version: v.number(),
  savedBy: v.string(),
  savedAt: v.string(),
  rows: v.array(v.unknown()),
})

/**
 * A project's saved tables on files: `<dataDir>/rules/<project hash>/<kind>/<version>.json`, one
 * file per version, never changed once there. A version's file is written whole under a temporary
 * name, then hard-linked to its own name: the link fails when that name exists, so of two saves
 * of the same version exactly one wins, whichever processes make them, and nobody ever reads a
 * half-written version. A version's file that cannot be read (cut short, not a version, or rows
 * that are not its table's, checked as the PostgreSQL store checks them) is named in the log and
 * skipped: the newest readable version answers, history lists the readable ones, and a save of
 * the newest readable one goes after the unreadable ones above it.
 */
export function openEmbeddedRulesStore(options: {
  /** BOQ_DATA_DIR: the tables are kept under `<dataDir>/rules`. */
  dataDir: string
  log?: (message: string) => void
}): RulesStore {
  const log = options.log ?? ((message: string) => serverLog.warn(message))
  const root = join(options.dataDir, 'rules')
  /** Saved versions never change: what history needs of each is read once. */
  const metas = new Map<string, SavedVersion>()
  /** The unreadable versions' files already named in the log. */
  const said = new Set<string>()

  // A hash: project ids are the cloud's, of any length and characters.
  const dirOf = (projectId: string, kind: RulesKind) =>
    join(root, createHash('sha256').update(projectId).digest('hex').slice(0, 32), kind)

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
  async function read<K extends RulesKind>(
    dir: string,
    kind: K,
    version: number,
  ): Promise<SavedRules<K> | undefined> {
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
      return { version, savedBy, savedAt, rows: checkedSavedRows(kind, stored.rows) }
    } catch (error) {
      if (!said.has(file)) {
        said.add(file)
        log(`rules: skipped the unreadable saved version ${file}: ${String(error)}`)
      }
      return undefined
    }
  }

  /** The newest readable version. */
  async function latest<K extends RulesKind>(
    projectId: string,
    kind: K,
  ): Promise<SavedRules<K> | undefined> {
    const dir = dirOf(projectId, kind)
    for (const number of await versions(dir)) {
      const stored = await read(dir, kind, number)
      if (stored) return stored
    }
    return undefined
  }

  return {
    rules: latest,

    async savedRules<K extends RulesKind>(projectId: string, kind: K, version: number) {
      if (!Number.isSafeInteger(version) || version < 1) return undefined
      return read(dirOf(projectId, kind), kind, version)
    },

    async rulesHistory(projectId: string, kind: RulesKind): Promise<SavedVersion[]> {
      const dir = dirOf(projectId, kind)
      const history: SavedVersion[] = []
      for (const version of await versions(dir)) {
        const key = `${dir}/${version}`
        let meta = metas.get(key)
        if (!meta) {
          const stored = await read(dir, kind, version)
          if (!stored) continue
          meta = {
            version,
            savedBy: stored.savedBy,
            savedAt: stored.savedAt,
            rows: stored.rows.length,
          }
          metas.set(key, meta)
        }
        history.push({ ...meta })
      }
      return history
    },

    async saveRules<K extends RulesKind>(
      projectId: string,
      kind: K,
      expectedVersion: number,
      rows: RowsOf[K],
      savedBy: string,
    ): Promise<SaveOutcome<K>> {
      const dir = dirOf(projectId, kind)
      const conflict = async (): Promise<SaveOutcome<K>> => {
        const current = await latest(projectId, kind)
        if (!current) return { conflict: undefined }
        const { rows: _rows, ...meta } = current
        return { conflict: meta }
      }
      // Versions are dense (each is linked only beside its predecessor): a held version that is
      // not the newest one is stale, or was never saved, unless the ones above it cannot be read
      // (the person holds the newest they could see).
      const [newest = 0] = await versions(dir)
      if (newest !== expectedVersion) {
        const readable = await latest(projectId, kind)
        if ((readable?.version ?? 0) !== expectedVersion) return conflict()
      }
      await mkdir(dir, { recursive: true, mode: 0o700 })
      const version = newest + 1
      const saved: StoredVersion = {
        projectId,
        version,
        savedBy,
        savedAt: new Date().toISOString(),
        rows,
      }
      const temp = join(dir, `.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`)
      const file = await open(temp, 'wx', 0o600)
      try {
        await file.writeFile(JSON.stringify(saved))
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
      const { projectId: _p, ...document } = saved
      return { saved: document as SavedRules<K> }
    },

    async close() {},
  }
}
