import {
  type RunningServer,
  type StartServerOptions,
  startServer,
} from '../../../e2e/support/server.ts'

/**
 * `node server/main.ts` as a child process, one at a time, for a test file that stops and starts
 * the server: starting again first stops the one before; `stop()` (SIGTERM) and `kill()`
 * (SIGKILL) wait for the child's exit; a start still under way (a test that timed out) is
 * awaited and stopped. Call `stop()` after each test: then no child is left, whatever failed.
 */
export function childServer(options: () => StartServerOptions) {
  let current: Promise<RunningServer | undefined> | undefined

  async function end(signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
    const starting = current
    current = undefined
    const server = await starting
    if (!server) return
    if (signal === 'SIGKILL') {
      try {
        process.kill(server.pid, 'SIGKILL')
      } catch (error) {
        // It may have exited a moment ago.
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error
      }
    }
    // SIGTERM unless it is gone already, then SIGKILL after 5 s; resolves once it has exited.
    await server.stop()
  }

  return {
    async start(): Promise<RunningServer> {
      await end('SIGTERM')
      const starting = startServer(options())
      // A start that fails stops its own child (startServer does); nothing is left to stop.
      current = starting.catch(() => undefined)
      return starting
    },
    /** A graceful stop (SIGTERM), as `kill <pid>` or a service manager does it. */
    stop: () => end('SIGTERM'),
    /** kill -9: the process ends at once, whatever it was doing. */
    kill: () => end('SIGKILL'),
  }
}
