/**
 * The drawing view end to end in Chromium (WebGL through SwiftShader): example_2018.dwg seeded and
 * extracted; its result page (/jobs/<id>) draws the drawing beside the bill from the geometry the
 * server kept with the bill (its Job's geometryUrl, fetched once), opened as Fit to view frames it →
 * a bill line selected lights its 8 block references in the highlight colour and says
 * "8 highlighted" → unselected, the colour goes → a click where one of them was picks it, which
 * selects its line again → + / - / 0, the wheel and a drag move the view, 0 framing where the
 * entities are → away and back, drawn again with nothing left behind. A drawing slow to draw is
 * panned and zoomed by moving its picture, then drawn where it went. A DXF drawing (the server
 * tells it from its bytes), drawn with its text left out. And a job kept without geometry (as
 * jobs recorded before it was kept are), drawn from the geometry the server builds on the page's
 * request and keeps.
 */

import { rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Job } from '#contract/jobs.ts'
import { DEMO_FOLDERS } from '../server/seed/seed.ts'
import { DxfWriter } from '../server/testing/boq/dxf-writer.ts'
import { apiSignIn, findOne } from './support/api.ts'
import { unexpectedProblems } from './support/browser.ts'
import { drawingPixels, PIXELS_SETTLE, type Pixel } from './support/drawing-pixels.ts'
import { extractThroughApi } from './support/extract-api.ts'
import { useBrowser, useServer } from './support/hooks.ts'
import { signIn } from './support/sign-in.ts'
import { writeWholeFile } from './support/whole-file.ts'

const DRAWING = 'example_2018.dwg'
/** A DXF kept under a .dwg name (the names the app takes), as a person may have one. */
const DXF_DRAWING = 'seats-as-dxf.dwg'

/** Twelve seats (a block with an attribute) around a table, with a text and an MTEXT beside. */
function seatsDxf(): string {
  const w = new DxfWriter()
  w.block('seat', (to, owner) => w.circle(to, owner, '0', [0, 0], 20))
  const { to, owner } = w.target('model')
  w.lwpolyline(
    to,
    owner,
    'Table',
    [
      { x: 0, y: 0 },
      { x: 600, y: 0 },
      { x: 600, y: 200 },
      { x: 0, y: 200 },
    ],
    true,
  )
  for (let i = 0; i < 12; i++) {
    const x = 50 + (i % 6) * 100
    w.insert(to, owner, 'Seats', 'seat', [x, i < 6 ? -50 : 250], { NO: String(i + 1) })
  }
  w.entity(to, owner, 'Notes', 'TEXT', 'AcDbText', [10, 0, 20, 320, 30, 0, 40, 25, 1, 'Meeting'])
  w.entity(to, owner, 'Notes', 'MTEXT', 'AcDbMText', [10, 0, 20, 380, 30, 0, 40, 25, 1, 'Room'])
  return w.toString()
}

/** What a screenshot of the drawing shows: lit pixels, and where the highlight colour is. */
interface Picture {
  lit: number
  highlighted: number
  /** The middle of the highlighted pixels, and one of them, in page coordinates. */
  centre?: { x: number; y: number }
  one?: { x: number; y: number }
}

/**
 * Reads a screenshot of the drawing in the page (a PNG decoded by the browser itself): the pixels
 * that are not the black paper, and those in the view's highlight orange (#ff9f1a).
 */
async function picture(page: Page, drawing: Locator): Promise<Picture> {
  const box = await drawing.boundingBox()
  if (!box) throw new Error('The drawing is not on screen')
  const pixels = await drawingPixels(page, drawing)
  const lit = pixels.filter(({ r, g, b }) => r + g + b > 60).length
  const orange = pixels.filter(({ r, g, b }) => r > 220 && g > 120 && g < 190 && b < 80)
  const [one] = orange
  const sum = (of: (pixel: Pixel) => number) => orange.reduce((total, p) => total + of(p), 0)
  return {
    lit,
    highlighted: orange.length,
    centre: one
      ? { x: box.x + sum((p) => p.x) / orange.length, y: box.y + sum((p) => p.y) / orange.length }
      : undefined,
    one: one ? { x: box.x + one.x, y: box.y + one.y } : undefined,
  }
}

