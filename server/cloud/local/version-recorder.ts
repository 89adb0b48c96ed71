import type { Stats } from 'node:fs'
import { recordCurrent } from './version-store.ts'

type Lock = <T>(key: string, task: () => Promise<T>) => Promise<T>

/** New versions copied at once while a folder is listed: enough to overlap disk waits. */
const PARALLEL = 8
/** Files remembered as recorded; past this the oldest are forgotten (and checked on disk again). */
const REMEMBERED = 200_000

export interface VersionRecorder {
  /** Records the item's file as a version with its bytes kept, unless it already is. */
  record(itemAbs: string): Promise<void>
  /** The same for a folder's files, skipping at no cost those whose size and mtime are known. */
  recordAll(files: readonly { abs: string; info: Stats }[]): Promise<void>
}

const signature = (info: Stats) => `${info.size}:${info.mtimeMs}`

/**
 * Records versions the first time the cloud lists or reads them (version-store's `recordCurrent`),
 * under the item's lock so that two listings at once record a version once and never between the
 * steps of an upload. Recording is best effort: a folder BOQ cannot write to is still listed.
 */
export function createVersionRecorder(options: {
  lock: Lock
  fallbackUser: string
}): VersionRecorder {
  const { lock, fallbackUser } = options
  /** itemAbs → size and mtime of the version last seen recorded and kept, to skip reads. */
  const seen = new Map<string, string>()

  function remember(itemAbs: string, info: Stats) {
    seen.delete(itemAbs)
    seen.set(itemAbs, signature(info))
    if (seen.size > REMEMBERED) seen.delete(seen.keys().next().value as string)
  }

  async function record(itemAbs: string): Promise<void> {
    try {
      const recorded = await lock(itemAbs, () => recordCurrent(itemAbs, fallbackUser))
      if (recorded) remember(itemAbs, recorded)
    } catch {
      // Not recorded (no write access, the file gone meanwhile): the listing answers all the same.
    }
  }

  return {
    record,

    async recordAll(files) {
      const unknown = files.filter((file) => seen.get(file.abs) !== signature(file.info))
      let next = 0
      const worker = async () => {
        while (next < unknown.length) {
          const file = unknown[next++]
          if (file) await record(file.abs)
        }
      }
      await Promise.all(Array.from({ length: Math.min(PARALLEL, unknown.length) }, worker))
    },
  }
}
