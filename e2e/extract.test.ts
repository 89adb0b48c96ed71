/**
 * Extraction end to end in Chromium: a fresh data folder seeded with the sample
 * drawings; sign in → open the tree down to example_2018.dwg's version → Extract BOQ → the jobs
 * panel follows the job until Done → the XLSX downloads and holds the drawing's block counts →
 * the drawing's folder, opened again, shows `example_2018 BOQ.xlsx`.
 */
import { readFile } from 'node:fs/promises'
import { beforeAll, describe, expect, it } from 'vitest'
import { blockCountsFromXlsx } from '../server/testing/jobs/boq-counts.ts'
import { type FoundItem, findNewestVersion } from './support/api.ts'
import { unexpectedProblems } from './support/browser.ts'
import { extractInTree } from './support/extract.ts'
import { useBrowser, useServer } from './support/hooks.ts'
import { signIn } from './support/sign-in.ts'
import { expandTreeItem, treeItem } from './support/tree.ts'

const DRAWING = 'example_2018.dwg'
const WRITTEN = 'example_2018 BOQ.xlsx'

describe('Extract BOQ in Chromium', () => {
  const server = useServer()
  const browser = useBrowser()
  let drawing: FoundItem
  let versionNumber: number

  beforeAll(async () => {
    ;({ drawing, versionNumber } = await findNewestVersion(server().url, DRAWING))
  })

  it('extracts the seeded drawing, follows the job to Done, downloads the XLSX and finds it in the folder', async () => {
    const { page, problems } = browser()
    await signIn(page, server().url)

    // Down to the version row: its title starts with the version number.
    await extractInTree(page, drawing, versionNumber)

    // The panel: the job's row goes through Queued/Running (a progress bar while running) to Done.
    const panel = page.getByRole('region', { name: 'Extraction jobs' })
    const row = panel.getByRole('listitem').filter({ hasText: DRAWING })
    const seen: string[] = []
    const progress: number[] = []
    const deadline = Date.now() + 60_000
    for (;;) {
      const text = (await row.textContent()) ?? ''
      const word = /Queued|Running|Done|Failed/.exec(text)?.[0]
      if (word && seen.at(-1) !== word) seen.push(word)
      if (word === 'Running') {
        const bar = row.getByRole('progressbar')
        const value = await bar.getAttribute('aria-valuenow', { timeout: 200 }).catch(() => null)
        if (value !== null) progress.push(Number(value))
      }
      if (word === 'Done' || word === 'Failed') break
      if (Date.now() > deadline) throw new Error(`The job is still ${word} after 60 s (${seen})`)
      await page.waitForTimeout(20)
    }
    expect(seen.at(-1), `states shown: ${seen.join(' → ')}; row: ${await row.textContent()}`).toBe(
      'Done',
    )
    // The POST answer shows the job at once, so it is seen active before it is Done.
    expect(seen.slice(0, -1).every((w) => w === 'Queued' || w === 'Running')).toBe(true)
    expect(seen.length, `states shown: ${seen.join(' → ')}`).toBeGreaterThan(1)
    for (const value of progress) {
      expect(value).toBeGreaterThanOrEqual(0)
      expect(value).toBeLessThanOrEqual(100)
    }
    await row.getByText(WRITTEN).waitFor()

    // The download: the XLSX with the drawing's block counts.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('link', { name: 'Download XLSX' }).click(),
    ])
    expect(download.suggestedFilename()).toBe(WRITTEN)
    const counts = await blockCountsFromXlsx(new Uint8Array(await readFile(await download.path())))
    expect(counts.get('bloko')).toBe(2)
    expect(counts.get('CIRKLO_PUNKTOJ')).toBe(8)
    expect(await row.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toMatch(
      /\/api\/boq\/jobs\/[^/]+\/result\.csv$/,
    )

    // The drawing's folder, closed and opened again, lists the written file.
    const folderTitle = drawing.titles.at(-2) as string
    const folderRow = treeItem(page, folderTitle)
    await folderRow.click()
    if ((await folderRow.getAttribute('aria-expanded')) === 'true')
      await page.keyboard.press('ArrowLeft')
    await expect.poll(() => folderRow.getAttribute('aria-expanded')).toBe('false')
    await expandTreeItem(page, folderTitle)
    await treeItem(page, WRITTEN).waitFor()

    expect(unexpectedProblems(problems)).toEqual([])
  })
})
