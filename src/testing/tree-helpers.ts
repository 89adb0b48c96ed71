import { screen, within } from '@testing-library/react'
import type { UserEvent } from '@testing-library/user-event'

export function fileTree(): HTMLElement {
  return screen.getByRole('tree', { name: 'ACC files' })
}

export async function findRow(title: string | RegExp): Promise<HTMLElement> {
  return within(await screen.findByRole('tree', { name: 'ACC files' })).findByRole('treeitem', {
    name: title,
  })
}

export function rowTitles(): string[] {
  return within(fileTree())
    .queryAllByRole('treeitem')
    .map((row) => row.textContent ?? '')
}

/** Clicks each row in turn (a click selects a row and opens or closes it). */
export async function clickPath(user: UserEvent, titles: Array<string | RegExp>): Promise<void> {
  for (const title of titles) await user.click(await findRow(title))
}
