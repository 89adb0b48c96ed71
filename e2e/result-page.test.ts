/**
 * The result page end to end in Chromium: the sample drawings seeded; extract example_2018.dwg →
 * its job card opens the result (/jobs/<id>) → the bill's lines (bloko 2 nr, CIRKLO_PUNKTOJ 8 nr),
 * still there after a reload → a line opened onto its breakdown, a line selected (its entities
 * highlighted beside the table) → the Lengths tab.
 */
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { type FoundItem, findNewestVersion } from './support/api.ts'
import { unexpectedProblems } from './support/browser.ts'
import { extractInTree } from './support/extract.ts'
import { useBrowser, useServer } from './support/hooks.ts'
import { jobCard, waitUntilFinished } from './support/jobs.ts'
import { repoRoot } from './support/paths.ts'
import { signIn } from './support/sign-in.ts'

const DRAWING = 'example_2018.dwg'

describe('the result page in Chromium', () => {
  const server = useServer()
  const browser = useBrowser()
  let drawing: FoundItem
  let versionNumber: number

  beforeAll(async () => {
    ;({ drawing, versionNumber } = await findNewestVersion(server().url, DRAWING))
  })

  it('opens a finished job’s bill from its card, by URL too, and walks its tables', async () => {
    const { page, problems } = browser()
    await signIn(page, server().url)
    await extractInTree(page, drawing, versionNumber)
    const card = jobCard(page, `${DRAWING}, version ${versionNumber}`)
    // Its spline 894 is kept as fit points AutoCAD fitted with a fit tolerance: the bill warns.
    expect(await waitUntilFinished(card)).toBe('Done with warnings')

    await card.getByRole('link', { name: 'Open result' }).click()
    await page.waitForURL(/\/jobs\/[^/]+$/)
    await page
      .getByRole('heading', { name: `Bill of ${DRAWING}, version ${versionNumber}` })
      .waitFor()

    const bill = page.getByRole('table', { name: 'Bill' })
    const cellsOf = (description: string) =>
      bill
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: description, exact: true }) })
        .locator('th, td')
        .allInnerTexts()
    await bill.waitFor()
    expect(await cellsOf('bloko')).toEqual([expect.stringMatching(/A1$/), 'bloko', '2', 'nr'])
    expect(await cellsOf('CIRKLO_PUNKTOJ')).toEqual([
      expect.stringMatching(/A2$/),
      'CIRKLO_PUNKTOJ',
      '8',
      'nr',
    ])
    const notices = page.getByRole('region', { name: 'Warnings and items not measured' })
    expect(await notices.getByRole('heading').allInnerTexts()).toEqual([
      '1 warning',
      expect.stringMatching(/^Not measured: [\d,]+ entit(y|ies) of [\d,]+ kinds?$/),
    ])
    await notices.getByText(/^1 spline on layer Tavolo 3 was drawn with a fit tolerance/).waitFor()

    // The page stands on its URL.
    await page.reload()
    await bill.waitFor()
    expect(await cellsOf('bloko')).toEqual([expect.stringMatching(/A1$/), 'bloko', '2', 'nr'])

    // A line opens onto its breakdown: layer Tavolo 3's lines (one line of the bill per kind).
    const toggle = bill.getByRole('button', { name: 'B6 breakdown', exact: true })
    const toggled = bill
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: 'B6 breakdown', exact: true }) })
    expect((await toggled.innerText()).replace(/\s+/g, ' ')).toMatch(/Lines on layer Tavolo 3/)
    await toggle.click()
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true')
    const lines = bill
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: 'lines', exact: true }) })
    expect((await lines.innerText()).replace(/\s+/g, ' ')).toMatch(/lines 8 entities 4\.45 m/)

    // A selected line names its entities to the drawing beside the table.
    const drawingPlace = page.getByRole('complementary', { name: 'Drawing' })
    await bill.getByRole('button', { name: 'CIRKLO_PUNKTOJ' }).click()
    await drawingPlace.getByText('8 highlighted').waitFor()
    // Kept as the run's artifact: the result page as a person sees it, bill beside drawing.
    await drawingPlace.getByText('Loading the drawing…').waitFor({ state: 'detached' })
    await page.screenshot({
      path: join(repoRoot, 'test-results', 'result-page.png'),
      fullPage: true,
    })

    await page.getByRole('tab', { name: /^Lengths/ }).click()
    const lengths = page.getByRole('table', { name: 'Lengths' })
    await lengths.waitFor()
    const lineRow = lengths
      .getByRole('row')
      .filter({ hasText: 'Tavolo 3' })
      .filter({ has: page.getByRole('cell', { name: 'line', exact: true }) })
    expect(await lineRow.locator('td').allInnerTexts()).toEqual([
      'Tavolo 3',
      'line',
      '8',
      '4,451.93',
      '4.45',
    ])
    expect(await page.getByRole('tab', { name: /^Lengths/ }).getAttribute('aria-selected')).toBe(
      'true',
    )
    expect(unexpectedProblems(problems)).toEqual([])
  })
})
