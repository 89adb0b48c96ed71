/**
 * The command as people start it, each a process of its own: `npm run boq` and `npx boq` take
 * paths from where they are typed, and `node bin.ts` exits with the codes HELP lists. What the
 * command does is tested in process, in cli.test.ts.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, delimiter, dirname, join, resolve } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { fixturePath } from '../../testing/boq/fixtures.ts'
import { knownDrawing } from '../../testing/boq/known-drawing.ts'

const BIN = resolve(import.meta.dirname, 'bin.ts')
const ROOT = resolve(import.meta.dirname, '../../..')

type Ran = { code: number; stdout: string; stderr: string }

/** Processes started and not yet closed: each test's end kills what is left of them. */
const running = new Set<ChildProcess>()

afterEach(async () => {
  await Promise.all(
    [...running].map((child) => {
      const closed = new Promise((done) => child.once('close', done))
      try {
        // Its own process group: npm's shell and the Node under it go too.
        process.kill(-(child.pid as number), 'SIGKILL')
      } catch {
        // Already gone; 'close' is on its way.
      }
      return closed
    }),
  )
})

/** Runs a command to its end, in a process group of its own so that it can be stopped whole. */
function start(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined> } = {},
): Promise<Ran> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  let stdout = ''
  let stderr = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
  })
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  return new Promise((done, fail) => {
    child.once('error', (error) => {
      running.delete(child)
      fail(error)
    })
    child.once('close', (code) => {
      running.delete(child)
      done({ code: code ?? 1, stdout, stderr })
    })
  })
}

/** `node bin.ts <args>`, the command as its own process, with this test's Node. */
function spawnBoq(
  args: string[],
  cwd?: string,
  env: Record<string, string | undefined> = {},
): Promise<Ran> {
  return start(process.execPath, [BIN, ...args], { cwd, env })
}

/**
 * npm and npx as a user types them, on this test's Node, without asking the registry. With a
 * cache of their own: npx links this package's `bin` into its cache once and keeps that link, so
 * a cache of earlier runs would run the `bin` of an earlier checkout.
 */
function npm(command: 'npm' | 'npx', args: string[], cwd: string): Promise<Ran> {
  return start(command, args, {
    cwd,
    env: {
      PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
      npm_config_update_notifier: 'false',
      npm_config_cache: tempFolder(),
    },
  })
}

/** Temporary folders, removed after the file's tests; then the folders made to hold them. */
const made: string[] = []
const emptied: string[] = []
afterAll(() => {
  for (const folder of made) rmSync(folder, { recursive: true, force: true })
  for (const folder of emptied) {
    try {
      rmdirSync(folder)
    } catch {
      // Not empty: another run's folders are in it, and that run removes them.
    }
  }
})
function tempFolder(parent = tmpdir()): string {
  const folder = mkdtempSync(join(parent, 'boq-bin-'))
  made.push(folder)
  return folder
}

// Every test starts whole BOQ processes (npm, Node, the engine's workers): generous limits, for a
// busy machine, that only stop a hang.
describe('the boq command', { timeout: 120_000 }, () => {
  const dir = tempFolder()
  const known = join(dir, 'known.dxf')
  writeFileSync(known, knownDrawing())
  const pdf = join(dir, 'plan.dwg')
  writeFileSync(pdf, '%PDF-1.4\n')

  it('takes paths from the folder the command was typed in: npm run boq, npx boq, node bin.ts', {
    timeout: 300_000,
  }, async () => {
    // A folder inside the repository, as server/ is (git ignores test-results/): npm runs the
    // script from the package's folder above it.
    const results = join(ROOT, 'test-results')
    if (!existsSync(results)) {
      mkdirSync(results, { recursive: true })
      emptied.push(results)
    }
    const typed = tempFolder(results)
    copyFileSync(fixturePath('sample_2018.dwg'), join(typed, 'plan.dwg'))
    // A name of its own: where the bills would land if taken from the package's folder.
    const bills = `${basename(typed)}-bills/`
    made.push(join(ROOT, bills))

    const viaNpm = await npm(
      'npm',
      ['run', 'boq', '--', 'plan.dwg', '--format', 'csv', '--out', bills],
      typed,
    )
    expect(viaNpm.stderr).toContain(
      `plan.dwg: BOQ written to ${join(typed, bills, 'plan.boq.csv')}\n`,
    )
    expect(viaNpm.code).toBe(0)
    expect(readFileSync(join(typed, bills, 'plan.boq.csv'), 'utf8')).toMatch(/^Section,/)
    expect(existsSync(join(ROOT, bills))).toBe(false)

    const viaNpx = await npm('npx', ['boq', 'plan.dwg', '--out', 'plan.json'], typed)
    expect(viaNpx.code).toBe(0)
    expect(JSON.parse(readFileSync(join(typed, 'plan.json'), 'utf8')).source.fileName).toBe(
      'plan.dwg',
    )

    // Started by another npm script, node inherits that script's INIT_CWD: not where it runs.
    const elsewhere = tempFolder()
    copyFileSync(fixturePath('sample_2018.dwg'), join(elsewhere, 'plan.dwg'))
    const written = `plan.dwg: BOQ written to ${join(elsewhere, 'plan.boq.xlsx')}\n`
    const direct = await spawnBoq(['plan.dwg', '--format', 'xlsx'], elsewhere, {
      INIT_CWD: undefined,
    })
    expect(direct.stderr).toBe(written)
    expect(direct.code).toBe(0)
  })

  it('as its own process: exit 0 with the bill on stdout, 1 for a drawing not read, 2 for bad usage', async () => {
    const good = await spawnBoq([known])
    expect([good.code, good.stderr]).toEqual([0, ''])
    expect(JSON.parse(good.stdout).source.fileName).toBe('known.dxf')
    const unread = await spawnBoq([pdf])
    expect([unread.code, unread.stdout]).toEqual([1, ''])
    expect(unread.stderr).toBe(`${pdf}: not a DWG file (it looks like a PDF document)\n`)
    const usage = await spawnBoq([known, '--format', 'pdf'])
    expect(usage.code).toBe(2)
    expect(usage.stderr.trim().split('\n')).toEqual([
      "boq: unknown format 'pdf' (json, csv or xlsx)",
      expect.stringMatching(/^usage: boq <drawing>/),
    ])
  })
})
