import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { outputOf, spawnNode } from '../../scripts/children.ts'
import { distDir, repoRoot } from './paths.ts'
import { publishBuild } from './publish-build.ts'

/** Inputs of `vite build`: when none is newer than dist/index.html the build is current. */
const inputs = [
  'src',
  'contract',
  'public',
  'index.html',
  'vite.config.ts',
  'build',
  'tailwind.config.ts',
  'postcss.config.js',
]

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(path)) {
    // Tests and the generated route tree do not change what the build produces from the rest.
    if (/\.test\.tsx?$|\.gen\.ts$/.test(entry) || entry === 'testing') continue
    newest = Math.max(newest, newestMtime(join(path, entry)))
  }
  return newest
}

/** True when dist/ was built after the last change of any build input. */
export function isBuildCurrent(): boolean {
  const builtAt = newestMtime(join(distDir, 'index.html'))
  if (builtAt === 0) return false
  return inputs.every((input) => newestMtime(join(repoRoot, input)) < builtAt)
}

/**
 * Runs `vite build` in its own Node process (our Node, not an `npx` wrapper), so that nothing of
 * the build lingers in the caller, into a folder of its own, then publishes it into dist/ (see
 * publishBuild): servers of other runs serve dist/ meanwhile, and Vite's own build would empty it
 * under them. Rejects with the build's output when it fails.
 */
export async function buildApp(extraArgs: string[] = []): Promise<void> {
  const builtDir = mkdtempSync(join(tmpdir(), 'boq-build-'))
  try {
    await viteBuild(['--outDir', builtDir, '--emptyOutDir', ...extraArgs])
    publishBuild(builtDir, distDir)
  } finally {
    rmSync(builtDir, { recursive: true, force: true })
  }
}

function viteBuild(args: string[]): Promise<void> {
  const vite = join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js')
  return new Promise((resolve, reject) => {
    const child = spawnNode([vite, 'build', ...args], {
      endWithParent: true,
      cwd: repoRoot,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const output = outputOf(child)
    child.on('error', reject)
    child.on('exit', (code) => {
      if (code === 0) resolve()
      else reject(new Error(`vite build failed (exit ${code}):\n${output()}`))
    })
  })
}
