/**
 * JavaScript a visitor downloads, from a fresh production build, measured the way a browser sees
 * it: Chromium loads each screen from the real server and we sum the gzip size of every
 * JavaScript response (entry, preloaded and lazily loaded chunks alike).
 *   /login                    target <= 100 kB gzip
 *   file-selection screen (/) target <= 155 kB gzip, everything it loads
 * kB = 1000 bytes, gzip at zlib's default level (what Vite's build report uses).
 */
import { gzipSync } from 'node:zlib'
import type { Page, Request, Response } from 'playwright-core'
import { launchBrowser } from '../e2e/support/browser.ts'
import { buildApp } from '../e2e/support/build.ts'
import { startServer } from '../e2e/support/server.ts'
import { signIn } from '../e2e/support/sign-in.ts'
import { versusTarget } from './support/stats.ts'

interface Chunk {
  url: string
  bytes: number
  gzip: number
}

/** Script requests in flight on `page`, and when the last one started or ended. */
function trackScripts(page: Page) {
  const inFlight = new Set<Request>()
  let lastChange = Date.now()
  const isScript = (request: Request) => request.resourceType() === 'script'
  const start = (request: Request) => {
    if (!isScript(request)) return
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
 * Records every JavaScript response of `page` while `load` runs, with the cache off. (Not
 * 'networkidle': a fetch whose body the app never reads stays open in Chromium's eyes.)
 */
async function javascriptLoadedBy(page: Page, load: () => Promise<void>): Promise<Chunk[]> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
  const pending: Promise<Chunk | undefined>[] = []
  const onResponse = (response: Response) => {
    const type = response.headers()['content-type'] ?? ''
    const isScript = response.request().resourceType() === 'script' || type.includes('javascript')
    if (!isScript || !response.ok()) return
    pending.push(
      response.body().then(
        (body) => ({ url: response.url(), bytes: body.length, gzip: gzipSync(body).length }),
        () => undefined,
      ),
    )
  }
  page.on('response', onResponse)
  const scripts = trackScripts(page)
  await load()
  await scripts.quiet()
  page.off('response', onResponse)
  const chunks = (await Promise.all(pending)).filter((chunk) => chunk !== undefined)
  const unique = new Map(chunks.map((chunk) => [chunk.url, chunk]))
  return [...unique.values()].sort((a, b) => b.gzip - a.gzip)
}

function report(title: string, chunks: Chunk[], targetKb: number): number {
  const kb = (bytes: number) => (bytes / 1000).toFixed(1)
  const totalGzip = chunks.reduce((sum, chunk) => sum + chunk.gzip, 0)
  const totalBytes = chunks.reduce((sum, chunk) => sum + chunk.bytes, 0)
  console.log(`${title}: ${chunks.length} JS files, ${kb(totalBytes)} kB raw`)
  for (const chunk of chunks) {
    console.log(`  ${kb(chunk.gzip).padStart(7)} kB gzip  ${new URL(chunk.url).pathname}`)
  }
  console.log(`  => ${kb(totalGzip)} kB gzip, ${versusTarget(totalGzip / 1000, targetKb, ' kB')}`)
  return totalGzip / 1000
}

const buildStarted = Date.now()
await buildApp()
console.log(`fresh production build: ${((Date.now() - buildStarted) / 1000).toFixed(1)} s`)

const server = await startServer()
const browser = await launchBrowser()
try {
  const { page } = browser
  const login = await javascriptLoadedBy(page, async () => {
    await page.goto(`${server.url}/login`)
    await page.getByRole('button', { name: 'Login with Autodesk' }).waitFor()
  })

  await signIn(page, server.url)
  const filePage = await browser.context.newPage()
  const files = await javascriptLoadedBy(filePage, async () => {
    await filePage.goto(`${server.url}/`)
    await filePage.getByRole('tree', { name: 'ACC files' }).getByRole('treeitem').first().waitFor()
  })

  const loginKb = report('/login', login, 100)
  const filesKb = report('file-selection screen (/)', files, 155)
  console.log(
    `\nbundle-size: /login ${loginKb.toFixed(1)} kB gzip (target 100), file screen ${filesKb.toFixed(1)} kB gzip (target 155)`,
  )
  if (login.length === 0 || files.length === 0)
    throw new Error('No JavaScript was recorded: is dist/ built?')
} finally {
  await browser.close()
  await server.stop()
}
