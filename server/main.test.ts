import type { ChildProcess } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnNode } from '../scripts/children.ts'

const MAIN = join(import.meta.dirname, 'main.ts')

interface Run {
  child: ChildProcess
  stdout: string[]
  stderr: string
  exit: Promise<number | null>
}

function run(env: Record<string, string>): Run {
  // endWithParent: a test that times out before its `finally` leaves no server behind.
  const child = spawnNode([MAIN], {
    env: { ...process.env, ...env },
    stdio: 'pipe',
    endWithParent: true,
  })
  const result: Run = {
    child,
    stdout: [],
    stderr: '',
    exit: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  }
  let pending = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString()
    const lines = pending.split('\n')
    pending = lines.pop() ?? ''
    result.stdout.push(...lines)
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    result.stderr += chunk.toString()
  })
  return result
}

async function listeningUrl(r: Run): Promise<string> {
  for (let i = 0; i < 600; i += 1) {
    const line = r.stdout.find((l) => l.startsWith('BOQ listening on '))
    if (line) return line.slice('BOQ listening on '.length)
    if (r.child.exitCode !== null) throw new Error(`server exited: ${r.stderr}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`no listening line: ${r.stderr}`)
}

/** The first JSON line on stderr that `match` accepts, once it was written. */
async function logLine(
  r: Run,
  match: (line: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  for (let i = 0; i < 100; i += 1) {
    for (const text of r.stderr.split('\n')) {
      if (!text.startsWith('{')) continue
      const line = JSON.parse(text) as Record<string, unknown>
      if (match(line)) return line
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`no such log line in: ${r.stderr}`)
}

let dataDir: string
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'boq-main-'))
})
afterAll(() => rm(dataDir, { recursive: true, force: true }))

describe('node server/main.ts', () => {
  it('prepares the data folder, prints one listening line, serves, and stops on SIGTERM', async () => {
    const r = run({ PORT: '0', HOST: '127.0.0.1', BOQ_DATA_DIR: dataDir, BOQ_SEED_DIR: '' })
    try {
      const url = await listeningUrl(r)
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(r.stdout).toEqual([`BOQ listening on ${url}`])
      expect(await readdir(dataDir)).toEqual(expect.arrayContaining(['cloud', 'session.key']))
      const response = await fetch(`${url}/api/aps/auth/token`)
      expect(response.status).toBe(401)
      r.child.kill('SIGTERM')
      expect(await r.exit).toBe(0)
    } finally {
      r.child.kill('SIGKILL')
    }
  })

  it('logs one JSON line per request on stderr: method, path without the query, status, ms', async () => {
    const envs: Record<string, string>[] = [
      { NODE_ENV: '' },
      { NODE_ENV: 'test', BOQ_LOG_LEVEL: 'debug' },
    ]
    for (const env of envs) {
      const r = run({
        PORT: '0',
        HOST: '127.0.0.1',
        BOQ_DATA_DIR: dataDir,
        BOQ_SEED_DIR: '',
        ...env,
      })
      try {
        const url = await listeningUrl(r)
        await (await fetch(`${url}/api/aps/auth/token?code=secret-code`)).body?.cancel()
        const line = await logLine(r, (l) => l.msg === 'request')
        expect(line).toEqual({
          level: 'info',
          time: expect.any(String),
          msg: 'request',
          method: 'GET',
          path: '/api/aps/auth/token',
          status: 401,
          ms: expect.any(Number),
        })
        expect(r.stderr).not.toContain('secret-code')
        // The log stays on stderr: stdout is still the one line scripts parse.
        expect(r.stdout).toEqual([`BOQ listening on ${url}`])
      } finally {
        r.child.kill('SIGKILL')
      }
    }
  })

  it('is quiet under NODE_ENV=test: no request lines', async () => {
    const r = run({
      PORT: '0',
      HOST: '127.0.0.1',
      BOQ_DATA_DIR: dataDir,
      BOQ_SEED_DIR: '',
      NODE_ENV: 'test',
    })
    try {
      const url = await listeningUrl(r)
      await (await fetch(`${url}/api/aps/auth/token`)).body?.cancel()
      await (await fetch(`${url}/api/nope`)).body?.cancel()
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(r.stderr).not.toContain('"msg":"request"')
    } finally {
      r.child.kill('SIGKILL')
    }
  })

  it('refuses a bad setting with one readable line and exit code 1', async () => {
    const r = run({ PORT: 'abc', BOQ_DATA_DIR: dataDir })
    expect(await r.exit).toBe(1)
    expect(r.stderr.trim()).toBe(
      'BOQ cannot start: PORT must be a whole number from 0 to 65535 (got "abc").',
    )
  })

  it('says so when the port is taken', async () => {
    const first = run({ PORT: '0', HOST: '127.0.0.1', BOQ_DATA_DIR: dataDir, BOQ_SEED_DIR: '' })
    try {
      const port = new URL(await listeningUrl(first)).port
      const second = run({ PORT: port, HOST: '127.0.0.1', BOQ_DATA_DIR: dataDir, BOQ_SEED_DIR: '' })
      expect(await second.exit).toBe(1)
      expect(second.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`)
    } finally {
      first.child.kill('SIGKILL')
    }
  })
})
