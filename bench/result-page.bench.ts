/**
 * The result page (/jobs/<id>) in headless Chromium against the real server and a fresh
 * production build, for the largest sample DWG and for synthetic drawings of 200,000 and
 * 1,000,000 entities: the geometry answer's size (raw and gzip), the time from opening the page to
 * the first full drawing, where that time went, the frame time while the drawing is panned, and
 * for the synthetic drawings the page's memory. Then the largest sample DWG again as a job
 * recorded without geometry (as jobs recorded before it was kept are): its page opened once, its
 * GET /geometry having the server build the geometry from the drawing and keep it, and once more
 * in a fresh page with the browser's cache off, answered from what was kept.
 *
 * "Full drawing": the view has opened the drawing (its Fit to view button is enabled: the view
 * has its viewer only once the geometry is read and drawn) and the browser has painted two frames
 * since, timed in the page from the start of its navigation. Frames are timed in the page with
 * requestAnimationFrame while the mouse drags the drawing back and forth (median and 95th
 * percentile of the gaps between frames).
 *   first drawing of 2018_Dynblocks.dwg          target <= 1.0 s
 *   first drawing of 200,000 entities            target <= 1.5 s
 *   first drawing of 1,000,000 entities          target <= 3 s
 *   95th-percentile frame while panning          target <= 33 ms
 *   the page's memory with 1,000,000 entities    target <= 1.5 GB
 * Never fails on time: figures over a target say OVER TARGET.
 *
 * The page's memory: the peak resident memory (VmHWM in /proc) of the renderer process the page
 * was opened in (a fresh tab, so a process of its own), read once its bill and its drawing are
 * shown; beside it the JavaScript heap and the array buffers as DevTools counts them
 * (Runtime.getHeapUsage). The drawing's GPU buffers are the GPU process's, not counted.
 *
 * Only DXF can be written here (server/testing/boq/dxf-writer.ts; LibreDWG has no DWG writer in its
 * WebAssembly build), so the synthetic drawings are DXF (bench/support/synthetic-drawing.ts), written
 * into the demo cloud by the bench: the server tells DXF from the bytes for the bill and the
 * geometry it builds with it. The server reads a drawing for at most 120 s: on a busy machine the
 * million entities may take longer, and the bench then says so and goes on without them.
 *
 * Also printed: what the page's files weigh over the wire (the server sends them compressed when
 * the browser asks), and where the first drawing's time goes: when the page asked for the job, the
 * geometry and the bill and had their answers (the browser's resource timing), the view's
 * performance marks (src/features/drawing/viewer/timing.ts) with what the renderer says of its
 * open, and the geometry request's own time as the browser timed it.
 */
import { statSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { BrowserContext, Page, Response } from 'playwright-core'
import type { Job } from '#contract/jobs.ts'
import {
  type ApiClient,
  apiSignIn,
  type FoundItem,
  findItems,
  titleOf,
  versionsOf,
} from '../e2e/support/api.ts'
import { launchBrowser } from '../e2e/support/browser.ts'
import { buildApp } from '../e2e/support/build.ts'
import { type RunningServer, startServer } from '../e2e/support/server.ts'
import { signIn } from '../e2e/support/sign-in.ts'
import { DEMO_FOLDERS } from '../server/seed/seed.ts'
import { fixtureNames, fixturePath } from '../server/testing/boq/fixtures.ts'
import { postExtract, waitForJob } from '../server/testing/jobs/jobs-api.ts'
import { newRenderer, rendererMemory } from './support/renderer-memory.ts'
import { median, versusTarget } from './support/stats.ts'
import { type WrittenDrawing, writeSyntheticDxf } from './support/synthetic-drawing.ts'

const TARGET_SAMPLE_DRAWING_S = 1.0
const TARGET_FRAME_P95_MS = 33
/** The synthetic drawings: how many entities, and their first drawing's target. */
const SYNTHETIC = [
  { entities: 200_000, name: 'synthetic-200k.dwg', targetS: 1.5 },
  { entities: 1_000_000, name: 'synthetic-1m.dwg', targetS: 3 },
] as const
const TARGET_PAGE_MEMORY_GB = 1.5
/** How long an extraction may take: a million entities take the server about a minute to read. */
const EXTRACT_TIMEOUT_MS = 15 * 60_000
const DRAGS = 8
const STEPS_PER_DRAG = 30
const PAN_BUDGET_MS = 30_000

const kb = (bytes: number) => (bytes / 1000).toFixed(1)
const mb = (bytes: number) => (bytes / 1e6).toFixed(0)
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

/**
 * What came over the wire for a response: its body as sent (encoded) and as read (decoded), and
 * the request's time from its start to its last byte.
 */
interface Transfer {
  wire: number
  body: number
  ms: number
}

async function transferOf(response: Response): Promise<Transfer | undefined> {
  try {
    await response.finished()
    const sizes = await response.request().sizes()
    const body = (await response.body()).byteLength
    return { wire: sizes.responseBodySize, body, ms: response.request().timing().responseEnd }
  } catch (error) {
    console.log(
      `  (${response.url()}: its size could not be read: ${String(error).split('\n')[0]})`,
    )
    return undefined
  }
}

const total = (transfers: Transfer[]) =>
  transfers.reduce(
    (sum, t) => ({ wire: sum.wire + t.wire, body: sum.body + t.body, ms: Math.max(sum.ms, t.ms) }),
    { wire: 0, body: 0, ms: 0 },
  )

/** The drawing view's performance marks (ms since the page opened), by step. */
async function drawingMarks(page: Page) {
  return page.evaluate(() =>
    Object.fromEntries(
      performance
        .getEntriesByType('mark')
        .filter((mark) => mark.name.startsWith('boq:drawing:'))
        .map((mark) => [
          mark.name.slice('boq:drawing:'.length),
          { at: mark.startTime, detail: (mark as PerformanceMark).detail as unknown },
        ]),
    ),
  )
}

/**
 * Notes in the page when its bill is shown and when its drawing is (Fit to view enabled beside a
 * canvas, then two frames painted), in ms since the page's navigation began. Timed in the page:
 * Playwright's waiting polls at growing intervals (up to 500 ms apart), which would be timed too.
 */
function timeInPage(): void {
  const times = {} as { billAt?: number; drawingAt?: number }
  Object.assign(window, { boqTimes: times })
  const observer = new MutationObserver(() => {
    // Whichever comes first, the page is watched until both have.
    const done = () => {
      if (times.billAt !== undefined && Number.isFinite(times.drawingAt)) observer.disconnect()
    }
    const bill = [...document.querySelectorAll('table')].some(
      (table) => table.caption?.textContent === 'Bill',
    )
    if (bill && times.billAt === undefined) {
      times.billAt = performance.now()
      done()
    }
    const place = document.querySelector('aside[aria-label="Drawing"]')
    const fit = [...(place?.querySelectorAll('button') ?? [])].find(
      (button) => button.textContent === 'Fit to view',
    )
    const canvas = place?.querySelector('[data-testid="drawing-canvas"] canvas')
    if (times.drawingAt !== undefined || !fit || fit.disabled || !canvas) return
    times.drawingAt = Number.POSITIVE_INFINITY
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        times.drawingAt = performance.now()
        done()
      }),
    )
  })
  observer.observe(document, { subtree: true, childList: true, attributes: true })
}

/** Opens the job's result page and waits for its bill and its drawing. */
async function openResult(page: Page, url: string, jobId: string) {
  // The bodies are read once the drawing is timed: read over DevTools as they come (8 MB of
  // geometry, the page's files), they would hold up the page being timed.
  const geometryAnswer: Response[] = []
  const assets: Response[] = []
  const onResponse = (response: Response) => {
    const path = new URL(response.url()).pathname
    if (path.endsWith(`/jobs/${jobId}/geometry`) && response.status() === 200) {
      geometryAnswer.push(response)
    } else if (path.startsWith('/assets/')) assets.push(response)
  }
  page.on('response', onResponse)
  await page.goto(`${url}/jobs/${jobId}`)
  await page.getByRole('table', { name: 'Bill' }).waitFor({ timeout: 120_000 })
  const place = page.getByRole('complementary', { name: 'Drawing' })
  await place
    .getByRole('button', { name: 'Fit to view' })
    .and(page.locator(':enabled'))
    .waitFor({ timeout: 120_000 })
  await page.locator('[data-testid="drawing-canvas"] canvas').first().waitFor()
  await page.waitForFunction(() =>
    Number.isFinite((window as unknown as { boqTimes: { drawingAt?: number } }).boqTimes.drawingAt),
  )
  const times = await page.evaluate(
    () => (window as unknown as { boqTimes: { billAt: number; drawingAt: number } }).boqTimes,
  )
  page.off('response', onResponse)
  // DevTools may have let go of a large body already: the page's own timing has its sizes.
  const requests = await requestTimes(page, jobId)
  const timed = requests.geometry && {
    wire: requests.geometry.wire,
    body: requests.geometry.body,
    ms: requests.geometry.answered - requests.geometry.asked,
  }
  const geometry = (geometryAnswer[0] && (await transferOf(geometryAnswer[0]))) ?? timed
  const files = (await Promise.all(assets.map((response) => transferOf(response)))).filter(
    (t): t is Transfer => t !== undefined,
  )
  const marks = await drawingMarks(page)
  return {
    billMs: times.billAt,
    drawingMs: times.drawingAt,
    geometry,
    assets: { count: files.length, ...total(files) },
    marks,
    requests,
  }
}

