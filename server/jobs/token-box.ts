import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from './atomic-write.ts'

/**
 * Seals the credentials a queued job needs (the user's access token) before they are written to
 * disk: AES-256-GCM with a key derived from SESSION_SECRET, or, without it, a random key kept in
 * the jobs folder (mode 0600). A record copied without the key reveals no token.
 */
export interface TokenBox {
  seal(value: unknown): string
  /** Undefined when the key changed or the value was tampered with. */
  open<T>(sealed: string): T | undefined
}

const IV_BYTES = 12
const TAG_BYTES = 16

export async function createTokenBox(options: {
  dir: string
  sessionSecret?: string
}): Promise<TokenBox> {
  const key = options.sessionSecret
    ? Buffer.from(hkdfSync('sha256', options.sessionSecret, 'boq', 'boq jobs: sealed tokens', 32))
    : await loadOrCreateKey(join(options.dir, 'token.key'))
  return {
    seal(value) {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()])
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
    },
    open<T>(sealed: string) {
      try {
        const raw = Buffer.from(sealed, 'base64')
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES))
        decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
        const body = Buffer.concat([
          decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ])
        return JSON.parse(body.toString('utf8')) as T
      } catch {
        return undefined
      }
    },
  }
}

async function loadOrCreateKey(path: string): Promise<Buffer> {
  try {
    const key = Buffer.from((await readFile(path, 'utf8')).trim(), 'base64')
    if (key.length === 32) return key
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const key = randomBytes(32)
  await writeFileAtomic(path, key.toString('base64'))
  return key
}
