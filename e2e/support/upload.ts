import { basename } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { fixture } from '../../server/testing/boq/fixtures.ts'

/** A file as the desktop hands it over: a name and its bytes. */
export interface DroppedFile {
  name: string
  bytes: Uint8Array
}

/** One of the repository's sample drawings. */
export function fixtureDrawing(name: string): DroppedFile {
  return { name: basename(name), bytes: fixture(name) }
}

/** The "Upload drawing…" button (local mode only). */
export function uploadButton(page: Page): Locator {
  return page.getByRole('button', { name: 'Upload drawing…' })
}

/** The lines that say how each upload went, newest batch only. */
export function uploadLines(page: Page): Locator {
  return page.getByRole('status', { name: 'Uploads' }).getByRole('listitem')
}

/**
 * Clicks "Upload drawing…" and picks `files` in the file chooser it opens (the native input's
 * own `setInputFiles`), as a person picking drawings from disk.
 */
export async function uploadWithButton(
  page: Page,
  files: string | string[] | { name: string; mimeType: string; buffer: Buffer },
): Promise<void> {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    uploadButton(page).click(),
  ])
  const input = chooser.element()
  await input.setInputFiles(files)
}

/** Drags `files` from the desktop onto `row` and drops them there (native drag events). */
export async function dropFiles(page: Page, row: Locator, files: DroppedFile[]): Promise<void> {
  const payload = files.map((file) => ({
    name: file.name,
    base64: Buffer.from(file.bytes).toString('base64'),
  }))
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer()
    for (const file of list) {
      const bytes = Uint8Array.from(atob(file.base64), (ch) => ch.charCodeAt(0))
      transfer.items.add(new File([bytes], file.name))
    }
    return transfer
  }, payload)
  for (const type of ['dragenter', 'dragover', 'drop']) {
    await row.dispatchEvent(type, { dataTransfer })
  }
  await dataTransfer.dispose()
}
