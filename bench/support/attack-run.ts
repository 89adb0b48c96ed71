/**
 * One attack on a fresh server: the real server in a child process (bench/support/attack-server.ts),
 * Mallory sending the attack while Olive's GET /api/boq/jobs is asked one request at a time, 5 ms
 * apart, until every answer of the attack has come.
 */
import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { spawnNode, stopChild } from '../../scripts/children.ts'
import { createClient, type TestClient } from '../../server/testing/client.ts'
import { timeAnswers } from '../../server/testing/jobs/answer-times.ts'
import { findDrawing } from '../../server/testing/jobs/drawings.ts'
import { extractBody, postExtract, waitForJob } from '../../server/testing/jobs/jobs-api.ts'
import { type AttackServerReady, READY_PREFIX } from './attack-server.ts'
import { ANSWER_CAP_MS, type Attack, type AttackContext } from './attacks.ts'

export interface AttackOutcome {
  answers: string[]
  /** From the attack's first request to its last answer, in ms. */
  tookMs: number
  /** Olive's answer times while the attack lasted, in ms. */
  times: number[]
  /** Why Olive's timing stopped early: a request of hers had no answer. */
  otherStalled?: string
}

export async function runAttack(
  attack: Attack,
  seedDir: string,
  drawingName: string,
): Promise<AttackOutcome> {
  const child = spawnNode([join(import.meta.dirname, 'attack-server.ts'), seedDir], {
    endWithParent: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  try {
    const ready = await readyLine(child)
    const [mallory, olive] = (['mallory', 'olive'] as const).map((person) =>
      clientOf(ready.url, ready.sessions[person]),
    )
    const drawing = await findDrawing(mallory.json, drawingName)
    const context: AttackContext = { url: ready.url, mallory, olive, drawing }
    if (attack.needsJob) {
      const posted = await postExtract(mallory, extractBody(drawing))
      if (posted.status !== 202) throw new Error(`extract: ${posted.status} ${await posted.text()}`)
      const job = await waitForJob(mallory, ((await posted.json()) as { id: string }).id, {
        timeoutMs: 120_000,
      })
      if (job.status !== 'succeeded') throw new Error(`The job failed: ${job.error}`)
      context.jobId = job.id
    }
    attack.prepare?.()
    // Olive's first answers warm the server's code up, as a running server's are.
    for (let i = 0; i < 20; i++) await (await olive('/api/boq/jobs')).arrayBuffer()

    let over = false
    const started = performance.now()
    let tookMs = 0
    const sent = attack.send(context).finally(() => {
      tookMs = performance.now() - started
      over = true
    })
    const timed = (path: string) => olive(path, { signal: AbortSignal.timeout(ANSWER_CAP_MS) })
    let otherStalled: string | undefined
    const times = await timeAnswers(timed, '/api/boq/jobs', {
      max: 1_000_000,
      done: () => over,
      pauseMs: 5,
    }).catch((error: unknown) => {
      otherStalled = error instanceof Error ? error.message : String(error)
      return [] as number[]
    })
    return { answers: await sent, tookMs, times, otherStalled }
  } finally {
    // A server whose event loop is held cannot stop itself: SIGKILL after 10 s.
    await stopChild(child, 10_000)
  }
}

function clientOf(url: string, cookies: [string, string][]): TestClient {
  const client = createClient(url)
  for (const [name, value] of cookies) client.cookies.set(name, value)
  return client
}

function readyLine(child: ChildProcess): Promise<AttackServerReady> {
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`No server within 60 s:\n${output}`)), 60_000)
    const keep = (chunk: Buffer) => {
      output += chunk
      const line = output.split('\n').find((l) => l.startsWith(READY_PREFIX))
      if (!line) return
      clearTimeout(timer)
      resolve(JSON.parse(line.slice(READY_PREFIX.length)) as AttackServerReady)
    }
    child.stdout?.on('data', keep)
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`The server exited (${code}) before it was ready:\n${output}`))
    })
  })
}
