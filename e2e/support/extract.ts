import type { Locator, Page, Response } from 'playwright-core'
import { expect } from 'vitest'
import type { FoundItem } from './api.ts'
import { expandPath, versionRow } from './tree.ts'

export const extractingText = 'Extracting...Please wait a few minutes'

/** The app's POST /api/boq/extract answer to `trigger` (a click, a key press). */
export async function extractResponse(page: Page, trigger: () => Promise<void>): Promise<Response> {
  const [response] = await Promise.all([
    page.waitForResponse(
      (answer) =>
        new URL(answer.url()).pathname === '/api/boq/extract' &&
        answer.request().method() === 'POST',
    ),
    trigger(),
  ])
  return response
}

/**
 * Selects `versionRow`, clicks Extract BOQ once it is enabled, and checks the job was accepted
 * (202) and the info message shows, as a person starting an extraction would see it.
 */
export async function extractVersion(page: Page, versionRow: Locator): Promise<void> {
  await versionRow.click()
  await expect.poll(() => versionRow.getAttribute('aria-selected')).toBe('true')
  const extract = page.getByRole('button', { name: 'Extract BOQ' })
  await expect.poll(() => extract.isEnabled()).toBe(true)
  const response = await extractResponse(page, () => extract.click())
  expect(response.status(), await response.text()).toBe(202)
  await page.getByRole('status').filter({ hasText: extractingText }).first().waitFor()
}

/** Opens the tree down to `drawing` and extracts its version of this number, as a person does. */
export async function extractInTree(
  page: Page,
  drawing: FoundItem,
  versionNumber: number | string,
): Promise<void> {
  await expandPath(page, drawing.titles)
  await extractVersion(page, versionRow(page, versionNumber))
}

/**
 * Checks what the screen says after Extract, for the server as it is: a 2xx answer (jobs landed)
 * shows the info text, 501 (before the jobs) shows the answer's body as the error. Any other
 * answer fails. Returns the console problems this legitimately causes (Chromium logs the 501).
 */
export async function expectExtractOutcome(page: Page, response: Response): Promise<RegExp[]> {
  const body = await response.text()
  if (response.ok()) {
    await page.getByRole('status').filter({ hasText: extractingText }).first().waitFor()
    return []
  }
  expect(response.status(), `POST /api/boq/extract answered ${response.status()}: ${body}`).toBe(
    501,
  )
  expect(body).toBe('Extraction is not available yet')
  await page.getByRole('alert').filter({ hasText: body }).first().waitFor()
  return [/\/api\/boq\/extract$/]
}

/**
 * Before the jobs land, the app's jobs panel asks GET /api/boq/jobs and gets 404 (Chromium logs
 * it). Returns that as an expected problem only while the server really has no such route.
 */
export async function expectedWhileJobsAbsent(url: string): Promise<RegExp[]> {
  const probe = await fetch(`${url}/api/boq/jobs`)
  await probe.body?.cancel()
  return probe.status === 404 ? [/\/api\/boq\/jobs$/] : []
}
