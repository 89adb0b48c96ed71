/**
 * JavaScript a visitor downloads, from a fresh production build, measured the way a browser sees
 * it: Chromium loads each screen from the real server and we sum the gzip size of every
 * JavaScript response (entry, preloaded and lazily loaded chunks alike).
 *   /login                    target <= 100 kB gzip
 *   file-selection screen (/) target <= 155 kB gzip, everything it loads
 * kB = 1000 bytes, gzip at zlib's default level (what Vite's build report uses).
 */
import { gzipSync } from 'node:zlib'
import type { Page } from 'playwright-core'
import { launchBrowser } from '../e2e/support/browser.ts'
import { buildApp } from '../e2e/support/build.ts'
import { javascriptLoadedBy } from '../e2e/support/scripts.ts'
import { startServer } from '../e2e/support/server.ts'
import { signIn } from '../e2e/support/sign-in.ts'
import { versusTarget } from './support/stats.ts'

interface Chunk {
  url: string
  bytes: number
  gzip: number
}

async function chunksLoadedBy(page: Page, load: () => Promise<void>): Promise<Chunk[]> {
  const scripts = await javascriptLoadedBy(page, load)
  return scripts
    .map(({ url, body }) => ({ url, bytes: body.length, gzip: gzipSync(body).length }))
    .sort((x, y) => y.gzip - x.gzip)
}

function report(title: string, chunks: Chunk[], targetKb?: number): number {
  const kb = (bytes: number) => (bytes / 1000).toFixed(1)
  const totalGzip = chunks.reduce((sum, chunk) => sum + chunk.gzip, 0)
  const totalBytes = chunks.reduce((sum, chunk) => sum + chunk.bytes, 0)
  console.log(`${title}: ${chunks.length} JS files, ${kb(totalBytes)} kB raw`)
  for (const chunk of chunks) {
    console.log(`  ${kb(chunk.gzip).padStart(7)} kB gzip  ${new URL(chunk.url).pathname}`)
  }
  const verdict =
    targetKb === undefined ? '' : `, ${versusTarget(totalGzip / 1000, targetKb, ' kB')}`
  console.log(`  => ${kb(totalGzip)} kB gzip${verdict}`)
  return totalGzip / 1000
}

const buildStarted = Date.now()
await buildApp()
console.log(`fresh production build: ${((Date.now() - buildStarted) / 1000).toFixed(1)} s`)

const server = await startServer()
const browser = await launchBrowser()
try {
  const { page } = browser
  const login = await chunksLoadedBy(page, async () => {
    await page.goto(`${server.url}/login`)
    await page.getByRole('button', { name: 'Login with Autodesk' }).waitFor()
  })

  await signIn(page, server.url)
  const filePage = await browser.context.newPage()
  const files = await chunksLoadedBy(filePage, async () => {
    await filePage.goto(`${server.url}/`)
    await filePage.getByRole('tree', { name: 'ACC files' }).getByRole('treeitem').first().waitFor()
  })

  // What the screen loads later, on demand: the user menu's popover.
  const later = await chunksLoadedBy(filePage, async () => {
    await filePage.getByRole('button', { name: 'User menu' }).click()
    await filePage.getByRole('button', { name: 'Logout' }).waitFor()
  })

  const loginKb = report('/login', login, 100)
  const filesKb = report('file-selection screen (/), as it opens', files, 155)
  const laterKb = report('then, on opening the user menu', later)
  const allKb = filesKb + laterKb
  console.log(
    `file-selection screen with its user menu opened: ${allKb.toFixed(1)} kB gzip, ${versusTarget(allKb, 155, ' kB')}`,
  )
  console.log(
    `\nbundle-size: /login ${loginKb.toFixed(1)} kB gzip (target 100), file screen ${filesKb.toFixed(1)} kB gzip as it opens, ${allKb.toFixed(1)} kB with the user menu (target 155)`,
  )
  if (login.length === 0 || files.length === 0)
    throw new Error('No JavaScript was recorded: is dist/ built?')
} finally {
  await browser.close()
  await server.stop()
}
