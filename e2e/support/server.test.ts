/**
 * startServer's children end with the process that started them, however it ends: Vitest ends a
 * timed-out file's worker with SIGTERM and then SIGKILL, and neither runs its exit handlers.
 */
import { rmSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { killChild, spawnNode } from '../../scripts/children.ts'

/** A stand-in for a test worker: starts a server, prints its pid and data folder, then waits. */
const workerScript = `
  import { startServer } from ${JSON.stringify(pathToFileURL(`${import.meta.dirname}/server.ts`).href)}
  const server = await startServer({ seedDir: '' })
  console.log(JSON.stringify({ pid: server.pid, dataDir: server.dataDir }))
  setInterval(() => {}, 1000)
`

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function waitUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (isRunning(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
  return !isRunning(pid)
}

describe('a server started by startServer', () => {
  it.each(['SIGKILL', 'SIGTERM'] as const)(
    'ends when the process that started it gets %s',
    async (signal) => {
      const worker = spawnNode(['--input-type=module', '-e', workerScript], {
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      let server: { pid: number; dataDir: string } | undefined
      try {
        for await (const line of createInterface({
          input: worker.stdout as NodeJS.ReadableStream,
        })) {
          server = JSON.parse(line)
          break
        }
        if (!server) throw new Error('The stand-in worker printed no server')
        expect(isRunning(server.pid)).toBe(true)
        worker.kill(signal)
        expect(await waitUntilGone(server.pid, 20_000)).toBe(true)
      } finally {
        await killChild(worker)
        if (server && isRunning(server.pid)) process.kill(server.pid, 'SIGKILL')
        if (server) rmSync(server.dataDir, { recursive: true, force: true })
      }
    },
  )
})
