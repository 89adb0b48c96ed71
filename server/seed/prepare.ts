import { stat } from 'node:fs/promises'
import { localCloudRoot } from '../backends.ts'
import type { Config } from '../config.ts'
import { seedIfEmpty } from './seed.ts'
import { demoDropFolder, startNotes } from './start-notes.ts'

/**
 * What local mode needs before the server listens: the demo cloud on first start; `log` gets
 * where drawings go. Fails early with a readable reason.
 */
export async function prepareDataDir(
  config: Config,
  log: (line: string) => void = () => {},
): Promise<void> {
  if (config.aps) return
  const cloudRoot = localCloudRoot(config)
  const seed = await seedIfEmpty(cloudRoot, config.seedDir)
  const demo = demoDropFolder(cloudRoot)
  const dropFolder = (await stat(demo).catch(() => undefined))?.isDirectory() ? demo : null
  for (const line of startNotes({ cloudRoot, seed, seedDir: config.seedDir, dropFolder })) log(line)
}
