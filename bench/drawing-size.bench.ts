/**
 * What the result page (/jobs/<id>) downloads to show a drawing beside its bill, from a fresh
 * production build and the real server, as Chromium loads it: every response from the page's
 * opening until the drawing is drawn, each gzipped (zlib's default level, kB = 1000 bytes), split
 * into the result page's own code and the drawing view's. The drawing is example_2018.dwg, drawn
 * from the geometry kept with its bill (the view's chunk and the geometry renderer's); then as a
 * job recorded without geometry (jobs recorded before it was kept), opened twice: its first
 * GET /geometry has the server build the geometry from the drawing and keep it, the second (in a
 * fresh page with the browser's cache off) answers what was kept. Each open prints the view's
 * files and the geometry answer (data, not code: its bytes over the wire, unpacked, and its time).
 *   the drawing view's JavaScript and CSS                          target <= 1,000 kB gzip
 *   WebAssembly the drawing view loads                             target: none
 * /login and the file-selection screen load none of it (bench/bundle-size.bench.ts).
 */
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import type { Page, Response } from 'playwright-core'
import { apiSignIn, type FoundItem, findItems, titleOf } from '../e2e/support/api.ts'
import { launchBrowser } from '../e2e/support/browser.ts'
import { buildApp } from '../e2e/support/build.ts'
import { extractThroughApi } from '../e2e/support/extract-api.ts'
import { startServer } from '../e2e/support/server.ts'
import { signIn } from '../e2e/support/sign-in.ts'
import { versusTarget } from './support/stats.ts'

const TARGET_CODE_KB = 1000
/**
 * The result page's own files and what it shares with the other screens, by the names Vite gives
 * them; everything else the page loads is the drawing view's (its chunks, shared pieces named by
 * whichever module Rolldown met first, three.js among them).
 */
const PAGE_FILES = /\/assets\/(index|signed-in|jobs\._jobId)-[\w-]+\.\w+$/

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

/** The geometry answer as it came: its bytes over the wire, unpacked, and the request's time. */
interface GeometryAnswer {
  wire: number
  body: number
  ms: number
}

async function geometryOf(response: Response): Promise<GeometryAnswer> {
  await response.finished()
  const sizes = await response.request().sizes()
  const body = (await response.body()).byteLength
  return { wire: sizes.responseBodySize, body, ms: response.request().timing().responseEnd }
}

/**
 * Opens the job's result page in `page` until its drawing is drawn; prints what it loaded. With
 * `noCache`, the browser's cache is off for the page: its files and the geometry come from the
 * server again.
 */
async function measure(page: Page, url: string, jobId: string, title: string, noCache = false) {
  if (noCache) {
    // Playwright turns the page's cache off while it routes requests.
    await page.route(`**/jobs/${jobId}/geometry`, (route) => route.continue())
  }
  // What the file screen already loaded is cached by the browser: count every response anyway.
  const pending: Promise<Loaded | undefined>[] = []
  const geometry: Promise<GeometryAnswer>[] = []
  const onResponse = (response: Response) => {
    if (new URL(response.url()).pathname.endsWith(`/jobs/${jobId}/geometry`)) {
      geometry.push(geometryOf(response))
    } else pending.push(sizeOf(response))
  }
  page.on('response', onResponse)
  const opened = Date.now()
  await page.goto(`${url}/jobs/${jobId}`)
  const place = page.getByRole('complementary', { name: 'Drawing' })
  await place
    .getByRole('button', { name: 'Fit to view' })
    .and(page.locator(':enabled'))
    .waitFor({ timeout: 120_000 })
  const readyMs = Date.now() - opened
  page.off('response', onResponse)
  const loaded = (await Promise.all(pending)).filter((file): file is Loaded => file !== undefined)
  const [answer] = await Promise.all(geometry)

  console.log(`\n${title}`)
  const own = loaded.filter((file) => !PAGE_FILES.test(file.path))
  const shared = loaded.filter((file) => PAGE_FILES.test(file.path))
  report('the result page and what it shares (entry, signed-in chunk, its own chunk)', shared)
  const ownGzip = report("the drawing view's own files", own)
  const code = own.filter((file) => file.kind !== 'wasm')
  const wasm = own.filter((file) => file.kind === 'wasm')
  const codeKb = code.reduce((sum, file) => sum + file.gzip, 0) / 1000
  const wasmKb = wasm.reduce((sum, file) => sum + file.gzip, 0) / 1000
  console.log(
    `  JavaScript and CSS: ${codeKb.toFixed(1)} kB gzip, ${versusTarget(codeKb, TARGET_CODE_KB, ' kB')}`,
  )
  // The view draws geometry with WebGL: WebAssembly coming back would be a second renderer.
  console.log(
    wasm.length === 0
      ? '  WebAssembly: none (target: none, ok)'
      : `  WebAssembly: ${wasmKb.toFixed(1)} kB gzip (target: none, OVER TARGET)`,
  )
  console.log(
    answer
      ? `  geometry answer: ${kb(answer.wire)} kB over the wire, ${kb(answer.body)} kB unpacked, answered in ${(answer.ms / 1000).toFixed(2)} s`
      : '  geometry answer: none seen (the browser had it)',
  )
  console.log(
    `  drawn ${(readyMs / 1000).toFixed(1)} s after the page was opened (one run, loopback)`,
  )
  return { ownGzip, codeKb, wasmKb, answer }
}

const seconds = (answer: GeometryAnswer | undefined) =>
  answer ? `${(answer.ms / 1000).toFixed(2)} s` : 'not seen'

const server = await startServer()
const browser = await launchBrowser({ viewport: { width: 1400, height: 1000 } })
try {
  const api = await apiSignIn(server.url)
  const [drawing] = await findItems(api, (item) => titleOf(item) === 'example_2018.dwg')
  if (!drawing) throw new Error('example_2018.dwg is not in the seeded cloud')
  const job = await extractThroughApi(api, drawing as FoundItem)
  const old = await extractThroughApi(api, drawing as FoundItem)
  // As a job recorded before geometry was kept with the bill.
  await rm(join(server.dataDir, 'jobs', old.id, 'result.geometry'))

  const { page } = browser
  await signIn(page, server.url)
  const kept = await measure(
    page,
    server.url,
    job.id,
    'Drawn from the geometry kept with its bill:',
  )
  // Fresh pages: the browser keeps the renderer's files, which the counts must see too.
  const built = await measure(
    await browser.context.newPage(),
    server.url,
    old.id,
    'A job recorded without geometry, first opened (the server builds it, then keeps it):',
  )
  const again = await measure(
    await browser.context.newPage(),
    server.url,
    old.id,
    'The same job opened again, the browser cache off (the server answers what it kept):',
    true,
  )
  console.log(
    `\ndrawing-size: the drawing view ${kb(kept.ownGzip)} kB gzip (code ${kept.codeKb.toFixed(1)} kB, target ${TARGET_CODE_KB}; WebAssembly ${kept.wasmKb.toFixed(1)} kB, target none); geometry ${kb(kept.answer?.wire ?? 0)} kB over the wire; a job recorded without geometry: the view ${kb(built.ownGzip)} kB gzip (code ${built.codeKb.toFixed(1)} kB), its geometry built in ${seconds(built.answer)}, then answered kept in ${seconds(again.answer)}`,
  )
} finally {
  await browser.close()
  await server.stop()
}
