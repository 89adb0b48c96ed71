import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process'

/**
 * Loaded into a child with `--import`: the child ends (SIGTERM to itself, so a server stops
 * gracefully) when the process that started it is gone, however it went (even SIGKILL): the
 * parent holds the write end of the child's stdin, and the kernel closes it when the parent dies.
 */
const endWithParent = new URL('./end-with-parent.ts', import.meta.url).href

export interface NodeChildOptions extends SpawnOptions {
  /**
   * End the child when this process ends. Its stdin becomes a pipe that this process never
   * writes to: the child must not read stdin for anything else.
   */
  endWithParent?: boolean
}

/**
 * Starts `node <args>` with the same Node binary (our Node, not whatever `node` is on PATH).
 * With `endWithParent`, a child that a crashed or killed parent failed to stop ends by itself.
 */
export function spawnNode(args: string[], options: NodeChildOptions = {}): ChildProcess {
  const { endWithParent: guarded, ...spawnOptions } = options
  if (!guarded) return spawn(process.execPath, args, spawnOptions)
  const stdio = spawnOptions.stdio ?? 'pipe'
  const [, ...outputs] = typeof stdio === 'string' ? [stdio, stdio, stdio] : stdio
  return spawn(process.execPath, ['--import', endWithParent, ...args], {
    ...spawnOptions,
    stdio: ['pipe', ...outputs],
  })
}

/** Starts `node <args>` with the same Node binary, sharing this terminal. */
export function startNode(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawnNode(args, { stdio: 'inherit', env: { ...process.env, ...env } })
}

/** Everything the child prints on stdout and stderr, together in order of arrival, so far. */
export function outputOf(child: ChildProcess): () => string {
  let output = ''
  const keep = (chunk: Buffer | string) => {
    output += chunk
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  return () => output
}

/** Resolves with the exit code once the child has exited (signals count as failure). */
export function exited(child: ChildProcess): Promise<number> {
  // No pid: it never started (the 'error' event says why), so it will not exit either.
  if (child.pid === undefined) return Promise.resolve(1)
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve(child.exitCode ?? 1)
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)))
}

/** Sends `name` to the child unless it has exited (`kill` ignores one that exited a moment ago). */
function signal(child: ChildProcess, name: NodeJS.Signals): void {
  if (child.exitCode === null && child.signalCode === null) child.kill(name)
}

/**
 * Stops the child gracefully (SIGTERM), with SIGKILL after `graceMs` if it is still there, and
 * resolves once it has exited. Safe to call again, or while another stop is under way.
 */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  const exit = exited(child)
  signal(child, 'SIGTERM')
  const killer = setTimeout(() => signal(child, 'SIGKILL'), graceMs)
  await exit
  clearTimeout(killer)
}

/** kill -9: ends the child at once, whatever it was doing; resolves once it has exited. */
export async function killChild(child: ChildProcess): Promise<void> {
  const exit = exited(child)
  signal(child, 'SIGKILL')
  await exit
}

/**
 * Keeps the children running until one ends or we get Ctrl-C / SIGTERM; then stops the others
 * (SIGTERM, SIGKILL after a grace period) and exits with the first child's code.
 */
export async function superviseUntilExit(children: ChildProcess[]): Promise<never> {
  let stopping: Promise<unknown> | undefined
  const stopAll = () => {
    stopping ??= Promise.all(children.map((child) => stopChild(child)))
    return stopping
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
