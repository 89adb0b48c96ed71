/**
 * `npm run bench`: runs every bench/*.bench.ts in its own Node process, one after another (the
 * machine is small; benches running side by side would measure each other), forwarding their
 * output. Exits non-zero when one of them crashed. `npm run bench -- bundle` runs only the benches
 * whose file name contains one of the given words.
 */
import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const benchDir = dirname(fileURLToPath(import.meta.url))
const filters = process.argv.slice(2)
const benches = readdirSync(benchDir)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => filters.length === 0 || filters.some((word) => name.includes(word)))
  .sort()

function run(file: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(benchDir, file)], {
      cwd: join(benchDir, '..'),
      stdio: 'inherit',
    })
    child.on('error', (error) => {
      console.error(`${file}: could not start (${error.message})`)
      resolve(1)
    })
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

const failed: string[] = []
for (const file of benches) {
  console.log(`\n=== ${file} ===`)
  const started = Date.now()
  const code = await run(file)
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  if (code === 0) console.log(`=== ${file}: done in ${seconds} s ===`)
  else {
    console.log(`=== ${file}: FAILED (exit ${code}) after ${seconds} s ===`)
    failed.push(file)
  }
}

if (benches.length === 0) console.log('No bench matched.')
console.log(
  `\n${benches.length - failed.length} of ${benches.length} benches ran${failed.length ? `; failed: ${failed.join(', ')}` : ''}`,
)
process.exitCode = failed.length > 0 ? 1 : 0
