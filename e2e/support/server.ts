import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { killChild, spawnNode, stopChild } from '../../scripts/children.ts'
import { FIXTURES } from '../../server/testing/boq/fixtures.ts'
import { repoRoot } from './paths.ts'

export interface StartServerOptions {
  /** Drawings that seed the empty local cloud on first start. Default: the sample drawings. */
  seedDir?: string
  /** Use this data folder (e.g. a cloud prepared by the test) and keep it; default: a fresh temp one. */
  dataDir?: string
  /** Remove `dataDir` on stop as well (a temp folder the caller made for this server alone). */
  removeDataDir?: boolean
  /** Extra environment (`undefined` removes a variable). APS_* are removed unless given here. */
  env?: Record<string, string | undefined>
  /** How long to wait for the `BOQ listening on` line. */
  startTimeoutMs?: number
  /**
   * A job worker (BOQ_ROLE=worker, which needs BOQ_DATABASE_URL in `env`): it has no port, and
   * is ready once it prints `BOQ worker running`; its `url` is empty.
   */
  worker?: boolean
}

export interface RunningServer {
  /** e.g. `http://127.0.0.1:43117` (no trailing slash). */
  url: string
  dataDir: string
  pid: number
  /** Everything the server printed so far (stdout and stderr), for failure messages. */
  output(): string
  /** Stops the server (SIGTERM, then SIGKILL after 5 s), waits for its exit, removes a temp data folder. */
  stop(): Promise<void>
  /** kill -9, as a crash would end it; waits for its exit and keeps the data folder. */
  kill(): Promise<void>
}

const listening = /BOQ listening on (http:\/\/\S+)/
const workerRunning = /BOQ worker running()/

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
 * BOQ_DATA_DIR seeded from the sample drawings, and resolves once it printed its listening line.
 * Stop it in afterAll/afterEach. A test process that dies first (a timed-out test file is ended
 * with SIGTERM, which skips every exit handler) takes the server with it: see `endWithParent`.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const ownsDataDir = options.dataDir === undefined || options.removeDataDir === true
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'boq-e2e-data-'))
  const child = spawnNode(['server/main.ts'], {
    endWithParent: true,
    cwd: repoRoot,
    env: serverEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      BOQ_DATA_DIR: dataDir,
      BOQ_SEED_DIR: options.seedDir ?? FIXTURES,
      ...(options.worker ? { BOQ_ROLE: 'worker' } : {}),
      ...options.env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })

  const stop = async () => {
    await stopChild(child)
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
      const match = (options.worker ? workerRunning : listening).exec(output)
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

  return {
    url,
    dataDir,
    pid: child.pid as number,
    output: () => output,
    stop,
    kill: () => killChild(child),
  }
}
