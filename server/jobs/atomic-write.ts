import { randomBytes } from 'node:crypto'
import { open, rename } from 'node:fs/promises'
import { dirname } from 'node:path'

/** Suffix of the temporary files `writeFileAtomic` leaves behind when killed mid-write. */
export const TEMP_SUFFIX = '.tmp'

/**
 * Writes a file so that a reader (or a restart after kill -9) sees either the old content or the
 * new one, never a torn mix: write a temporary file, flush it, rename it over the target, and
 * flush the directory so the rename itself is durable.
 */
export async function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  const temp = `${path}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`
  const file = await open(temp, 'w', 0o600)
  try {
    await file.writeFile(data)
    await file.sync()
  } finally {
    await file.close()
  }
  await rename(temp, path)
  await syncDirectory(dirname(path))
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
