/**
 * The tree with the keyboard alone: Tab into it, arrows to move and open, Enter or Space to
 * select a version, Tab to 'Extract BOQ' and Enter. No mouse after sign-in.
 */
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { apiSignIn, type FoundItem, findItems, titleOf } from './support/api.ts'
import { unexpectedProblems } from './support/browser.ts'
import {
  expectExtractOutcome,
  expectedWhileJobsAbsent,
  extractResponse,
} from './support/extract.ts'
import { useBrowser, useServer } from './support/hooks.ts'
import { signIn } from './support/sign-in.ts'
import { fileTree, treeItem } from './support/tree.ts'

/** The title of the focused tree row (its text less aria-hidden parts), or '' when none has focus. */
function focusedRow(page: Page): Promise<string> {
  return page.evaluate(() => {
    const row = document.activeElement?.closest('[role="treeitem"]')
    if (!row) return ''
    const copy = row.cloneNode(true) as Element
    for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove()
    return copy.textContent?.trim() ?? ''
  })
}

/** Presses Tab until `isThere` holds (at most 20 presses), like a person tabbing through. */
async function tabUntil(page: Page, isThere: () => Promise<boolean>, what: string) {
  for (let presses = 0; presses < 20; presses++) {
    if (await isThere()) return
    await page.keyboard.press('Tab')
  }
  throw new Error(`Tab never reached ${what}`)
}

/** Moves focus with ArrowDown (then ArrowUp) until the row titled `title` has it. */
async function arrowTo(page: Page, title: string | RegExp) {
  await treeItem(page, title).waitFor()
  const matches = (text: string) => (typeof title === 'string' ? text === title : title.test(text))
  for (const key of ['ArrowDown', 'ArrowUp']) {
    let previous = ''
    for (let presses = 0; presses < 200; presses++) {
      const current = await focusedRow(page)
      if (matches(current)) return
      if (current === previous && presses > 0) break // the end of the list in this direction
      previous = current
      await page.keyboard.press(key)
    }
  }
  throw new Error(`The arrows never reached the row ${title}`)
}

/** Opens the focused row with ArrowRight and waits for it to be open. */
async function openFocused(page: Page) {
  await page.keyboard.press('ArrowRight')
  await fileTree(page).locator('[role="treeitem"][aria-expanded="true"]:focus').waitFor()
}

const versionRow = /^\D*1\b/

describe('the file tree with the keyboard alone', () => {
  const server = useServer()
  const browser = useBrowser()
  let first: FoundItem
  let second: FoundItem | undefined
  let jobsAbsent: RegExp[]

  beforeAll(async () => {
    jobsAbsent = await expectedWhileJobsAbsent(server().url)
    const api = await apiSignIn(server().url)
    const drawings = await findItems(api, (item) => titleOf(item).endsWith('.dwg'))
    // Two drawings of one folder when the seed has them: Enter selects one, Space the other.
    const folder = drawings.find((a) => drawings.some((b) => b !== a && b.folderId === a.folderId))
    first = folder ?? drawings[0]
    second = drawings.find((b) => b !== first && b.folderId === first.folderId)
  })

  it('moves, opens and selects with arrows, Enter and Space, then extracts with Enter', async () => {
    const { page, problems } = browser()
    await signIn(page, server().url)
    await treeItem(page, first.titles[0]).waitFor()
    await tabUntil(page, async () => (await focusedRow(page)) !== '', 'the tree')

    for (const title of first.titles) {
      await arrowTo(page, title)
      await openFocused(page)
    }
    await arrowTo(page, versionRow)
    await page.keyboard.press('Enter')
    const firstVersion = fileTree(page).locator('[role="treeitem"]:focus')
    await expect.poll(() => firstVersion.getAttribute('aria-selected')).toBe('true')

    const extract = page.getByRole('button', { name: 'Extract BOQ' })
    await expect.poll(() => extract.isEnabled()).toBe(true)

    if (second) {
      // The second drawing is a sibling of the first: open it and select its version with Space.
      await arrowTo(page, second.titles.at(-1) as string)
      await openFocused(page)
      await expect.poll(() => treeItem(page, versionRow).count()).toBe(2)
      await page.keyboard.press('ArrowDown')
      expect(await focusedRow(page)).toMatch(versionRow)
      await page.keyboard.press(' ')
      const selected = fileTree(page).locator('[role="treeitem"][aria-selected="true"]')
      await expect.poll(() => selected.count()).toBe(1)
      await expect.poll(() => selected.evaluate((row) => row === document.activeElement)).toBe(true)
    }

    await tabUntil(
      page,
      () => extract.evaluate((button) => button === document.activeElement),
      'Extract BOQ',
    )
    const response = await extractResponse(page, () => page.keyboard.press('Enter'))
    expect(response.request().postDataJSON()).toMatchObject({
      fileName: (second ?? first).titles.at(-1),
    })
    const expected = await expectExtractOutcome(page, response)
    expect(unexpectedProblems(problems, [...jobsAbsent, ...expected])).toEqual([])
  })
})
