/**
 * What the drawing view shows of a selection too small to see, and of a drawing it cannot draw,
 * end to end in Chromium (WebGL through SwiftShader). A floor plan with 40 sprinkler heads (each
 * a pixel or two wide when the floor is fitted) and an annex without any: the heads' bill line
 * selected rings each head, 20 px wide whatever the zoom → Fit to view shows the annex too, the
 * rings as wide → zoomed in, most rings out of view → Zoom to selection (the button, then F)
 * frames the 40 again. And a model of 3D solids only: the pane says what it holds, not a black
 * paper.
 */

import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Job } from '#contract/jobs.ts'
import { DEMO_FOLDERS } from '../server/seed/seed.ts'
import { DxfWriter } from '../server/testing/boq/dxf-writer.ts'
import { apiSignIn, findOne } from './support/api.ts'
import { unexpectedProblems } from './support/browser.ts'
import {
  drawingPixels,
  PIXELS_SETTLE,
  type Pixel,
  type PixelGroup,
  pixelGroups,
} from './support/drawing-pixels.ts'
import { extractThroughApi } from './support/extract-api.ts'
import { useBrowser, useServer } from './support/hooks.ts'
import { signIn } from './support/sign-in.ts'
import { writeWholeFile } from './support/whole-file.ts'

const SPRINKLERS = 'sprinkler-plan.dwg'
const SOLIDS = 'solids-only.dwg'
const HEADS = 40

/**
 * A floor 20 m by 12 m with an annex as big beside it, and 40 sprinkler heads (a circle 80 mm
 * across) on a grid over the floor only (DXF kept under a .dwg name, as the app takes).
 */
function sprinklerDxf(): string {
  const w = new DxfWriter()
  w.insunits = 4
  w.block('Sprinkler-Head', (to, owner) => w.circle(to, owner, '0', [0, 0], 40))
  const { to, owner } = w.target('model')
  const room = (x0: number, x1: number) =>
    w.lwpolyline(
      to,
      owner,
      'Walls',
      [
        { x: x0, y: 0 },
        { x: x1, y: 0 },
        { x: x1, y: 12_000 },
        { x: x0, y: 12_000 },
      ],
      true,
    )
  room(0, 20_000)
  room(20_000, 40_000)
  for (let x = 4000; x < 40_000; x += 4000) w.line(to, owner, 'Walls', [x, 0], [x, 6000])
  for (let i = 0; i < HEADS; i++) {
    const at: [number, number] = [2000 + (i % 8) * 2200, 2000 + Math.floor(i / 8) * 2000]
    w.insert(to, owner, 'Sprinklers', 'Sprinkler-Head', at)
  }
  return w.toString()
}

/** ACIS data as a modeller writes it: what the reader skips. */
const ACIS = [70, 1, 1, '400 0 1 0', 3, '16 ASM-BODY 1 -1 $-1 #']

/** A 3D model: 58 solids, nothing else in model space. */
function solidsDxf(): string {
  const w = new DxfWriter()
  w.insunits = 4
  const { to, owner } = w.target('model')
  for (let i = 0; i < 58; i++) w.entity(to, owner, 'Walls', '3DSOLID', 'AcDbModelerGeometry', ACIS)
  return w.toString()
}

/** The rings' colour (#fde047), apart from the highlight's orange and the dimmed grey. */
const isRing = ({ r, g, b }: Pixel) => r > 230 && g > 200 && b > 30 && b < 120
/** The highlight's orange (#ff9f1a). */
const isLit = ({ r, g, b }: Pixel) => r > 220 && g > 120 && g < 190 && b < 80

/** The rings in view: each with its box, and the box of all their middles. */
async function ringsIn(page: Page, drawing: Locator) {
  const pixels = await drawingPixels(page, drawing)
  const rings = pixelGroups(pixels.filter(isRing))
  const xs = rings.map((ring) => ring.x)
  const ys = rings.map((ring) => ring.y)
  return {
    rings,
    spread: rings.length > 0 ? Math.max(...xs) - Math.min(...xs) : 0,
    middle: {
      x: (Math.max(...xs) + Math.min(...xs)) / 2,
      y: (Math.max(...ys) + Math.min(...ys)) / 2,
    },
    lit: pixelGroups(pixels.filter(isLit)),
  }
}

/** The rings once the view stops changing: two readings in a row alike. */
async function settledRings(page: Page, drawing: Locator) {
  let last = await ringsIn(page, drawing)
  await expect
    .poll(async () => {
      const previous = last
      last = await ringsIn(page, drawing)
      return last.rings.length === previous.rings.length && last.spread === previous.spread
    }, PIXELS_SETTLE)
    .toBe(true)
  return last
}

const wholeRing = (ring: PixelGroup) => ring.width >= 10 && ring.height >= 10

