import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { buildAppWhenStale, root } from './app-build.ts'
import { exited, spawnNode, stopChild } from './children.ts'
import { startPostgres, stopPostgres } from './postgres.ts'

/**
 * `npm run cluster`: BOQ as several processes sharing jobs through PostgreSQL, on one machine. Web
 * processes on the ports of BOQ_CLUSTER_PORTS (default 3000,3001) and two workers, with one
 * BOQ_DATABASE_URL (given, or a PostgreSQL of our own in BOQ_DATA_DIR/postgres), one
 * SESSION_SECRET and one BOQ_DATA_DIR. Each output line says which process wrote it. Ctrl-C
 * stops them all, then our own PostgreSQL.
 */
const WORKERS = 2

const ports = (process.env.BOQ_CLUSTER_PORTS || '3000,3001').split(',').map((port) => port.trim())
if (!ports.every((port) => /^\d+$/.test(port))) {
  console.error(`BOQ_CLUSTER_PORTS must be ports separated by commas (got "${ports.join(',')}").`)
  process.exit(2)
}
const dataDir = resolve(process.env.BOQ_DATA_DIR || 'data')
/** Our own PostgreSQL's folder, when BOQ_DATABASE_URL is not given. */
const postgresDir = process.env.BOQ_DATABASE_URL ? undefined : join(dataDir, 'postgres')

/**
 * SESSION_SECRET, else one generated for this data folder and kept in it: every process must open
 * what the others sealed (sessions, a queued job's sign-in), also after the cluster restarts.
 */
function sessionSecret(): string {
  if (process.env.SESSION_SECRET) return process.env.SESSION_SECRET
  const file = join(dataDir, 'cluster-session-secret')
  mkdirSync(dataDir, { recursive: true })
  try {
    writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  return readFileSync(file, 'utf8').trim()
}

interface Member {
  name: string
  child: ChildProcess
  /** Resolves with the URL of the server's "BOQ listening on" line (web processes only). */
  listening: Promise<string>
}

const nameWidth = Math.max(...ports.map((port) => `web-${port}`.length), `worker-${WORKERS}`.length)

/** Starts `node server/main.ts` with `env`; its output lines come out prefixed with its name. */
function startMember(name: string, env: Record<string, string>): Member {
  const child = spawnNode([join(root, 'server', 'main.ts')], {
    endWithParent: true,
    env: { ...process.env, ...env },
  })
  const prefix = `[${name}]`.padEnd(nameWidth + 3)
  const listening = new Promise<string>((resolveUrl) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      process.stdout.write(`${prefix}${line}\n`)
      const url = /^BOQ listening on (\S+)/.exec(line)?.[1]
      if (url) resolveUrl(url)
    })
  })
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
    process.stderr.write(`${prefix}${line}\n`)
  })
  return { name, child, listening }
}

const members: Member[] = []
let stopping: Promise<void> | undefined

/** Stops every process (SIGTERM, SIGKILL after a grace period), then our own PostgreSQL. */
function stopAll(): Promise<void> {
  stopping ??= (async () => {
    await Promise.all(members.map((member) => stopChild(member.child)))
    // By its folder, not by a handle: Ctrl-C may come while it is still starting.
    if (postgresDir) await stopPostgres(postgresDir)
  })()
  return stopping
}

async function stopAndExit(code: number): Promise<never> {
  await stopAll().catch((error: unknown) => console.error(String(error)))
  process.exit(code)
}

process.on('SIGINT', () => stopAndExit(0))
process.on('SIGTERM', () => stopAndExit(0))

await buildAppWhenStale()

/** Our own PostgreSQL in `dir`: its URL. */
async function startOwnPostgres(dir: string): Promise<string> {
  try {
    // Kept between runs, like the rest of the data folder: queued jobs wait for the next start.
    const { url } = await startPostgres({ dir })
    console.log(`BOQ cluster: PostgreSQL ${url} (in ${dir}, stopped with the cluster)`)
    return url
  } catch (error) {
    console.error(`BOQ cluster: no PostgreSQL. ${error instanceof Error ? error.message : error}`)
    return stopAndExit(1)
  }
}

const databaseUrl = postgresDir
  ? await startOwnPostgres(postgresDir)
  : (process.env.BOQ_DATABASE_URL as string)

const shared = {
  BOQ_DATABASE_URL: databaseUrl,
  SESSION_SECRET: sessionSecret(),
  BOQ_DATA_DIR: dataDir,
}
const webEnv = (port: string) => ({ ...shared, BOQ_ROLE: 'web', PORT: port })

// The first one alone: it prepares the data folder (the demo cloud) before the others read it.
const [firstPort, ...otherPorts] = ports
const first = startMember(`web-${firstPort}`, webEnv(firstPort))
members.push(first)
const firstExit = exited(first.child)
const firstOutcome = await Promise.race([first.listening, firstExit])
if (typeof firstOutcome === 'number') await stopAndExit(firstOutcome || 1)

for (const port of otherPorts) members.push(startMember(`web-${port}`, webEnv(port)))
for (let index = 1; index <= WORKERS; index += 1) {
  members.push(startMember(`worker-${index}`, { ...shared, BOQ_ROLE: 'worker' }))
}

// One process ending (a crash, a port in use) ends the cluster: a partial one would mislead.
const anyExit = Promise.race(members.map((member) => exited(member.child)))
const webUrls = Promise.all(members.slice(0, ports.length).map((member) => member.listening))
const started = await Promise.race([webUrls, anyExit])
if (typeof started !== 'number') {
  console.log(
    `BOQ cluster: ${started.join(', ')} and ${WORKERS} workers, jobs in ${databaseUrl}. Ctrl-C stops all.`,
  )
}
const code = await anyExit
if (!stopping) {
  const ended = members.find((member) => member.child.exitCode !== null || member.child.signalCode)
  console.error(`BOQ cluster: ${ended?.name} ended (exit code ${code}); stopping the others.`)
  await stopAndExit(code || 1)
}
