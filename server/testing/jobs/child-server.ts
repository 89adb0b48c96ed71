import { afterAll, afterEach } from 'vitest'
import {
  type RunningServer,
  type StartServerOptions,
  startServer,
} from '../../../e2e/support/server.ts'

/**
 * `node server/main.ts` as a child process, one at a time, for a test file that stops and starts
 * the server: starting again first stops the one before; `stop()` (SIGTERM) and `kill()`
 * (SIGKILL) wait for the child's exit. Call it at the top of the file: it stops every child it
 * started after each test and after the file, also when a test failed or timed out.
 *
 * A timed-out test goes on running in the background, so everything here is safe to call at the
 * same time as anything else: a start is known from the moment it is asked for (a stop waits for
 * it and then stops it), every stop waits for every child not yet known to have exited, and once
 * the file's tests are over a late start is refused instead of leaving a child behind.
 */
export function childServer(options: () => StartServerOptions) {
  /** Every child started and not yet seen to exit: undefined for a start that failed. */
  const children = new Set<Promise<RunningServer | undefined>>()
  let over = false

  async function endAll(how: 'stop' | 'kill'): Promise<void> {
    await Promise.all(
      [...children].map(async (child) => {
        await (await child)?.[how]()
        children.delete(child)
      }),
    )
  }

  const start = (): Promise<RunningServer> => {
    const starting = endAll('stop').then(() => {
      if (over) throw new Error("The file's tests are over: no more server is started")
      return startServer(options())
    })
    // A start that fails stops its own child (startServer does): nothing is left to stop.
    children.add(starting.catch(() => undefined))
    return starting
  }

  // A graceful stop waits up to 5 s before SIGKILL, and a start under way up to 30 s.
  afterEach(() => endAll('stop'), 40_000)
  afterAll(() => {
    over = true
    return endAll('stop')
  }, 40_000)

  return {
    start,
    /** A graceful stop (SIGTERM), as `kill <pid>` or a service manager does it. */
    stop: () => endAll('stop'),
    /** kill -9: the process ends at once, whatever it was doing. */
    kill: () => endAll('kill'),
  }
}