describe('the drawing view’s rings and what it cannot draw, in Chromium', () => {
  const server = useServer()
  const browser = useBrowser({ viewport: { width: 1400, height: 1000 } })
  let sprinklers: Job
  let solids: Job

  beforeAll(async () => {
    const folder = join(server().dataDir, 'cloud', ...(DEMO_FOLDERS[0] as string).split('/'))
    await writeWholeFile(join(folder, SPRINKLERS), sprinklerDxf())
    await writeWholeFile(join(folder, SOLIDS), solidsDxf())
    const api = await apiSignIn(server().url)
    sprinklers = await extractThroughApi(api, await findOne(api, SPRINKLERS))
    solids = await extractThroughApi(api, await findOne(api, SOLIDS))
  })

  it('rings each counted reference wide enough to see, and zooms to the selection', async () => {
    const { page, problems } = browser()
    await signIn(page, server().url)
    await page.goto(`${server().url}/jobs/${sprinklers.id}`)
    const place = page.getByRole('complementary', { name: 'Drawing' })
    const drawing = place.getByRole('application', { name: /^Drawing of job/ })
    const zoomToSelection = place.getByRole('button', { name: 'Zoom to selection' })
    await place.getByRole('button', { name: 'Fit to view' }).and(page.locator(':enabled')).waitFor()
    expect(await zoomToSelection.isDisabled()).toBe(true)

    await page
      .getByRole('table', { name: 'Bill' })
      .getByRole('button', { name: 'Sprinkler-Head' })
      .click()
    await place.getByText(`${HEADS} highlighted`).waitFor()

    // Framed on the heads: each a speck of the highlight's orange, inside a ring 10 px or more
    // across, centred on it.
    await expect
      .poll(async () => (await ringsIn(page, drawing)).rings.length, PIXELS_SETTLE)
      .toBe(HEADS)
    const framed = await settledRings(page, drawing)
    expect(framed.rings.filter(wholeRing)).toHaveLength(HEADS)
    for (const ring of framed.rings) expect(ring.pixels).toBeGreaterThan(60)
    expect(framed.lit).toHaveLength(HEADS)
    for (const head of framed.lit) {
      expect(head.width).toBeLessThan(6)
      const ring = framed.rings.find((r) => Math.hypot(r.x - head.x, r.y - head.y) < 3)
      expect(ring, `a ring around the head at ${head.x}, ${head.y}`).toBeDefined()
    }

    // Fit to view shows the annex too: the heads closer together, their rings as wide.
    await place.getByRole('button', { name: 'Fit to view' }).click()
    await expect
      .poll(async () => (await ringsIn(page, drawing)).spread, PIXELS_SETTLE)
      .toBeLessThan(framed.spread * 0.7)
    const fitted = await settledRings(page, drawing)
    expect(fitted.rings.filter(wholeRing)).toHaveLength(HEADS)

    // Zoomed in on the middle, most rings are out of view; Zoom to selection frames all of them
    // again, as the selection first was.
    await drawing.focus()
    for (let press = 0; press < 8; press++) await page.keyboard.press('+')
    await expect
      .poll(async () => (await ringsIn(page, drawing)).rings.length, PIXELS_SETTLE)
      .toBeLessThan(HEADS / 4)
    await zoomToSelection.click()
    await expect
      .poll(async () => (await ringsIn(page, drawing)).rings.length, PIXELS_SETTLE)
      .toBe(HEADS)
    const zoomed = await settledRings(page, drawing)
    expect(Math.abs(zoomed.spread - framed.spread)).toBeLessThan(4)
    expect(Math.abs(zoomed.middle.x - framed.middle.x)).toBeLessThan(4)
    expect(Math.abs(zoomed.middle.y - framed.middle.y)).toBeLessThan(4)

    // F does the same from the keyboard.
    await place.getByRole('button', { name: 'Fit to view' }).click()
    await expect
      .poll(async () => (await ringsIn(page, drawing)).spread, PIXELS_SETTLE)
      .toBeLessThan(framed.spread * 0.7)
    await drawing.focus()
    await page.keyboard.press('f')
    await expect
      .poll(
        async () => Math.abs((await ringsIn(page, drawing)).spread - framed.spread),
        PIXELS_SETTLE,
      )
      .toBeLessThan(4)

    // Unselected: no rings, and nothing to zoom to.
    await page
      .getByRole('table', { name: 'Bill' })
      .getByRole('button', { name: 'Sprinkler-Head' })
      .click()
    await place.getByText('0 highlighted').waitFor()
    await expect
      .poll(async () => (await ringsIn(page, drawing)).rings.length, PIXELS_SETTLE)
      .toBe(0)
    expect(await zoomToSelection.isDisabled()).toBe(true)
    expect(unexpectedProblems(problems)).toEqual([])
  })

  it('says what a model of 3D solids only holds, in place of a black paper', async () => {
    const { page, problems } = browser()
    await signIn(page, server().url)
    await page.goto(`${server().url}/jobs/${solids.id}`)
    const place = page.getByRole('complementary', { name: 'Drawing' })
    await place
      .getByRole('status')
      .getByText("This drawing's model space holds 58 3D solids: not drawn, not measured.")
      .waitFor()
    expect(await place.locator('canvas').count()).toBe(0)
    expect(await place.getByRole('button', { name: 'Fit to view' }).isDisabled()).toBe(true)
    expect(unexpectedProblems(problems)).toEqual([])
  })
})
