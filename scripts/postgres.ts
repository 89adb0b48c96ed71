import { execFile, execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'

/**
 * A throwaway PostgreSQL cluster in a folder of its own (Debian's server programs, no systemd):
 * for the tests when no BOQ_TEST_DATABASE_URL is given, for CI, and for `npm run cluster`.
 *
 *   node scripts/postgres.ts start <dir>   prints the URL of a server on a free port
 *   node scripts/postgres.ts stop <dir>
 */

const run = promisify(execFile)

export const POSTGRES_MISSING =
  "PostgreSQL's server programs (initdb, pg_ctl) are not installed: neither `pg_config --bindir` " +
  'nor /usr/lib/postgresql/*/bin has them. Install them with `apt-get install -y postgresql` ' +
  '(Debian, Ubuntu; no service needs to run), or point to a running server: BOQ_TEST_DATABASE_URL ' +
  'for the tests (e.g. postgres://postgres@127.0.0.1:5432/postgres), BOQ_DATABASE_URL for ' +
  '`npm run cluster`.'

export interface Postgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication, loopback only). */
  url: string
  port: number
  /** The cluster's folder: data/ (the cluster), log, and the server's socket. */
  dir: string
  /** Stops the server (fast: open connections are ended); the data stays for start(). */
  stop(): Promise<void>
  /** Starts the stopped server again on the same port. */
  start(): Promise<void>
  /** Stops the server and removes its folder. */
  close(): Promise<void>
}

function hasServerPrograms(bin: string): boolean {
  return existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))
}

let binDir: string | undefined

/** The folder of initdb and pg_ctl: pg_config's, else Debian's newest /usr/lib/postgresql/N/bin. */
export function postgresBinDir(): string {
  binDir ??= findBinDir()
  return binDir
}

function findBinDir(): string {
  try {
    const bin = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim()
    if (hasServerPrograms(bin)) return bin
  } catch {
    // No pg_config on PATH: look where Debian puts each major version.
  }
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : []
  for (const version of versions) {
    const bin = join('/usr/lib/postgresql', version, 'bin')
    if (hasServerPrograms(bin)) return bin
  }
  throw new Error(POSTGRES_MISSING)
}

const asRoot = process.getuid?.() === 0

/** PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (!asRoot) return undefined
  try {
    const id = (flag: string) =>
      Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }))
    return { uid: id('-u'), gid: id('-g') }
  } catch {
    throw new Error(
      'PostgreSQL refuses to run as root, and there is no `postgres` user to run it as ' +
        '(`apt-get install -y postgresql` creates one).',
    )
  }
}

/** Runs one of PostgreSQL's programs (as `postgres` when we are root); rejects with its output. */
async function runProgram(dir: string, program: string, args: string[]): Promise<void> {
  const path = join(postgresBinDir(), program)
  const [file, fileArgs] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', path, ...args]]
    : [path, args]
  try {
    // In the cluster's folder: as `postgres` the caller's working directory may be unreadable.
    await run(file, fileArgs, { cwd: dir })
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    const log = join(dir, 'log')
    const logTail = existsSync(log)
      ? readFileSync(log, 'utf8').split('\n').slice(-15).join('\n')
      : ''
    throw new Error(
      `${program} ${args.join(' ')} failed:\n${stdout}${stderr}${logTail && `\n${log}:\n${logTail}`}`,
    )
  }
}

/** A port nobody listens on right now on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address
          ? resolvePort(address.port)
          : reject(new Error('no port')),
      )
    })
  })
}

/** True while a server runs on the cluster in `dir` (pg_ctl status answers 3 when none does). */
async function isRunning(dir: string): Promise<boolean> {
  if (!existsSync(join(dir, 'data', 'postmaster.pid'))) return false
  try {
    await runProgram(dir, 'pg_ctl', ['status', '-D', join(dir, 'data')])
    return true
  } catch {
    return false
  }
}

/** Stops the server of the cluster in `dir`, if one runs; its data stays. */
export async function stopPostgres(dir: string): Promise<void> {
  const absolute = resolve(dir)
  if (!(await isRunning(absolute))) return
  await runProgram(absolute, 'pg_ctl', ['stop', '-D', join(absolute, 'data'), '-m', 'fast', '-w'])
}

export interface StartOptions {
  /** The cluster's folder: created (with a new cluster) when missing, reused otherwise. */
  dir: string
  /** Default: a free one. */
  port?: number
  /**
   * Skip fsync: faster, and safe for a cluster that is thrown away with the test run, not for one
   * whose jobs must survive the machine crashing.
   */
  throwaway?: boolean
}

/** Starts a PostgreSQL server on 127.0.0.1 for the cluster in `dir` (made when missing). */
export async function startPostgres(options: StartOptions): Promise<Postgres> {
  const dir = resolve(options.dir)
  const data = join(dir, 'data')
  // Without the programs, say how to get them before anything is made.
  postgresBinDir()
  if (await isRunning(dir)) {
    throw new Error(
      `A PostgreSQL server already runs on ${dir}: stop it first (node scripts/postgres.ts stop ${dir}).`,
    )
  }
  const user = postgresUser()
  mkdirSync(dirname(dir), { recursive: true })
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  if (user) chownSync(dir, user.uid, user.gid)
  if (!existsSync(join(data, 'PG_VERSION'))) {
    const noSync = options.throwaway ? ['--no-sync'] : []
    await runProgram(dir, 'initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', ...noSync])
  }
  // pg_ctl hands these to the server through a shell: the folder is quoted.
  const settings = ['-c listen_addresses=127.0.0.1', `-k '${dir}'`]
  if (options.throwaway) settings.push('-c fsync=off', '-c full_page_writes=off')

  let port = options.port ?? (await freePort())
  const start = () =>
    runProgram(dir, 'pg_ctl', [
      'start',
      '-w',
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-o',
      [`-p ${port}`, ...settings].join(' '),
    ])
  try {
    await start()
  } catch (error) {
    // Another process may have taken the free port in the meantime: once more on another.
    if (options.port !== undefined) throw error
    port = await freePort()
    await start()
  }
  const stop = () => stopPostgres(dir)
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    stop,
    start,
    async close() {
      await stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

async function cli(args: string[]): Promise<void> {
  const [command, dir] = args
  if (command === 'start' && dir) {
    const postgres = await startPostgres({ dir, throwaway: true })
    console.log(postgres.url)
  } else if (command === 'stop' && dir) {
    await stopPostgres(dir)
  } else {
    console.error('usage: node scripts/postgres.ts start <dir> | stop <dir>')
    process.exit(2)
  }
}

if (import.meta.main) {
  cli(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error))
    process.exit(1)
  })
}
