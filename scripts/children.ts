import { type ChildProcess, spawn } from 'node:child_process'

/** Starts `node <args>` with the same Node binary, sharing this terminal. */
export function startNode(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...env } })
}

/** Resolves with the exit code (signals count as failure). */
export function exited(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode)
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)))
}

/**
 * Keeps the children running until one ends or we get Ctrl-C / SIGTERM; then stops the others
 * (SIGTERM, SIGKILL after a grace period) and exits with the first child's code.
 */
export async function superviseUntilExit(children: ChildProcess[]): Promise<never> {
  let stopping = false
  const stopAll = async () => {
    if (stopping) return
    stopping = true
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
    const killer = setTimeout(() => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
    }, 5000)
    await Promise.all(children.map(exited))
    clearTimeout(killer)
  }
  const onSignal = async () => {
    await stopAll()
    process.exit(0)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  const code = await Promise.race(children.map(exited))
  await stopAll()
  process.exit(code)
}
