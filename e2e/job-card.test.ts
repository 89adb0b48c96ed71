/**
 * The job card in Chromium, against the real server and engine: after an extraction of a drawing
 * in a folder below a top folder, the card says which version was read and where the BOQ was
 * written; the info message has gone once the job ended; after a reload (the tree closed again),
 * "Show in tree" opens hub → project → folders and selects the written file.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { apiSignIn, type FoundItem, findItems, titleOf } from './support/api.ts'
import { unexpectedProblems } from './support/browser.ts'
import { extractingText, extractVersion } from './support/extract.ts'
import { useBrowser, useServer } from './support/hooks.ts'
import { jobCard, waitUntilFinished } from './support/jobs.ts'
import { fileScreenHeading, signIn } from './support/sign-in.ts'
import { expandPath, treeItem } from './support/tree.ts'

/** A drawing of the seed that sits below a top folder: hub, project, top folder, folder, item. */
const PREFERRED = '2000_PolyLine2D.dwg'

describe('the job card in Chromium', () => {
  const server = useServer()
  const browser = useBrowser()
  let drawing: FoundItem

  beforeAll(async () => {
    const api = await apiSignIn(server().url)
    const nested = await findItems(
      api,
      (item) => titleOf(item).endsWith('.dwg') && !titleOf(item).startsWith('r11'),
    )
    const deep = nested.filter((found) => found.titles.length === 5)
    drawing = (deep.find((found) => titleOf(found.item) === PREFERRED) ?? deep[0]) as FoundItem
    expect(drawing, 'the seed put a drawing into a folder below a top folder').toBeDefined()
  })

  it('says what was read and where it was written, and shows the written file in the tree', async () => {
    const { page, problems } = browser()
    await signIn(page, server().url)
    const name = titleOf(drawing.item)
    const written = `${name.replace(/\.dwg$/, '')} BOQ.xlsx`
    const folderName = drawing.titles.at(-2) as string

    await expandPath(page, drawing.titles)
    await extractVersion(page, treeItem(page, /^1 /))

    const card = jobCard(page, name)
    const word = await waitUntilFinished(card)
    expect(word, (await card.textContent()) ?? '').toMatch(/^Done/)
    await card.getByText(`${name}, version 1`, { exact: true }).waitFor()
    await card.getByText(`Written to ${folderName} as ${written}, version 1`).waitFor()
    // The info message was a passing one: gone now that its job has ended.
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: extractingText }).count())
      .toBe(0)

    // After a reload the tree is closed again; the card (kept by the server) opens the way.
    await page.reload()
    await page.getByRole('heading', { name: fileScreenHeading }).waitFor()
    await treeItem(page, drawing.titles[0] as string).waitFor()
    expect(await treeItem(page, folderName).count()).toBe(0)
    await jobCard(page, name).getByRole('button', { name: 'Show in tree' }).click()
    const writtenRow = treeItem(page, written)
    await writtenRow.waitFor()
    await expect.poll(() => writtenRow.getAttribute('aria-selected')).toBe('true')
    expect(await writtenRow.isVisible()).toBe(true)
    for (const title of drawing.titles.slice(0, -1)) {
      expect(await treeItem(page, title).getAttribute('aria-expanded'), title).toBe('true')
    }
    // Selecting the written file (not a version) leaves Extract disabled, saying why.
    const extract = page.getByRole('button', { name: 'Extract BOQ' })
    await expect.poll(() => extract.isEnabled()).toBe(false)
    await page
      .getByText('Select a version of a drawing (expand the item to see its versions).')
      .waitFor()

    expect(unexpectedProblems(problems)).toEqual([])
  })
})
