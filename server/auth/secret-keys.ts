import type { Config } from '../config.ts'
import { loadSecretKeys, type SecretKeys } from './keys.ts'

const cache = new Map<string, Promise<SecretKeys>>()

/** The keys of one data folder / secret, loaded (or generated) once per process. */
export function getSecretKeys(
  config: Pick<Config, 'sessionSecret' | 'dataDir'>,
): Promise<SecretKeys> {
  const cacheKey = `${config.dataDir}\0${config.sessionSecret ?? ''}`
  let keys = cache.get(cacheKey)
  if (!keys) {
    keys = loadSecretKeys(config)
    // A failure (say, an unwritable data folder) is not cached: the next call tries again.
    keys.catch(() => cache.delete(cacheKey))
    cache.set(cacheKey, keys)
  }
  return keys
}
