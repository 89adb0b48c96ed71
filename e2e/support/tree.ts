import type { Locator, Page } from 'playwright-core'

/** The file tree of the file-selection screen (role tree, aria-label 'ACC files'). */
export function fileTree(page: Page): Locator {
  return page.getByRole('tree', { name: 'ACC files' })
}

/** A row of the tree by its title: a string matches the whole title, a RegExp any part. */
export function treeItem(page: Page, title: string | RegExp): Locator {
  return fileTree(page).getByRole('treeitem', { name: title, exact: typeof title === 'string' })
}

/** A version row by its number: its title starts with it (then its time and who made it). */
export function versionRow(page: Page, versionNumber: number | string): Locator {
  return treeItem(page, new RegExp(`^\\D*${versionNumber}\\b`))
}

/**
 * Opens a row (no-op when open) and waits until it is open. A click selects and focuses the row;
 * when the app does not open on click, ArrowRight on the focused row does (react-arborist).
 * Children load afterwards: wait for the child row you need.
 */
export async function expandTreeItem(page: Page, title: string | RegExp): Promise<Locator> {
  const row = treeItem(page, title)
  if ((await row.getAttribute('aria-expanded')) === 'true') return row
  await row.click()
  if ((await row.getAttribute('aria-expanded')) !== 'true') await page.keyboard.press('ArrowRight')
  await row.and(page.locator('[aria-expanded="true"]')).waitFor()
  return row
}

/** Opens each row of `titles` in turn (hub, project, folders…, item), waiting for each to appear. */
export async function expandPath(page: Page, titles: (string | RegExp)[]): Promise<void> {
  for (const title of titles) {
    await treeItem(page, title).waitFor()
    await expandTreeItem(page, title)
  }
}
