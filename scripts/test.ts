/**
 * `npm test`: lint, type-check and every Vitest project, side by side (each alone leaves cores
 * idle), and fails when any of them fails. Arguments go to `vitest run` (CI passes its reporters).
 * The tests print as they run; lint and type-check print once done, their output whole.
 */
import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { root } from './app-build.ts'
import { exited, spawnNode, stopChild } from './children.ts'

interface Check {
  name: string
  child: ChildProcess
  /** What it printed, kept for when it ends; undefined: printed as it runs. */
  output?: () => string
  startedAt: number
}

const bin = (path: string) => join(root, 'node_modules', path)

function start(name: string, args: string[], quiet: boolean): Check {
  const child = spawnNode(args, {
    cwd: root,
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  })
  let printed = ''
  child.stdout?.on('data', (chunk) => {
    printed += chunk
  })
  child.stderr?.on('data', (chunk) => {
    printed += chunk
  })
  return { name, child, output: quiet ? () => printed : undefined, startedAt: Date.now() }
}

const checks = [
  start('lint (biome check .)', [bin('@biomejs/biome/bin/biome'), 'check', '.'], true),
  start('type-check (tsc -b --noEmit)', [bin('typescript/bin/tsc'), '-b', '--noEmit'], true),
  start('tests (vitest run)', [bin('vitest/vitest.mjs'), 'run', ...process.argv.slice(2)], false),
]

// Ctrl-C or a CI's SIGTERM: stop every check, then end as interrupted.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    await Promise.all(checks.map(({ child }) => stopChild(child)))
    process.exit(130)
  })
}

const codes = await Promise.all(
  checks.map(async (check) => {
    const code = await exited(check.child)
    const seconds = ((Date.now() - check.startedAt) / 1000).toFixed(0)
    const output = check.output?.().trim()
    if (output !== undefined && (code !== 0 || output !== '')) {
      console.log(`\n── ${check.name}, ${code === 0 ? 'passed' : 'failed'}:\n${output}\n`)
    }
    return { check, code, seconds }
  }),
)

console.log('')
for (const { check, code, seconds } of codes) {
  console.log(`${code === 0 ? 'passed' : 'FAILED'}  ${check.name} (${seconds} s)`)
}
process.exitCode = codes.some(({ code }) => code !== 0) ? 1 : 0
