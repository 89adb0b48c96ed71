/**
 * The file tree remembers, in Chromium against the real server: a seeded drawing extracted, its
 * result opened from the job card; back by the page's "Back to the drawings", and again by the
 * browser's Back, the tree shows the way to the drawing open and its version selected, in view,
 * with Extract BOQ enabled for it.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { type FoundItem, findNewestVersion } from './support/api.ts'
import { unexpectedProblems } from './support/browser.ts'
import { extractInTree } from './support/extract.ts'
import { useBrowser, useServer } from './support/hooks.ts'
import { jobCard, waitUntilFinished } from './support/jobs.ts'
import { fileScreenHeading, signIn } from './support/sign-in.ts'
import { treeItem, versionRow } from './support/tree.ts'

// The smallest seeded drawing: a cheap extraction.
const DRAWING = 'sample_2018.dwg'

describe('the file tree after a result page in Chromium', () => {
  const server = useServer()
  const browser = useBrowser()
  let drawing: FoundItem
  let versionNumber: number

  beforeAll(async () => {
    ;({ drawing, versionNumber } = await findNewestVersion(server().url, DRAWING))
  })

  // An extraction and the result page twice: more than one page's time on a shared machine.
  it('shows the same nodes open and the same version selected, back by the link and by Back', {
    timeout: 120_000,
  }, async () => {
    const { page, problems } = browser()
    await signIn(page, server().url)
    await extractInTree(page, drawing, versionNumber)
    const card = jobCard(page, `${DRAWING}, version ${versionNumber}`)
    expect(await waitUntilFinished(card)).toBe('Done')

    const openResult = async () => {
      await card.getByRole('link', { name: 'Open result' }).click()
      await page.waitForURL(/\/jobs\/[^/]+$/)
      await page
        .getByRole('heading', { name: `Bill of ${DRAWING}, version ${versionNumber}` })
        .waitFor()
      expect(await treeItem(page, drawing.titles[0] as string).count()).toBe(0)
    }
    const expectTreeAsLeft = async () => {
      await page.getByRole('heading', { name: fileScreenHeading }).waitFor()
      const selected = versionRow(page, versionNumber)
      await selected.waitFor()
      await expect.poll(() => selected.getAttribute('aria-selected')).toBe('true')
      expect(await selected.isVisible()).toBe(true)
      for (const title of drawing.titles) {
        expect(await treeItem(page, title).getAttribute('aria-expanded'), title).toBe('true')
      }
      const extract = page.getByRole('button', { name: 'Extract BOQ' })
      await expect.poll(() => extract.isEnabled()).toBe(true)
    }

    await openResult()
    await page.getByRole('link', { name: 'Back to the drawings' }).click()
    await page.waitForURL((address) => address.pathname === '/')
    await expectTreeAsLeft()

    await openResult()
    await page.goBack()
    await page.waitForURL((address) => address.pathname === '/')
    await expectTreeAsLeft()

    expect(unexpectedProblems(problems)).toEqual([])
  })
})
