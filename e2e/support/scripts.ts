import type { Page, Request, Response } from 'playwright-core'

export interface LoadedScript {
  url: string
  body: Buffer
}

/** Script requests in flight on `page`, and when the last one started or ended. */
function trackScripts(page: Page) {
  const inFlight = new Set<Request>()
  let lastChange = Date.now()
  const start = (request: Request) => {
    if (request.resourceType() !== 'script') return
    inFlight.add(request)
    lastChange = Date.now()
  }
  const end = (request: Request) => {
    if (inFlight.delete(request)) lastChange = Date.now()
  }
  page.on('request', start)
  page.on('requestfinished', end)
  page.on('requestfailed', end)
  return {
    /** Resolves once no script is loading and none started or ended for `quietMs`. */
    async quiet(quietMs = 750) {
      while (inFlight.size > 0 || Date.now() - lastChange < quietMs) {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      page.off('request', start)
      page.off('requestfinished', end)
      page.off('requestfailed', end)
    },
  }
}

/**
 * Every JavaScript file `page` downloads while `load` runs and until script loading has been
 * quiet for a moment (entry, preloaded and lazy chunks alike), with the browser cache off.
 * Not 'networkidle': a fetch whose body the app never reads stays open in Chromium's eyes.
 */
export async function javascriptLoadedBy(
  page: Page,
  load: () => Promise<void>,
): Promise<LoadedScript[]> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
  const pending: Promise<LoadedScript | undefined>[] = []
  const onResponse = (response: Response) => {
    const type = response.headers()['content-type'] ?? ''
    const isScript = response.request().resourceType() === 'script' || type.includes('javascript')
    if (!isScript || !response.ok()) return
    pending.push(
      response.body().then(
        (body) => ({ url: response.url(), body }),
        () => undefined,
      ),
    )
  }
  page.on('response', onResponse)
  const scripts = trackScripts(page)
  try {
    await load()
    await scripts.quiet()
  } finally {
    page.off('response', onResponse)
    await cdp.detach().catch(() => {})
  }
  const loaded = (await Promise.all(pending)).filter((script) => script !== undefined)
  return [...new Map(loaded.map((script) => [script.url, script])).values()]
}
