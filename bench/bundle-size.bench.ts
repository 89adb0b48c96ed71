/**
 * JavaScript a visitor downloads, from a fresh production build, measured the way a browser sees
 * it: Chromium loads each screen from the real server and we sum the gzip size of every
 * JavaScript response (entry, preloaded and lazily loaded chunks alike).
 *   /login, reached by opening / signed out        target <= 120 kB gzip
 *   file-selection screen with its user menu open  target <= 200 kB gzip
 * Each figure is printed beside its target, with its ratio to it.
 * kB = 1000 bytes, gzip at zlib's default level (what Vite's build report uses). The budgets live
 * in e2e/support/bundle-budget.ts, which e2e/bundle.test.ts enforces.
 */
import { launchBrowser } from '../e2e/support/browser.ts'
import { buildApp } from '../e2e/support/build.ts'
import {
  budgetKb,
  fileScreenScripts,
  gzipKbOf,
  loginScreenScripts,
  type ScriptSize,
  sizesOf,
} from '../e2e/support/bundle-budget.ts'
import { startServer } from '../e2e/support/server.ts'
import { versusTarget } from './support/stats.ts'

const kb = (value: number) => value.toFixed(1)

function report(title: string, sizes: ScriptSize[], targetKb?: number): number {
  const totalKb = gzipKbOf(sizes)
  const rawKb = sizes.reduce((sum, size) => sum + size.bytes, 0) / 1000
  console.log(`${title}: ${sizes.length} JS files, ${kb(rawKb)} kB raw`)
  for (const size of sizes) {
    console.log(`  ${kb(size.gzip / 1000).padStart(7)} kB gzip  ${new URL(size.url).pathname}`)
  }
  const verdict = targetKb === undefined ? '' : `, ${versusTarget(totalKb, targetKb, ' kB')}`
  console.log(`  => ${kb(totalKb)} kB gzip${verdict}`)
  return totalKb
}

const buildStarted = Date.now()
await buildApp()
console.log(`fresh production build: ${((Date.now() - buildStarted) / 1000).toFixed(1)} s`)

const server = await startServer()
const browser = await launchBrowser()
try {
  const login = sizesOf(await loginScreenScripts(browser.page, server.url))
  const files = await fileScreenScripts(browser.context, browser.page, server.url)
  const asItOpens = sizesOf(files.asItOpens)
  const userMenu = sizesOf(files.userMenu)
  if (login.length === 0 || asItOpens.length === 0 || userMenu.length === 0)
    throw new Error('No JavaScript was recorded for a step: is dist/ built?')

  const loginKb = report('/login (opening / signed out)', login, budgetKb.login)
  const openKb = report('file-selection screen (/), as it opens', asItOpens)
  report('then, on opening the user menu', userMenu)
  const fileKb = gzipKbOf([...asItOpens, ...userMenu])
  console.log(
    `file-selection screen with its user menu opened: ${kb(fileKb)} kB gzip, ${versusTarget(fileKb, budgetKb.fileScreen, ' kB')}`,
  )
  const loginVerdict = versusTarget(loginKb, budgetKb.login, ' kB')
  const fileVerdict = versusTarget(fileKb, budgetKb.fileScreen, ' kB')
  console.log(
    `\nbundle-size: /login ${kb(loginKb)} kB gzip, ${loginVerdict}; file screen with the user menu opened ${kb(fileKb)} kB gzip, ${fileVerdict} (${kb(openKb)} kB as it opens)`,
  )
} finally {
  await browser.close()
  await server.stop()
}
