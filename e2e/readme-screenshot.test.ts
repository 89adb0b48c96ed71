/**
 * The README's picture of the result page, taken from the real thing so it stays true: the sample
 * drawing example_2018.dwg extracted, its result page opened at 1280 × 800, a bill line selected
 * so its blocks light up in the drawing, and the viewport taken as a PNG. Fails when the page does
 * not show the bill, when the drawing is not drawn (no highlight in it), or when the picture is
 * not a PNG of the viewport's size. The picture is written only where BOQ_README_SCREENSHOT says
 * (`npm run docs:screenshot` names docs/images/result-page.png), so a test run changes no file.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { describe, expect, it } from 'vitest'
import { apiSignIn, findOne } from './support/api.ts'
import { unexpectedProblems } from './support/browser.ts'
import { drawingPixels } from './support/drawing-pixels.ts'
import { extractThroughApi } from './support/extract-api.ts'
import { useBrowser, useServer } from './support/hooks.ts'
import { signIn } from './support/sign-in.ts'

const DRAWING = 'example_2018.dwg'
/** A bill line of that drawing: the block placed 8 times, its references lit in the drawing. */
const SELECTED = 'CIRKLO_PUNKTOJ'
const VIEWPORT = { width: 1280, height: 800 }
/** Where to write the picture: only `npm run docs:screenshot` says. */
const SCREENSHOT = process.env.BOQ_README_SCREENSHOT

/** Width and height from a PNG's header, or null when the bytes are not a PNG. */
function pngSize(bytes: Buffer): { width: number; height: number } | null {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature)) return null
  if (bytes.subarray(12, 16).toString('latin1') !== 'IHDR') return null
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}

describe('the README’s screenshot of the result page', () => {
  const server = useServer()
  const browser = useBrowser({ viewport: VIEWPORT })

  // Extracting, building the geometry and drawing it can take a minute on a busy machine.
  const timeout = 180_000

  it('takes the picture from the page showing a bill beside its drawing', {
    timeout,
  }, async () => {
    const api = await apiSignIn(server().url)
    const job = await extractThroughApi(api, await findOne(api, DRAWING))

    const { page, problems } = browser()
    await signIn(page, server().url)
    await page.goto(`${server().url}/jobs/${job.id}`)
    await page.getByRole('heading', { name: new RegExp(`^Bill of ${DRAWING}`) }).waitFor()
    const bill = page.getByRole('table', { name: 'Bill' })
    await bill.waitFor()
    const line = bill
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: SELECTED, exact: true }) })
    expect(await line.locator('th, td').allInnerTexts()).toEqual([
      expect.stringMatching(/A\d+$/),
      SELECTED,
      '8',
      'nr',
    ])

    // The drawing drawn, then a line selected: its references light up beside the table.
    const place = page.getByRole('complementary', { name: 'Drawing' })
    const drawing = place.getByRole('application', { name: /^Drawing of job/ })
    await place.getByRole('button', { name: 'Fit to view' }).and(page.locator(':enabled')).waitFor()
    await bill.getByRole('button', { name: SELECTED, exact: true }).click()
    await place.getByText('8 highlighted').waitFor()
    await expect
      .poll(
        async () =>
          (await drawingPixels(page, drawing)).filter(
            ({ r, g, b }) => r > 220 && g > 120 && g < 190 && b < 80,
          ).length,
        { timeout: 15_000 },
      )
      .toBeGreaterThan(20)
    // The top of the page, the pointer off the table, no focus ring: as a person reading it sees it.
    await page.mouse.move(0, 0)
    await page.evaluate(() => {
      ;(document.activeElement as HTMLElement | null)?.blur()
      window.scrollTo(0, 0)
    })
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    )

    const picture = await page.screenshot()
    expect(pngSize(picture)).toEqual(VIEWPORT)
    if (SCREENSHOT) {
      mkdirSync(dirname(SCREENSHOT), { recursive: true })
      writeFileSync(SCREENSHOT, picture)
    }
    expect(unexpectedProblems(problems)).toEqual([])
  })
})
