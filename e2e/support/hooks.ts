import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { type BrowserSession, launchBrowser } from './browser.ts'
import { type RunningServer, type StartServerOptions, startServer } from './server.ts'

/**
 * One real server for the file (or describe block): started in beforeAll, stopped in afterAll,
 * which Vitest runs when tests fail too. Call the returned function inside tests. Options given as
 * a function are computed in beforeAll (e.g. a data folder made only when the tests run).
 */
export function useServer(
  options?: StartServerOptions | (() => StartServerOptions),
): () => RunningServer {
  let server: RunningServer | undefined
  // The start itself, so that afterAll stops a server whose start outlived beforeAll's timeout.
  let starting: Promise<RunningServer | undefined> | undefined
  beforeAll(async () => {
    const start = startServer(typeof options === 'function' ? options() : options)
    starting = start.catch(() => undefined)
    server = await start
  })
  afterAll(async () => {
    await (await starting)?.stop()
  })
  return () => {
    if (!server) throw new Error('The server is not running (did beforeAll fail?)')
    return server
  }
}

/** A fresh Chromium (empty profile: no cookies) for every test, closed after it, pass or fail. */
export function useBrowser(options?: Parameters<typeof launchBrowser>[0]): () => BrowserSession {
  let session: BrowserSession | undefined
  // The launch itself, so that afterEach closes a browser whose launch outlived beforeEach's timeout.
  let launching: Promise<BrowserSession | undefined> | undefined
  beforeEach(async () => {
    const launch = launchBrowser(options)
    launching = launch.catch(() => undefined)
    session = await launch
  })
  afterEach(async () => {
    const closing = launching
    launching = undefined
    session = undefined
    await (await closing)?.close()
  })
  return () => {
    if (!session) throw new Error('No browser (did beforeEach fail?)')
    return session
  }
}
