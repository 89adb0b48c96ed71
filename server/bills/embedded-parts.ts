import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../lib/atomic-write.ts'
import { eachAtOnce } from '../lib/each-at-once.ts'
import { type BillStore, isPartKey, type PartKey, partKeyText } from './types.ts'

/** Parts are kept as long as the embedded job store keeps finished jobs (its default). */
const KEPT_FOR_MS = 90 * 24 * 60 * 60 * 1000
const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000
/** Part files read at once. */
const READ_AT_ONCE = 16

/**
 * The drawings' parts in the data folder, `project-bill-parts/<jobId>/<versions>.json`, each
 * written whole or not at all (a part is made again when it is missing: not flushed to disk).
 * A part older than the jobs' retention is removed, at the start and every day after.
 */
export async function openEmbeddedParts(options: {
  dataDir: string
  keptForMs?: number
}): Promise<Pick<BillStore, 'parts' | 'keepPart' | 'close'>> {
  const root = join(options.dataDir, 'project-bill-parts')
  await mkdir(root, { recursive: true })
  const keptForMs = options.keptForMs ?? KEPT_FOR_MS
  const fileOf = (key: PartKey) =>
    isPartKey(key) ? join(root, key.jobId, `${key.versions}.json`) : undefined

  async function prune(): Promise<void> {
    const before = Date.now() - keptForMs
    for (const job of await readdir(root)) {
      const dir = join(root, job)
      const names = await readdir(dir).catch(() => [] as string[])
      let left = names.length
      for (const name of names) {
        const file = join(dir, name)
        const { mtimeMs } = await stat(file).catch(() => ({ mtimeMs: 0 }))
        if (mtimeMs < before) {
          await rm(file, { force: true })
          left--
        }
      }
      if (left === 0) await rm(dir, { recursive: true, force: true })
    }
  }
  const pruned = () => void prune().catch(() => {})
  pruned()
  const timer = setInterval(pruned, PRUNE_EVERY_MS)
  timer.unref()

  return {
    async parts(keys) {
      // Read several at once, given back in the order asked for (as PostgreSQL's query is).
      const read: (Uint8Array | undefined)[] = []
      await eachAtOnce(keys, READ_AT_ONCE, async (key, index) => {
        const file = fileOf(key)
        if (!file) return
        const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return undefined
          throw error
        })
        if (bytes) read[index] = new Uint8Array(bytes)
      })
      const found = new Map<string, Uint8Array>()
      keys.forEach((key, index) => {
        const bytes = read[index]
        if (bytes) found.set(partKeyText(key), bytes)
      })
      return found
    },

    async keepPart(key, part) {
      const file = fileOf(key)
      if (!file) return
      await mkdir(join(root, key.jobId), { recursive: true })
      await writeFileAtomic(file, part, { flush: false })
    },

    async close() {
      clearInterval(timer)
    },
  }
}
