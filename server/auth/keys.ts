import { createHash, hkdfSync, randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Config } from '../config.ts'

/** Keys derived from one master secret, one per purpose so a value sealed for one use fails for another. */
export interface SecretKeys {
  session: Uint8Array
  oauth: Uint8Array
  localCode: Uint8Array
  /** Seals the access token kept with a queued job. */
  jobToken: Uint8Array
  /** The secret token Autodesk signs its webhook deliveries with, so BOQ knows them for its own. */
  hookSecret: Uint8Array
}

const KEY_FILE = 'session.key'

/**
 * The master key: SESSION_SECRET when set (hashed to 32 bytes), else 32 random bytes generated once
 * into BOQ_DATA_DIR/session.key so sessions survive restarts.
 */
export async function loadSecretKeys(
  config: Pick<Config, 'sessionSecret' | 'dataDir'>,
): Promise<SecretKeys> {
  const master = config.sessionSecret
    ? createHash('sha256').update(config.sessionSecret).digest()
    : await loadOrCreateKeyFile(config.dataDir)
  return {
    session: derive(master, 'boq session cookie'),
    oauth: derive(master, 'boq oauth state cookie'),
    localCode: derive(master, 'boq local authorization code'),
    jobToken: derive(master, 'boq jobs: sealed tokens'),
    hookSecret: derive(master, 'boq watches: webhook secret token'),
  }
}

function derive(master: Uint8Array, purpose: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', master, new Uint8Array(0), purpose, 32))
}

async function loadOrCreateKeyFile(dataDir: string): Promise<Uint8Array> {
  const file = join(dataDir, KEY_FILE)
  await mkdir(dataDir, { recursive: true })
  try {
    // 'wx': when two processes start at once, only one writes; the other reads its key.
    await writeFile(file, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  const text = (await readFile(file, 'utf8')).trim()
  const key = Buffer.from(text, 'base64url')
  if (key.length < 32)
    throw new Error(`${file} does not hold a 32-byte key; delete it to generate a new one.`)
  return new Uint8Array(key)
}
