import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixturesDir, repoRoot } from './paths.ts'

export interface StartServerOptions {
  /** Drawings that seed the empty local cloud on first start. Default: the shared fixtures. */
  seedDir?: string
  /** Use this data folder (e.g. a cloud prepared by the test) and keep it; default: a fresh temp one. */
  dataDir?: string
  /** Remove `dataDir` on stop as well (a temp folder the caller made for this server alone). */
  removeDataDir?: boolean
  /** Extra environment (`undefined` removes a variable). APS_* are removed unless given here. */
  env?: Record<string, string | undefined>
  /** How long to wait for the `BOQ listening on` line. */
  startTimeoutMs?: number
}

export interface RunningServer {
  /** e.g. `http://127.0.0.1:43117` (no trailing slash). */
  url: string
  dataDir: string
  pid: number
  /** Everything the server printed so far (stdout and stderr), for failure messages. */
  output(): string
  /** Stops the server by pid (SIGTERM, then SIGKILL) and removes the temp data folder. */
  stop(): Promise<void>
}

const listening = /BOQ listening on (http:\/\/\S+)/
const live = new Set<ChildProcess>()

// A test run that dies (or a failed test that skips its afterAll) must not leave servers behind.
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL')
})

/** Signals one process by pid; it may have exited a moment ago. */
function signal(pid: number, name: NodeJS.Signals) {
  try {
    process.kill(pid, name)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error
  }
}

/** The environment of a real start: ours minus test-runner and Autodesk variables. */
function serverEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const key of Object.keys(env)) {
    if (key.startsWith('VITEST') || key.startsWith('APS_') || key === 'NODE_ENV') delete env[key]
  }
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key]
    else env[key] = value
  }
  return env
}

/**
 * Starts `node server/main.ts` as a child process on 127.0.0.1 and a free port, with a fresh temp
 * BOQ_DATA_DIR seeded from the shared fixtures, and resolves once it printed its listening line.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const ownsDataDir = options.dataDir === undefined || options.removeDataDir === true
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'boq-e2e-data-'))
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: repoRoot,
    env: serverEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      BOQ_DATA_DIR: dataDir,
      BOQ_SEED_DIR: options.seedDir ?? fixturesDir,
      ...options.env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  live.add(child)
  let output = ''
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })

  let exited = child.exitCode !== null
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true
      live.delete(child)
      resolve()
    })
  })

  const stop = async () => {
    if (!exited && child.pid !== undefined) {
      signal(child.pid, 'SIGTERM')
      const timer = setTimeout(() => {
        if (!exited && child.pid !== undefined) signal(child.pid, 'SIGKILL')
      }, 5000)
      await exit
      clearTimeout(timer)
    }
    if (ownsDataDir && !process.env.BOQ_E2E_KEEP) rmSync(dataDir, { recursive: true, force: true })
  }

  const url = await new Promise<string>((resolve, reject) => {
    const timeoutMs = options.startTimeoutMs ?? 30_000
    const timer = setTimeout(
      () => fail(`did not print its listening line within ${timeoutMs} ms`),
      timeoutMs,
    )
    function fail(reason: string) {
      clearTimeout(timer)
      reject(new Error(`The server ${reason}. Its output:\n${output}`))
    }
    child.stdout?.on('data', (chunk) => {
      output += chunk
      const match = listening.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve(match[1].replace(/\/$/, ''))
      }
    })
    child.once('error', (error) => fail(`could not start (${error.message})`))
    child.once('exit', (code, signal) =>
      fail(`exited before listening (code ${code}, signal ${signal})`),
    )
  }).catch(async (error: unknown) => {
    await stop()
    throw error
  })

  return { url, dataDir, pid: child.pid as number, output: () => output, stop }
}
