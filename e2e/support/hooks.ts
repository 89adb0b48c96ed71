import type { Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { type BrowserSession, launchChromium, newSession, type SessionOptions } from './browser.ts'
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

/**
 * One Chromium for the file (or describe block), started in beforeAll and closed in afterAll, and a
 * fresh context of it for every test (no cookies, no storage: as an empty profile), closed after
 * the test, pass or fail. A Chromium that died is started again for the next test.
 */
export function useBrowser(options?: SessionOptions): () => BrowserSession {
  // The launch itself, so that afterAll closes a Chromium whose launch outlived its hook's timeout.
  let launching: Promise<Browser | undefined> | undefined
  const launch = () => {
    const started = launchChromium()
    launching = started.catch(() => undefined)
    return started
  }
  let session: BrowserSession | undefined
  // The same for each test's context.
  let opening: Promise<BrowserSession | undefined> | undefined
  beforeAll(async () => {
    await launch()
  })
  beforeEach(async () => {
    let chromium = await launching
    if (!chromium?.isConnected()) chromium = await launch()
    const open = newSession(chromium, options)
    opening = open.catch(() => undefined)
    session = await open
  })
  afterEach(async () => {
    const closing = opening
    opening = undefined
    session = undefined
    await (await closing)?.close()
  })
  afterAll(async () => {
    await (await launching)?.close()
  })
  return () => {
    if (!session) throw new Error('No browser (did beforeEach fail?)')
    return session
  }
}