/** The picture once the view stops changing: two screenshots in a row alike. */
async function settledPicture(page: Page, drawing: Locator): Promise<Picture> {
  let last = await picture(page, drawing)
  await expect
    .poll(async () => {
      const previous = last
      last = await picture(page, drawing)
      return last.lit === previous.lit && last.highlighted === previous.highlighted
    }, PIXELS_SETTLE)
    .toBe(true)
  return last
}

/** Two touches around `centre`, `from` px apart, spread to `to` px apart in a few steps. */
async function pinch(page: Page, centre: { x: number; y: number }, from: number, to: number) {
  const cdp = await page.context().newCDPSession(page)
  const points = (gap: number) => [
    { x: centre.x - gap / 2, y: centre.y, id: 1 },
    { x: centre.x + gap / 2, y: centre.y, id: 2 },
  ]
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(from) })
  for (let step = 1; step <= 8; step++) {
    const gap = from + ((to - from) * step) / 8
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: points(gap) })
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
  await cdp.detach()
}

/** What the page asks the server for to draw a job's drawing: its geometry, once. */
function drawingRequests(page: Page): string[] {
  const asked: string[] = []
  page.on('request', (request) => {
    const kind = /\/api\/boq\/jobs\/[^/]+\/(geometry)$/.exec(new URL(request.url()).pathname)
    if (kind?.[1]) asked.push(kind[1])
  })
  return asked
}

/** Signs in and opens the job's result page until its drawing is drawn: where it is, and the view. */
async function openDrawing(page: Page, url: string, jobId: string) {
  await signIn(page, url)
  await page.goto(`${url}/jobs/${jobId}`)
  const place = page.getByRole('complementary', { name: 'Drawing' })
  const drawing = place.getByRole('application', { name: /^Drawing of job/ })
  await place.getByRole('button', { name: 'Fit to view' }).and(page.locator(':enabled')).waitFor()
  return { place, drawing }
}

/**
 * Makes the view take its drawing as slow to draw: it zooms (a drawing) and the frame after is
 * held up 150 ms, as a frame of a huge drawing drawn without a GPU would be. Drawings in these
 * tests draw fast here.
 */
async function seemsSlow(page: Page, zoom: 'Zoom in' | 'Zoom out' = 'Zoom in'): Promise<void> {
  await page.evaluate((name) => {
    const button = [...document.querySelectorAll('button')].find((b) => b.textContent === name)
    if (!button) throw new Error(`No ${name} button`)
    button.click()
    requestAnimationFrame(() => {
      const until = performance.now() + 150
      while (performance.now() < until) {}
    })
  }, zoom)
}