/** When the page asked for the job, its geometry and its bill, and had each answer (ms). */
async function requestTimes(page: Page, jobId: string) {
  return page.evaluate((jobId) => {
    const of = (suffix: string) => {
      const entry = performance
        .getEntriesByType('resource')
        .find((e) => new URL(e.name).pathname.endsWith(`/jobs/${jobId}${suffix}`)) as
        | PerformanceResourceTiming
        | undefined
      return (
        entry && {
          asked: entry.startTime,
          answered: entry.responseEnd,
          wire: entry.encodedBodySize,
          body: entry.decodedBodySize,
        }
      )
    }
    return { job: of(''), geometry: of('/geometry'), bill: of('/result.json') }
  }, jobId)
}

type Opened = Awaited<ReturnType<typeof openResult>>

/** Where the first drawing's time went: the view's marks and the renderer's account of its open. */
function describeDrawingTime({ marks, requests }: Opened): string[] {
  const at = (step: string) => marks[step]?.at
  const s = (ms: number | undefined) => (ms === undefined ? '?' : `${(ms / 1000).toFixed(2)} s`)
  const asked = (request: { asked: number; answered: number } | undefined) =>
    request ? `asked at ${s(request.asked)}, answered at ${s(request.answered)}` : 'not seen'
  const span = (from: string, to: string) => {
    const a = at(from)
    const b = at(to)
    return a === undefined || b === undefined ? '?' : `${((b - a) / 1000).toFixed(2)} s`
  }
  const drawn = marks.drawn?.detail as
    | { buildMs: number; renderCallMs: number; segments: number; triangles: number }
    | null
    | undefined
  return [
    `  requests: the job answered at ${s(requests.job?.answered)}; the geometry ${asked(requests.geometry)}; the bill ${asked(requests.bill)}`,
    `  drawing's time: ${marks.file ? 'the view had its geometry' : '?'} at ${s(at('file'))}; renderer code and instance +${span('file', 'viewer')}; read and scene built +${span('viewer', 'read')}; drawn +${span('read', 'drawn')}`,
    drawn
      ? `  drawn from geometry: buffers ${drawn.buildMs.toFixed(0)} ms, ${drawn.segments.toLocaleString('en')} line segments and ${drawn.triangles.toLocaleString('en')} triangles, the draw call ${drawn.renderCallMs.toFixed(0)} ms (the GPU's work follows it)`
      : '  no account of the open',
  ]
}

const describeTransfer = (name: string, t: Transfer | undefined) =>
  t
    ? `  ${name}: ${kb(t.body)} kB, ${kb(t.wire)} kB over the wire (${t.wire < t.body ? 'compressed' : 'not compressed'}), answered in ${(t.ms / 1000).toFixed(2)} s`
    : `  ${name}: not seen`

