/**
 * A child process for the heavy-requests bench: the real server (local mode, seeded from the
 * folder given as argument, several users) on loopback, with two people signed in, Mallory (who
 * attacks) and Olive (the other session). Prints one line, `ATTACK-SERVER {url, sessions}`, the
 * sessions as their cookies; stops on SIGTERM. In a process of its own, a server whose event loop
 * is held cannot hold the bench's clock, and the bench can end it whatever it is doing.
 */
import { rm } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import { startSeveralUsersServer } from '../../server/testing/jobs/several-users.ts'

export const READY_PREFIX = 'ATTACK-SERVER '
export const PEOPLE = ['mallory', 'olive'] as const

export interface AttackServerReady {
  url: string
  /** Each person's cookies (name → value), as a browser would keep them. */
  sessions: Record<(typeof PEOPLE)[number], [string, string][]>
}

async function main(seedDir: string): Promise<void> {
  const { server, signInAs } = await startSeveralUsersServer('boq-bench-attack-', seedDir)
  const sessions = {} as AttackServerReady['sessions']
  for (const person of PEOPLE) sessions[person] = [...(await signInAs(server.url, person)).cookies]
  const ready: AttackServerReady = { url: server.url, sessions }
  console.log(`${READY_PREFIX}${JSON.stringify(ready)}`)
  process.once('SIGTERM', async () => {
    await server.close()
    await rm(server.dataDir, { recursive: true, force: true })
    process.exit(0)
  })
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [seedDir] = process.argv.slice(2)
  if (!seedDir) throw new Error('Usage: node bench/support/attack-server.ts <seed folder>')
  await main(seedDir)
}
