/**
 * What the result page (/jobs/<id>) downloads to show a drawing beside its bill, from a fresh
 * production build and the real server, as Chromium loads it: every response from the page's
 * opening until the drawing is drawn, each gzipped (zlib's default level, kB = 1000 bytes), split
 * into the result page's own code and the drawing view's (its chunk, the renderer's chunk and
 * stylesheet, the DWG reader worker, LibreDWG's WebAssembly). The drawing is example_2018.dwg.
 *   the drawing view's JavaScript and CSS (the worker included)   target <= 1,000 kB gzip
 *   LibreDWG's WebAssembly                                         target <= 2,300 kB gzip
 * /login and the file-selection screen load none of it (bench/bundle-size.bench.ts).
 */
import { gzipSync } from 'node:zlib'
import type { Response } from 'playwright-core'
import { apiSignIn, type FoundItem, findItems, titleOf } from '../e2e/support/api.ts'
import { launchBrowser } from '../e2e/support/browser.ts'
import { buildApp } from '../e2e/support/build.ts'
import { extractThroughApi } from '../e2e/support/extract-api.ts'
import { startServer } from '../e2e/support/server.ts'
import { signIn } from '../e2e/support/sign-in.ts'
import { versusTarget } from './support/stats.ts'

const TARGET_CODE_KB = 1000
const TARGET_WASM_KB = 2300
/** The files only the drawing view loads, by the names Vite gives them. */
const DRAWING_FILES =
  /\/assets\/(drawing-view|cad-viewer|dwg-parser\.worker|libredwg-web)-[\w-]+\.\w+$/

interface Loaded {
  path: string
  kind: string
  bytes: number
  gzip: number
}

const kb = (bytes: number) => (bytes / 1000).toFixed(1)

async function sizeOf(response: Response): Promise<Loaded | undefined> {
  const url = new URL(response.url())
  if (!url.pathname.startsWith('/assets/')) return undefined
  const body = await response.body().catch(() => undefined)
  if (!body) return undefined
  const kind = url.pathname.split('.').pop() ?? ''
  return { path: url.pathname, kind, bytes: body.byteLength, gzip: gzipSync(body).byteLength }
}

function report(title: string, files: Loaded[]): number {
  const gzip = files.reduce((sum, file) => sum + file.gzip, 0)
  const raw = files.reduce((sum, file) => sum + file.bytes, 0)
  console.log(`${title}: ${files.length} files, ${kb(raw)} kB raw, ${kb(gzip)} kB gzip`)
  for (const file of files) {
    console.log(
      `  ${kb(file.gzip).padStart(8)} kB gzip  ${kb(file.bytes).padStart(8)} kB raw  ${file.path}`,
    )
  }
  return gzip
}

const buildStarted = Date.now()
await buildApp()
console.log(`fresh production build: ${((Date.now() - buildStarted) / 1000).toFixed(1)} s`)

const server = await startServer()
const browser = await launchBrowser({ viewport: { width: 1400, height: 1000 } })
try {
  const api = await apiSignIn(server.url)
  const [drawing] = await findItems(api, (item) => titleOf(item) === 'example_2018.dwg')
  if (!drawing) throw new Error('example_2018.dwg is not in the seeded cloud')
  const job = await extractThroughApi(api, drawing as FoundItem)

  const { page } = browser
  await signIn(page, server.url)
  // What the file screen already loaded is cached by the browser: count every response anyway.
  const pending: Promise<Loaded | undefined>[] = []
  page.on('response', (response) => pending.push(sizeOf(response)))
  const opened = Date.now()
  await page.goto(`${server.url}/jobs/${job.id}`)
  const place = page.getByRole('complementary', { name: 'Drawing' })
  await place.getByRole('button', { name: 'Fit to view' }).and(page.locator(':enabled')).waitFor()
  const readyMs = Date.now() - opened
  const loaded = (await Promise.all(pending)).filter((file): file is Loaded => file !== undefined)

  const own = loaded.filter((file) => DRAWING_FILES.test(file.path))
  const shared = loaded.filter((file) => !DRAWING_FILES.test(file.path))
  report('the result page and what it shares (entry, signed-in chunk, its own chunk)', shared)
  const ownGzip = report("the drawing view's own files", own)
  const code = own.filter((file) => file.kind !== 'wasm')
  const wasm = own.filter((file) => file.kind === 'wasm')
  const codeKb = code.reduce((sum, file) => sum + file.gzip, 0) / 1000
  const wasmKb = wasm.reduce((sum, file) => sum + file.gzip, 0) / 1000
  console.log(
    `  JavaScript and CSS: ${codeKb.toFixed(1)} kB gzip, ${versusTarget(codeKb, TARGET_CODE_KB, ' kB')}`,
  )
  console.log(
    `  WebAssembly: ${wasmKb.toFixed(1)} kB gzip, ${versusTarget(wasmKb, TARGET_WASM_KB, ' kB')}`,
  )
  console.log(
    `  drawn ${(readyMs / 1000).toFixed(1)} s after the page was opened (one run, loopback)`,
  )
  console.log(
    `\ndrawing-size: the drawing view ${kb(ownGzip)} kB gzip in all (code ${codeKb.toFixed(1)} kB, target ${TARGET_CODE_KB}; WebAssembly ${wasmKb.toFixed(1)} kB, target ${TARGET_WASM_KB})`,
  )
} finally {
  await browser.close()
  await server.stop()
}
