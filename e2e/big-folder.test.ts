/**
 * A folder of 10,000 items: the server sends it whole and the tree stays virtualized (at most
 * 300 rows in the DOM), yet the last item is reachable. Timings are in `npm run bench`.
 */
import { describe, expect, it } from 'vitest'
import { bigCloud, makeBigCloud } from './support/big-cloud.ts'
import { unexpectedProblems } from './support/browser.ts'
import { useBrowser, useServer } from './support/hooks.ts'
import { signIn } from './support/sign-in.ts'
import { expandPath, fileTree, treeItem } from './support/tree.ts'

const count = 10_000

describe('a folder of 10,000 items', () => {
  const server = useServer(() => ({ dataDir: makeBigCloud(count), removeDataDir: true }))
  const browser = useBrowser()

  it('shows its first rows with at most 300 tree rows in the DOM, and reaches the last', async () => {
    const { page, problems } = browser()
    await signIn(page, server().url)
    const answer = page.waitForResponse((response) =>
      new URL(response.url()).searchParams.has('folder_id'),
    )
    await expandPath(page, [bigCloud.hub, bigCloud.project, bigCloud.folder])
    // The server answers the list as a bare array.
    expect(await (await answer).json()).toHaveLength(count)

    await treeItem(page, bigCloud.itemName(0)).waitFor()
    const rows = fileTree(page).getByRole('treeitem')
    expect(await rows.count()).toBeLessThanOrEqual(300)

    // End moves focus to the last row, which the tree scrolls into view.
    await treeItem(page, bigCloud.folder).focus()
    await page.keyboard.press('End')
    await treeItem(page, bigCloud.itemName(count - 1)).waitFor()
    expect(await rows.count()).toBeLessThanOrEqual(300)
    expect(unexpectedProblems(problems)).toEqual([])
  })
})
