import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository's root folder (this file lives in e2e/support/). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** The built app the server serves. */
export const distDir = join(repoRoot, 'dist')

/** Debian's Chromium (`apt-get install chromium`); BOQ_CHROMIUM overrides it. Never a downloaded browser. */
export const chromiumPath = process.env.BOQ_CHROMIUM ?? '/usr/bin/chromium'

export function hasChromium(): boolean {
  return existsSync(chromiumPath)
}
