import { mkdir } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { lock as lockFile } from 'proper-lockfile'
import { AppError } from '../../errors.ts'
import { createKeyedLock } from '../../lib/keyed-lock.ts'
import { log } from '../../log.ts'
import { historyDir } from './version-store.ts'

export type ItemLock = <T>(itemAbs: string, task: () => Promise<T>) => Promise<T>

/** In the item's history folder, beside its copies (whose names never start with a dot). */
export const LOCK_NAME = '.lock'
/**
 * A lock its holder no longer refreshes (the process was killed while writing) is taken over
 * after this long; the holder refreshes it every half of it.
 */
const STALE_MS = 10_000
/** How long a write waits for another process's before it is refused as busy. */
const WAIT_MS = 3 * STALE_MS
const FIRST_PAUSE_MS = 2
const LONGEST_PAUSE_MS = 50

/**
 * Runs writes to one item one at a time, across every process that shares the cloud folder. In a
 * process, writers queue in order of arrival (no polling); between processes, the holder has the
 * directory `.versions/<name>/.lock`, made with mkdir (atomic, on network file systems too) and
 * kept fresh by proper-lockfile, which removes it on exit and takes over one left by a process
 * that died holding it. That takeover is not atomic (two processes taking over at once may both
 * get it): version numbers are claimed on their own (version-store.ts) so that it cannot give two
 * versions one number.
 */
export function createItemLock(): ItemLock {
  const inProcess = createKeyedLock()
  return (itemAbs, task) =>
    inProcess(itemAbs, async () => {
      const release = await acquire(itemAbs)
      try {
        return await task()
      } finally {
        await release().catch((error: NodeJS.ErrnoException) => {
          // Already released: the lock was lost while held, and that was logged when it happened.
          if (error.code !== 'ERELEASED') log.warn('item lock not released', { itemAbs, error })
        })
      }
    })
}

/**
 * Waits for the lock by retrying only while another holds it (proper-lockfile's own retries
 * would also retry a folder BOQ cannot write to, for as long as a busy lock).
 */
async function acquire(itemAbs: string): Promise<() => Promise<void>> {
  const folder = historyDir(itemAbs)
  await mkdir(folder, { recursive: true })
  const giveUpAt = Date.now() + WAIT_MS
  for (let attempt = 0; ; attempt++) {
    try {
      return await lockFile(itemAbs, {
        lockfilePath: join(folder, LOCK_NAME),
        realpath: false,
        stale: STALE_MS,
        // The default throws from a timer, which would end the server.
        onCompromised: (error) => log.warn('item lock lost while held', { itemAbs, error }),
      })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error
      if (Date.now() > giveUpAt) {
        throw new AppError(409, `"${basename(itemAbs)}" is being written to; try again.`)
      }
      // Short pauses at first (writes are short), with jitter so that waiters do not move in step.
      const pause = Math.min(FIRST_PAUSE_MS * 2 ** attempt, LONGEST_PAUSE_MS)
      await sleep(pause * (0.5 + Math.random()))
    }
  }
}