/** Frame gaps (ms) while `act` runs, timed in the page with requestAnimationFrame. */
async function frameGaps(page: Page, act: () => Promise<void>): Promise<number[]> {
  await page.evaluate(() => {
    const times: number[] = []
    const state = window as unknown as { __frames: number[]; __framing: boolean }
    state.__frames = times
    state.__framing = true
    const tick = (time: number) => {
      times.push(time)
      if (state.__framing) requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })
  await act()
  const times = await page.evaluate(() => {
    const state = window as unknown as { __frames: number[]; __framing: boolean }
    state.__framing = false
    return state.__frames
  })
  return times.slice(1).map((time, index) => time - (times[index] as number))
}

/**
 * Drags the drawing left and right, a few times, for at most PAN_BUDGET_MS (a drawing whose frames
 * take seconds would otherwise keep the bench for many minutes; the frames counted say how far
 * it got).
 */
async function pan(page: Page) {
  const box = await page.getByTestId('drawing-canvas').boundingBox()
  if (!box) throw new Error('The drawing has no box to drag in')
  const y = box.y + box.height / 2
  const left = box.x + box.width * 0.25
  const right = box.x + box.width * 0.75
  const started = Date.now()
  const spent = () => Date.now() - started > PAN_BUDGET_MS
  for (let drag = 0; drag < DRAGS && !spent(); drag++) {
    const [from, to] = drag % 2 === 0 ? [left, right] : [right, left]
    await page.mouse.move(from, y)
    await page.mouse.down()
    for (let step = 1; step <= STEPS_PER_DRAG && !spent(); step++) {
      await page.mouse.move(from + ((to - from) * step) / STEPS_PER_DRAG, y)
    }
    await page.mouse.up()
  }
}

/** Scrolls the bill's box from top to bottom with the wheel. */
async function scrollBill(page: Page) {
  const box = await page.getByRole('table', { name: 'Bill' }).boundingBox()
  if (!box) throw new Error('The bill has no box to scroll in')
  await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 200))
  for (let step = 0; step < 60; step++) {
    await page.mouse.wheel(0, 400)
    await page.waitForTimeout(16)
  }
}

const describeFrames = (gaps: number[]) => {
  const p95 = percentile(gaps, 95)
  return `median ${median(gaps).toFixed(1)} ms, 95th percentile ${p95.toFixed(1)} ms over ${gaps.length} frames, ${versusTarget(p95, TARGET_FRAME_P95_MS, ' ms')}`
}

async function findDrawing(server: RunningServer, name: string) {
  const api = await apiSignIn(server.url)
  const [drawing] = await findItems(api, (item) => titleOf(item) === name)
  if (!drawing) throw new Error(`${name} is not in the cloud`)
  const started = Date.now()
  const job = await extract(api, drawing as FoundItem)
  return { job, extractMs: Date.now() - started }
}

/** Extracts the drawing's newest version through the API, waiting as long as a big one takes. */
async function extract(api: ApiClient, drawing: FoundItem): Promise<Job> {
  const [version] = await versionsOf(api, drawing)
  const storageId = version?.relationships?.storage?.data?.id
  if (!storageId) throw new Error(`No version of ${titleOf(drawing.item)}`)
  const response = await postExtract(api.request, {
    fileName: titleOf(drawing.item),
    fileStorageId: storageId,
    fileFolderId: drawing.folderId,
    projectId: drawing.projectId,
  })
  if (response.status !== 202)
    throw new Error(`Extract: ${response.status} ${await response.text()}`)
  const { id } = (await response.json()) as Job
  const job = await waitForJob(api.request, id, {
    timeoutMs: EXTRACT_TIMEOUT_MS,
    intervalMs: 250,
  })
  if (job.status !== 'succeeded') throw new Error(`The extraction failed: ${job.error}`)
  return job
}

/** The page's memory: its renderer's peak resident memory, its JS heap and array buffers. */
async function pageMemory(page: Page, context: BrowserContext, before: Map<number, unknown>) {
  const renderer = newRenderer(before as Parameters<typeof newRenderer>[0])
  const cdp = await context.newCDPSession(page)
  try {
    await cdp.send('HeapProfiler.collectGarbage')
    const heap = (await cdp.send('Runtime.getHeapUsage')) as {
      usedSize: number
      backingStorageSize?: number
    }
    return { renderer, heap: heap.usedSize, buffers: heap.backingStorageSize }
  } finally {
    await cdp.detach()
  }
}

type Memory = Awaited<ReturnType<typeof pageMemory>>

const describeMemory = ({ renderer, heap, buffers }: Memory, target?: number) =>
  `  the page's memory: ${renderer ? `its renderer at most ${mb(renderer.peakRss)} MB resident (${mb(renderer.rss)} MB now)${target ? `, ${versusTarget(renderer.peakRss / 1e9, target, ' GB')}` : ''}` : 'its renderer not found'}; JS heap ${mb(heap)} MB, array buffers ${buffers === undefined ? '?' : `${mb(buffers)} MB`} (after a garbage collection)`

