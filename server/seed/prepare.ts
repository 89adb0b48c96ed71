import { getSecretKeys } from '../auth/secret-keys.ts'
import { localCloudRoot } from '../backends.ts'
import type { Config } from '../config.ts'
import { seedIfEmpty } from './seed.ts'

/**
 * Everything the server needs before it listens: the session key (generated once into the data
 * folder) and, in local mode, the demo cloud on first start. Fails early with a readable reason.
 */
export async function prepareDataDir(
  config: Config,
  log: (line: string) => void = () => {},
): Promise<void> {
  await getSecretKeys(config)
  if (config.aps) return
  const result = await seedIfEmpty(localCloudRoot(config), config.seedDir)
  if (result.seeded) {
    log(
      `Created the demo cloud in ${localCloudRoot(config)} with ${result.files.length} drawing(s).`,
    )
  }
}
