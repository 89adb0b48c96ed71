/**
 * Uploading drawings in Chromium, local mode, against the real server on a fresh data folder
 * whose demo folders hold no drawings: an empty folder says how to add one; "Upload drawing…"
 * puts a sample drawing there, the tree shows it, and it extracts to Done. Files dropped
 * onto a folder row and onto an item row land as a new item and as the next version (a file of
 * another name only once the user says yes: Escape says no); a file that is no drawing is refused
 * with the server's reason.
 */
import { describe, expect, it } from 'vitest'
import { fixturePath } from '../server/testing/boq/fixtures.ts'
import { unexpectedProblems } from './support/browser.ts'
import { extractVersion } from './support/extract.ts'
import { useBrowser, useServer } from './support/hooks.ts'
import { jobCard, waitUntilFinished } from './support/jobs.ts'
import { signIn } from './support/sign-in.ts'
import { expandPath, treeItem } from './support/tree.ts'
import {
  dropFiles,
  fixtureDrawing,
  uploadButton,
  uploadLines,
  uploadWithButton,
} from './support/upload.ts'

const EMPTY_HINT = 'No drawings here yet. Drop .dwg files onto this folder, or use Upload drawing…'
const DRAWING = 'example_2018.dwg'

describe('uploading drawings in Chromium (local mode)', () => {
  // BOQ_SEED_DIR empty: the demo hub, projects and folders, and no drawing in any of them.
  const server = useServer({ seedDir: '' })
  const browser = useBrowser()

  it('uploads a drawing into an empty folder with the button, shows it, and extracts it', async () => {
    const { page, problems } = browser()
    await signIn(page, server().url)
    await expandPath(page, ['Demo Hub', 'Harbour Residences'])
    const button = uploadButton(page)
    expect(await button.isDisabled()).toBe(true)

    // Shared: selected and opened by the click, loaded, empty.
    const shared = treeItem(page, 'Shared')
    await shared.click()
    await treeItem(page, EMPTY_HINT).waitFor()
    await expect.poll(() => button.isEnabled()).toBe(true)
    expect(await button.getAttribute('aria-describedby')).toBeTruthy()
    await page.getByText('Uploads into Shared.').waitFor()

    await uploadWithButton(page, fixturePath(DRAWING))
    await uploadLines(page)
      .filter({ hasText: `Uploaded ${DRAWING} as version 1.` })
      .waitFor()
    const item = treeItem(page, DRAWING)
    await item.waitFor()
    expect(await item.isVisible()).toBe(true)
    expect(await treeItem(page, EMPTY_HINT).count()).toBe(0)
    expect(await shared.getAttribute('aria-expanded')).toBe('true')
    expect(await shared.getAttribute('aria-selected')).toBe('true')

    // Extract it: its version, Extract BOQ, the job to Done.
    await item.click()
    await extractVersion(page, treeItem(page, /^1 /))
    const card = jobCard(page, DRAWING)
    expect(await waitUntilFinished(card), (await card.textContent()) ?? '').toMatch(/^Done/)
    await treeItem(page, 'example_2018 BOQ.xlsx').waitFor()

    expect(unexpectedProblems(problems)).toEqual([])
  })

  it('takes files dropped onto a folder row and onto an item row, and shows a refusal', async () => {
    const { page, problems } = browser()
    await signIn(page, server().url)
    await expandPath(page, ['Demo Hub', 'Riverside Offices', 'Project Files'])
    const survey = treeItem(page, 'Survey')
    await survey.waitFor()
    expect(await survey.getAttribute('aria-expanded')).toBe('false')

    // Onto a folder row (closed, never loaded): a new item; the folder opens with it.
    await dropFiles(page, survey, [fixtureDrawing('sample_2018.dwg')])
    await uploadLines(page).filter({ hasText: 'Uploaded sample_2018.dwg as version 1.' }).waitFor()
    const item = treeItem(page, 'sample_2018.dwg')
    await item.waitFor()
    expect(await survey.getAttribute('aria-expanded')).toBe('true')

    // Onto the item row: its next version, under its own name, whatever the file is called; a
    // file of another name is asked about first. Escape says no: nothing is uploaded.
    await item.click()
    await treeItem(page, /^1 /).waitFor()
    const revised = { ...fixtureDrawing('sample_2000.dwg'), name: 'revised.dwg' }
    const question = page.getByRole('dialog', {
      name: 'Upload revised.dwg as version 2 of sample_2018.dwg?',
    })
    await dropFiles(page, item, [revised])
    await question.waitFor()
    await expect
      .poll(() =>
        question
          .getByRole('button', { name: 'Cancel' })
          .evaluate((button) => button === document.activeElement),
      )
      .toBe(true)
    await page.keyboard.press('Escape')
    await uploadLines(page).filter({ hasText: 'Not uploaded: revised.dwg' }).waitFor()
    await question.waitFor({ state: 'detached' })
    expect(await treeItem(page, /^2 /).count()).toBe(0)

    await dropFiles(page, item, [revised])
    await question.getByRole('button', { name: 'Upload' }).click()
    await uploadLines(page).filter({ hasText: 'Uploaded sample_2018.dwg as version 2.' }).waitFor()
    await question.waitFor({ state: 'detached' })
    await treeItem(page, /^2 /).waitFor()
    expect(await treeItem(page, 'revised.dwg').count()).toBe(0)

    // Not a drawing: the server's reason, as it is; nothing added.
    const notes = { name: 'notes.dwg', bytes: new TextEncoder().encode('%PDF-1.7 not a drawing') }
    await dropFiles(page, survey, [notes])
    await uploadLines(page)
      .filter({
        hasText: '"notes.dwg" was not uploaded: not a DWG file (it looks like a PDF document).',
      })
      .waitFor()
    expect(await treeItem(page, 'notes.dwg').count()).toBe(0)

    // Chromium logs the refused upload's 422.
    expect(unexpectedProblems(problems, [/\/api\/local\/upload$/])).toEqual([])
  })
})