const dwgs = fixtureNames('.dwg')
const largest = [...dwgs].sort(
  (a, b) => statSync(fixturePath(b)).size - statSync(fixturePath(a)).size,
)[0] as string

const buildStarted = Date.now()
await buildApp()
console.log(`fresh production build: ${((Date.now() - buildStarted) / 1000).toFixed(1)} s`)

/** A synthetic drawing's figures for the closing line; none when it could not be extracted. */
type SyntheticFigures = { billS: number; drawnS: number; panP95: number; peakRss?: number }

/**
 * Writes a synthetic drawing into the demo cloud, extracts it, and opens its result page in a
 * fresh tab (a renderer of its own, whose memory is the page's): its figures, printed.
 */
async function synthetic(
  server: RunningServer,
  context: BrowserContext,
  { entities, name, targetS }: (typeof SYNTHETIC)[number],
  written: WrittenDrawing,
): Promise<SyntheticFigures | undefined> {
  console.log(
    `synthetic ${entities.toLocaleString('en')} entities (DXF, ${kb(written.bytes)} kB raw, ${kb(written.gzipBytes)} kB gzip):`,
  )
  let found: Awaited<ReturnType<typeof findDrawing>>
  try {
    found = await findDrawing(server, name)
  } catch (error) {
    console.log(`  not extracted, so not opened: ${String(error).split('\n')[0]}`)
    return undefined
  }
  console.log(`  extracted by the server in ${(found.extractMs / 1000).toFixed(1)} s`)
  const before = rendererMemory()
  const page = await context.newPage()
  const opened = await openResult(page, server.url, found.job.id)
  const drawnS = opened.drawingMs / 1000
  const lines = (await page.getByRole('tab', { name: /^Bill/ }).textContent()) ?? ''
  console.log(describeTransfer('geometry answer', opened.geometry))
  console.log(
    `  bill shown ${(opened.billMs / 1000).toFixed(2)} s after the page opened (${lines.replace(/\D/g, '')} lines)`,
  )
  console.log(
    `  first full drawing ${drawnS.toFixed(2)} s after the page opened, ${versusTarget(drawnS, targetS, ' s')}`,
  )
  for (const line of describeDrawingTime(opened)) console.log(line)
  const memory = await pageMemory(page, context, before)
  const limit = entities === 1_000_000 ? TARGET_PAGE_MEMORY_GB : undefined
  console.log(describeMemory(memory, limit))
  const panned = await frameGaps(page, () => pan(page))
  console.log(`  panning: ${describeFrames(panned)}`)
  if (entities === 200_000) {
    const drawn = await page.getByRole('table', { name: 'Bill' }).getByRole('row').count()
    console.log(`  rows drawn in the bill's table: ${drawn}`)
    const scrolled = await frameGaps(page, () => scrollBill(page))
    console.log(`  scrolling the bill: ${describeFrames(scrolled)}`)
  }
  await page.close()
  return {
    billS: opened.billMs / 1000,
    drawnS,
    panP95: percentile(panned, 95),
    peakRss: memory.renderer?.peakRss,
  }
}