describe('the drawing view in Chromium', () => {
  const server = useServer()
  const browser = useBrowser({ viewport: { width: 1400, height: 1000 } })
  let job: Job

  beforeAll(async () => {
    const api = await apiSignIn(server().url)
    job = await extractThroughApi(api, await findOne(api, DRAWING))
  })

  it('draws the job’s drawing, highlights a bill line’s entities, picks one, and moves', async () => {
    const { page, problems } = browser()
    const asked = drawingRequests(page)
    const { place, drawing } = await openDrawing(page, server().url, job.id)
    await place.getByText('0 highlighted').waitFor()
    // Drawn from the geometry kept with the bill, asked once.
    expect(asked).toEqual(['geometry'])

    // Drawn: the paper is not empty, and nothing is highlighted yet.
    await expect
      .poll(async () => (await picture(page, drawing)).lit, PIXELS_SETTLE)
      .toBeGreaterThan(500)
    expect((await picture(page, drawing)).highlighted).toBe(0)

    // Opened fitted to the whole drawing, untouched: the same picture as Fit to view then gives
    // (the viewer's own fit of every entity, landing after the page's, showed a few lines of the
    // huge block, half the lit pixels).
    const opened = await settledPicture(page, drawing)
    await place.getByRole('button', { name: 'Fit to view' }).click()
    const fitted = await settledPicture(page, drawing)
    expect(opened.lit).toBeGreaterThan(fitted.lit * 0.9)
    expect(opened.lit).toBeLessThan(fitted.lit * 1.1)

    // A bill line selected: its 8 block references light up, framed, and the view says so.
    const bill = page.getByRole('table', { name: 'Bill' })
    const line = bill.getByRole('button', { name: 'CIRKLO_PUNKTOJ' })
    await line.click()
    await place.getByText('8 highlighted').waitFor()
    await expect
      .poll(async () => (await picture(page, drawing)).highlighted, PIXELS_SETTLE)
      .toBeGreaterThan(200)
    const lit = await picture(page, drawing)
    const target = lit.one
    if (!target) throw new Error('No highlighted pixel')

    // Unselected: the drawing goes back to its layers' colours, the view stays where it is.
    await line.click()
    await place.getByText('0 highlighted').waitFor()
    await expect
      .poll(async () => {
        const shown = await picture(page, drawing)
        // Drawn again in its own colours (not an empty paper while that happens).
        return shown.highlighted === 0 && shown.lit > lit.lit / 2
      }, PIXELS_SETTLE)
      .toBe(true)

    // A click on one of the references (on a line drawn inside the block) picks the reference,
    // and the page selects the line that counts it.
    await page.mouse.click(target.x, target.y)
    await place.getByText('8 highlighted').waitFor()
    await expect
      .poll(async () => (await picture(page, drawing)).highlighted, PIXELS_SETTLE)
      .toBeGreaterThan(200)

    // Keys the viewer would take for editing (anywhere on the page) change nothing.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    for (const key of ['Backspace', 'Delete', 'Control+z', 'Control+y'])
      await page.keyboard.press(key)
    await drawing.focus()
    for (const key of ['Backspace', 'Delete', 'Control+z']) await page.keyboard.press(key)
    await place.getByText('8 highlighted').waitFor()
    expect(unexpectedProblems(problems)).toEqual([])

    // The keyboard: - zooms out (the references shrink), + back in, 0 fits the whole drawing.
    const before = (await picture(page, drawing)).highlighted
    await page.keyboard.press('-')
    await expect
      .poll(async () => (await picture(page, drawing)).highlighted, PIXELS_SETTLE)
      .toBeLessThan(before)
    const zoomedOut = (await picture(page, drawing)).highlighted
    await page.keyboard.press('+')
    await expect
      .poll(async () => (await picture(page, drawing)).highlighted, PIXELS_SETTLE)
      .toBeGreaterThan(zoomedOut)

    // A drag pans: the highlighted references move with the pointer.
    const from = (await picture(page, drawing)).centre
    const box = await drawing.boundingBox()
    if (!from || !box) throw new Error('Nothing highlighted to follow')
    const start = { x: box.x + 40, y: box.y + 40 }
    await page.mouse.move(start.x, start.y)
    await page.mouse.down()
    await page.mouse.move(start.x + 60, start.y + 30, { steps: 6 })
    await page.mouse.up()
    await expect
      .poll(async () => ((await picture(page, drawing)).centre?.x ?? 0) - from.x, PIXELS_SETTLE)
      .toBeGreaterThan(30)
    // The drag was a pan, not a pick: the selection stays.
    await place.getByText('8 highlighted').waitFor()

    // Two fingers spreading apart (a pinch) zoom in.
    const pinched = await picture(page, drawing)
    const beforePinch = pinched.highlighted
    // A little: the viewer zooms by the spread to the fifth power.
    await pinch(page, pinched.centre ?? from, 100, 112)
    await expect
      .poll(async () => (await picture(page, drawing)).highlighted, PIXELS_SETTLE)
      .toBeGreaterThan(beforePinch)

    // The wheel zooms out over the drawing.
    const beforeWheel = (await picture(page, drawing)).highlighted
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await page.mouse.wheel(0, 400)
    await expect
      .poll(async () => (await picture(page, drawing)).highlighted, PIXELS_SETTLE)
      .toBeLessThan(beforeWheel)

    // 0 fits the drawing where its entities are, its one block that spans millions of units left
    // out (framed with it, the references were specks of fewer than 50 highlighted pixels).
    await page.keyboard.press('0')
    await expect
      .poll(async () => (await picture(page, drawing)).highlighted, PIXELS_SETTLE)
      .toBeGreaterThan(100)

    // Away and back: the drawing is drawn again, and the first viewer left nothing behind.
    const canvases = () => page.locator('canvas').count()
    const canvasesBefore = await canvases()
    await page.getByRole('link', { name: 'All extractions' }).click()
    await page.waitForURL(/\/jobs$/)
    await page
      .getByRole('link', { name: new RegExp(DRAWING) })
      .first()
      .click()
    await page.waitForURL(/\/jobs\/[^/]+$/)
    await place.getByRole('button', { name: 'Fit to view' }).and(page.locator(':enabled')).waitFor()
    await expect
      .poll(async () => (await picture(page, drawing)).lit, PIXELS_SETTLE)
      .toBeGreaterThan(500)
    expect(await canvases()).toBe(canvasesBefore)

    expect(unexpectedProblems(problems)).toEqual([])
  })

  it('pans and zooms a drawing slow to draw by moving its picture, then draws it there', async () => {
    const { page, problems } = browser()
    const { place, drawing } = await openDrawing(page, server().url, job.id)
    await page
      .getByRole('table', { name: 'Bill' })
      .getByRole('button', { name: 'CIRKLO_PUNKTOJ' })
      .click()
    await place.getByText('8 highlighted').waitFor()
    // Farther out, so that the references stay in view wherever the drag takes them.
    await drawing.focus()
    await page.keyboard.press('-')
    await page.keyboard.press('-')
    const from = (await settledPicture(page, drawing)).centre
    if (!from) throw new Error('Nothing highlighted to follow')

    await seemsSlow(page)
    const zoomed = (await settledPicture(page, drawing)).centre ?? from

    // While the drag lasts, the picture follows the pointer (moved, not drawn again).
    const canvas = drawing.locator('canvas').first()
    const box = await drawing.boundingBox()
    if (!box) throw new Error('The drawing is not on screen')
    const start = { x: box.x + 50, y: box.y + 50 }
    await page.mouse.move(start.x, start.y)
    await page.mouse.down()
    await page.mouse.move(start.x + 40, start.y + 25, { steps: 5 })
    expect(await canvas.evaluate((element) => element.style.transform)).toBe(
      'translate(40px, 25px)',
    )
    await page.mouse.up()

    // Let go: the picture is back in place and the view drawn panned by the drag, no farther.
    expect(await canvas.evaluate((element) => element.style.transform)).toBe('')
    const panned = (await settledPicture(page, drawing)).centre
    if (!panned) throw new Error('The references went out of view')
    expect(Math.abs(panned.x - zoomed.x - 40)).toBeLessThan(6)
    expect(Math.abs(panned.y - zoomed.y - 25)).toBeLessThan(6)
    // The drag was a pan, not a pick: the selection stays.
    await place.getByText('8 highlighted').waitFor()

    // The wheel zooms the picture about the pointer, then the view is drawn there: 200 px of
    // wheel away, out by 0.95¹⁰ as the viewer's own wheel zoom, the point under the pointer kept
    // (the references all in view, zooming out keeps them so, and their middle moves with them).
    await seemsSlow(page, 'Zoom out')
    const beforeWheel = await settledPicture(page, drawing)
    const centre = beforeWheel.centre
    if (!centre) throw new Error('The references went out of view')
    const pointer = { x: centre.x + 60, y: centre.y - 40 }
    await canvas.evaluate((element) => {
      const seen: string[] = []
      new MutationObserver(() => seen.push(element.style.transform)).observe(element, {
        attributeFilter: ['style'],
      })
      Object.assign(window, { boqTransforms: seen })
    })
    await page.mouse.move(pointer.x, pointer.y)
    await page.mouse.wheel(0, 200)
    const scaled = () =>
      page.evaluate(() =>
        (window as unknown as { boqTransforms: string[] }).boqTransforms.some((transform) =>
          transform.includes('scale('),
        ),
      )
    await expect.poll(scaled, PIXELS_SETTLE).toBe(true)
    await expect
      .poll(() => canvas.evaluate((element) => element.style.transform), PIXELS_SETTLE)
      .toBe('')
    const out = 0.95 ** 10
    await expect
      .poll(async () => {
        const zoomed = (await settledPicture(page, drawing)).centre ?? { x: 0, y: 0 }
        return Math.hypot(
          zoomed.x - (pointer.x + (centre.x - pointer.x) * out),
          zoomed.y - (pointer.y + (centre.y - pointer.y) * out),
        )
      }, PIXELS_SETTLE)
      .toBeLessThan(6)

    // A pinch still zooms: the viewer has seen both fingers.
    await seemsSlow(page)
    const beforePinch = await settledPicture(page, drawing)
    await pinch(page, beforePinch.centre ?? panned, 100, 112)
    await expect
      .poll(async () => (await picture(page, drawing)).highlighted, PIXELS_SETTLE)
      .toBeGreaterThan(beforePinch.highlighted)

    expect(unexpectedProblems(problems)).toEqual([])
  })

  it('draws a DXF drawing, its text left out, and highlights a line’s entities', async () => {
    const folder = join(server().dataDir, 'cloud', ...(DEMO_FOLDERS[0] as string).split('/'))
    await writeWholeFile(join(folder, DXF_DRAWING), seatsDxf())
    const api = await apiSignIn(server().url)
    const dxfJob = await extractThroughApi(api, await findOne(api, DXF_DRAWING))

    const { page, problems } = browser()
    const { place, drawing } = await openDrawing(page, server().url, dxfJob.id)
    await expect
      .poll(async () => (await picture(page, drawing)).lit, PIXELS_SETTLE)
      .toBeGreaterThan(500)

    await page.getByRole('table', { name: 'Bill' }).getByRole('button', { name: 'seat' }).click()
    await place.getByText('12 highlighted').waitFor()
    await expect
      .poll(async () => (await picture(page, drawing)).highlighted, PIXELS_SETTLE)
      .toBeGreaterThan(200)
    // The text asked for no font: nothing was refused or failed in the page.
    expect(unexpectedProblems(problems)).toEqual([])
  })

  it('draws a job kept without geometry from the geometry the server builds then, and keeps', async () => {
    const api = await apiSignIn(server().url)
    const old = await extractThroughApi(api, await findOne(api, DRAWING))
    // As a job recorded before geometry was kept with the bill.
    const kept = join(server().dataDir, 'jobs', old.id, 'result.geometry')
    await rm(kept)

    const { page, problems } = browser()
    const asked = drawingRequests(page)
    const { place, drawing } = await openDrawing(page, server().url, old.id)
    // The geometry its Job names, asked once: built by the server on that request.
    expect(asked).toEqual(['geometry'])
    await expect
      .poll(async () => (await picture(page, drawing)).lit, PIXELS_SETTLE)
      .toBeGreaterThan(500)
    expect((await stat(kept)).size).toBeGreaterThan(0)

    await page
      .getByRole('table', { name: 'Bill' })
      .getByRole('button', { name: 'CIRKLO_PUNKTOJ' })
      .click()
    await place.getByText('8 highlighted').waitFor()
    await expect
      .poll(async () => (await picture(page, drawing)).highlighted, PIXELS_SETTLE)
      .toBeGreaterThan(200)
    expect(unexpectedProblems(problems)).toEqual([])
  })
})
