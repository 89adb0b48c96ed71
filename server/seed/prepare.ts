import { stat } from 'node:fs/promises'
import { getSecretKeys } from '../auth/secret-keys.ts'
import { localCloudRoot } from '../backends.ts'
import type { Config } from '../config.ts'
import { seedIfEmpty } from './seed.ts'
import { demoDropFolder, startNotes } from './start-notes.ts'

/**
 * Everything the server needs before it listens: the session key (generated once into the data
 * folder) and, in local mode, the demo cloud on first start; `log` gets where drawings go.
 * Fails early with a readable reason.
 */
export async function prepareDataDir(
  config: Config,
  log: (line: string) => void = () => {},
): Promise<void> {
  await getSecretKeys(config)
  if (config.aps) return
  const cloudRoot = localCloudRoot(config)
  const seed = await seedIfEmpty(cloudRoot, config.seedDir)
  const demo = demoDropFolder(cloudRoot)
  const dropFolder = (await stat(demo).catch(() => undefined))?.isDirectory() ? demo : null
  for (const line of startNotes({ cloudRoot, seed, seedDir: config.seedDir, dropFolder })) log(line)
}
