import { randomBytes } from 'node:crypto'
import { open, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'

/** Suffix of the temporary files `writeFileAtomic` leaves behind when killed mid-write. */
export const TEMP_SUFFIX = '.tmp'

export interface AtomicWriteOptions {
  /** The temporary file, for callers whose leftover cleanup knows their own names. */
  temp?: string
  /**
   * Flush the file and its directory (default). Only a caller that rebuilds the file from other
   * state after a crash may skip it, where thousands of writes at once would each wait ~15 ms.
   */
  flush?: boolean
}

/**
 * Writes a file so that a reader (or a restart after kill -9) sees either the old content or the
 * new one, never a torn mix: write a temporary file (beside the target, `.tmp`), flush it, rename
 * it over the target, and flush the directory so the rename itself is durable.
 */
export async function writeFileAtomic(
  path: string,
  data: Uint8Array | string,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const { temp = `${path}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`, flush = true } = options
  try {
    const file = await open(temp, 'w', 0o600)
    try {
      await file.writeFile(data)
      if (flush) await file.sync()
    } finally {
      await file.close()
    }
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined)
    throw error
  }
  if (flush) await syncDirectory(dirname(path))
}

/**
 * Moves a finished file into place durably: its bytes flushed first, then the rename, then the
 * directory, so that after a crash the target is either absent or whole.
 */
export async function renameDurably(from: string, to: string): Promise<void> {
  const file = await open(from, 'r')
  try {
    await file.sync()
  } finally {
    await file.close()
  }
  await rename(from, to)
  await syncDirectory(dirname(to))
}

export async function syncDirectory(path: string): Promise<void> {
  const dir = await open(path, 'r')
  try {
    await dir.sync()
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic there.
  } finally {
    await dir.close()
  }
}
