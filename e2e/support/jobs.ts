import type { Locator, Page } from 'playwright-core'

/** The jobs panel of the file-selection screen. */
export function jobsPanel(page: Page): Locator {
  return page.getByRole('region', { name: 'Extraction jobs' })
}

/** The newest job card whose text contains `text` (e.g. the drawing's file name). */
export function jobCard(page: Page, text: string): Locator {
  return jobsPanel(page).getByRole('listitem').filter({ hasText: text }).first()
}

/**
 * Waits until `card` shows a finished job and answers its status word: 'Done', 'Done with
 * warnings' or 'Failed'.
 */
export async function waitUntilFinished(card: Locator, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const text = (await card.textContent()) ?? ''
    const word = /Done with warnings|Done|Failed/.exec(text)?.[0]
    if (word) return word
    if (Date.now() > deadline)
      throw new Error(`The job is not finished after ${timeoutMs} ms: ${text}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
