import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs'
import { dirname, join } from 'node:path'

/** How long a chunk of an earlier build stays: pages opened before a rebuild still load it. */
const OLD_CHUNK_MS = 30 * 60_000

/** Copies `from` to `to` under a temporary name, then renames it: no reader sees half a file. */
function replaceFile(from: string, to: string): void {
  const temporary = `${to}.${process.pid}.tmp`
  copyFileSync(from, temporary)
  renameSync(temporary, to)
}

/**
 * Puts a build made elsewhere (`builtDir`) into `distDir` while servers may be serving it (other
 * test runs and benches share the working tree's dist/): the new hashed chunks are added beside
 * the old ones, every other file is replaced whole, index.html last, so at no moment is a file
 * missing or half written, and a page loaded from the previous index.html still finds its chunks.
 * Chunks that no build has written for half an hour are removed.
 */
export function publishBuild(builtDir: string, distDir: string): void {
  const builtAssets = join(builtDir, 'assets')
  const assets = join(distDir, 'assets')
  mkdirSync(assets, { recursive: true })
  const fresh = new Set(existsSync(builtAssets) ? readdirSync(builtAssets) : [])
  const now = new Date()
  for (const name of fresh) {
    const target = join(assets, name)
    // Same name, same content (Vite names chunks by their hash): only its age is renewed.
    if (existsSync(target)) utimesSync(target, now, now)
    else replaceFile(join(builtAssets, name), target)
  }
  for (const entry of readdirSync(builtDir, { withFileTypes: true, recursive: true })) {
    const relative = join(entry.parentPath, entry.name).slice(builtDir.length + 1)
    if (entry.isDirectory() || relative === 'index.html' || relative.startsWith('assets')) continue
    const target = join(distDir, relative)
    mkdirSync(dirname(target), { recursive: true })
    replaceFile(join(builtDir, relative), target)
  }
  replaceFile(join(builtDir, 'index.html'), join(distDir, 'index.html'))
  for (const name of readdirSync(assets)) {
    if (fresh.has(name)) continue
    const path = join(assets, name)
    if (now.getTime() - statSync(path).mtimeMs > OLD_CHUNK_MS) rmSync(path, { force: true })
  }
}
