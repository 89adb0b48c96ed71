import { utimes, writeFile } from 'node:fs/promises'

/**
 * Writes a drawing into a local cloud's folder as a file copied in whole: dated a minute ago.
 * The cloud refuses to extract a file written seconds ago (it could still be being copied in),
 * so a test that extracts it right away would race that wait.
 */
export async function writeWholeFile(path: string, content: string | Uint8Array): Promise<void> {
  await writeFile(path, content)
  const aMinuteAgo = new Date(Date.now() - 60_000)
  await utimes(path, aMinuteAgo, aMinuteAgo)
}