let server: RunningServer | undefined
let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined
try {
  server = await startServer()
  const folder = join(server.dataDir, 'cloud', ...(DEMO_FOLDERS[0] as string).split('/'))
  const written: WrittenDrawing[] = []
  for (const drawing of SYNTHETIC) {
    written.push(await writeSyntheticDxf(join(folder, drawing.name), drawing.entities))
  }
  browser = await launchBrowser({ viewport: { width: 1400, height: 1000 } })
  const { page } = browser
  // On every page of the context: the job recorded without geometry is opened in fresh pages.
  await browser.context.addInitScript(timeInPage)
  await signIn(page, server.url)

  // The largest sample DWG: everything, drawing included.
  const real = await findDrawing(server, largest)
  const opened = await openResult(page, server.url, real.job.id)
  const firstS = opened.drawingMs / 1000
  console.log(`${largest} (${kb(statSync(fixturePath(largest)).size)} kB):`)
  console.log(`  extracted by the server in ${(real.extractMs / 1000).toFixed(1)} s`)
  console.log(describeTransfer('geometry answer', opened.geometry))
  console.log(
    `  the page's files (first visit after the file screen): ${opened.assets.count} files, ${kb(opened.assets.body)} kB, ${kb(opened.assets.wire)} kB over the wire`,
  )
  console.log(`  bill shown ${(opened.billMs / 1000).toFixed(2)} s after the page opened`)
  console.log(
    `  first full drawing ${firstS.toFixed(2)} s after the page opened, ${versusTarget(firstS, TARGET_SAMPLE_DRAWING_S, ' s')}`,
  )
  for (const line of describeDrawingTime(opened)) console.log(line)
  const panned = await frameGaps(page, () => pan(page))
  console.log(`  panning: ${describeFrames(panned)}`)

  const figures: (SyntheticFigures | undefined)[] = []
  for (const [i, drawing] of SYNTHETIC.entries()) {
    figures.push(await synthetic(server, browser.context, drawing, written[i] as WrittenDrawing))
  }

  // The largest sample DWG as a job recorded without geometry: built on the first request, kept.
  const old = await findDrawing(server, largest)
  await rm(join(server.dataDir, 'jobs', old.job.id, 'result.geometry'))
  const built = await openResult(await browser.context.newPage(), server.url, old.job.id)
  const keptPage = await browser.context.newPage()
  // Playwright turns the page's cache off while it routes requests.
  await keptPage.route(`**/jobs/${old.job.id}/geometry`, (route) => route.continue())
  const kept = await openResult(keptPage, server.url, old.job.id)
  const builtS = built.drawingMs / 1000
  const keptS = kept.drawingMs / 1000
  console.log(`${largest} as a job recorded without geometry:`)
  console.log(describeTransfer('first geometry answer (built, then kept)', built.geometry))
  console.log(
    `  first full drawing ${builtS.toFixed(2)} s after the page opened, ${versusTarget(builtS, TARGET_SAMPLE_DRAWING_S, ' s')} (the target is for a kept geometry)`,
  )
  for (const line of describeDrawingTime(built)) console.log(line)
  console.log(describeTransfer('second geometry answer (kept)', kept.geometry))
  console.log(
    `  opened again, the browser's cache off (its files fetched again too): first full drawing ${keptS.toFixed(2)} s after the page opened, ${versusTarget(keptS, TARGET_SAMPLE_DRAWING_S, ' s')}`,
  )
  const seconds = (t: Transfer | undefined) => (t ? `${(t.ms / 1000).toFixed(2)} s` : 'not seen')

  const p95 = (gaps: number[]) => percentile(gaps, 95)
  const ratio = (value: number, target: number) => (value / target).toFixed(2)
  const syntheticLine = SYNTHETIC.map(({ entities, targetS }, i) => {
    const f = figures[i]
    const label = `${entities.toLocaleString('en')} entities`
    if (!f) return `${label}: not extracted`
    const memory =
      entities === 1_000_000 && f.peakRss !== undefined
        ? `, page memory ${(f.peakRss / 1e9).toFixed(2)} GB (${ratio(f.peakRss / 1e9, TARGET_PAGE_MEMORY_GB)}x of ${TARGET_PAGE_MEMORY_GB} GB)`
        : ''
    return `${label}: bill in ${f.billS.toFixed(2)} s, drawn in ${f.drawnS.toFixed(2)} s (${ratio(f.drawnS, targetS)}x of ${targetS} s), panning p95 ${f.panP95.toFixed(1)} ms (${ratio(f.panP95, TARGET_FRAME_P95_MS)}x)${memory}`
  }).join('; ')
  console.log(
    `\nresult-page: ${largest} drawn in ${firstS.toFixed(2)} s (${ratio(firstS, TARGET_SAMPLE_DRAWING_S)}x of ${TARGET_SAMPLE_DRAWING_S} s), panning p95 ${p95(panned).toFixed(1)} ms (${ratio(p95(panned), TARGET_FRAME_P95_MS)}x of ${TARGET_FRAME_P95_MS} ms); ${syntheticLine}; recorded without geometry: its geometry built in ${seconds(built.geometry)} and drawn in ${builtS.toFixed(2)} s, then answered kept in ${seconds(kept.geometry)} and drawn in ${keptS.toFixed(2)} s`,
  )
} finally {
  await browser?.close()
  await server?.stop()
}
