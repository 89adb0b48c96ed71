/**
 * A project's classification end to end in Chromium against the real server: extract
 * example_2018.dwg → its result → the project's rules page → its classification page → a CSV of
 * two codes imported and a third typed and saved → both saves in History → back on the rules
 * page, a rule giving the code E.1 and no description (CIRKLO_PUNKTOJ at 2.50 each) is previewed
 * as an item described by the code's title, "Points" (8 × 2.50 = 20.00).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { type FoundItem, findNewestVersion } from './support/api.ts'
import { unexpectedProblems } from './support/browser.ts'
import { extractInTree } from './support/extract.ts'
import { useBrowser, useServer } from './support/hooks.ts'
import { jobCard, waitUntilFinished } from './support/jobs.ts'
import { signIn } from './support/sign-in.ts'

const DRAWING = 'example_2018.dwg'

const CODES_CSV = 'code,title,parent\nE,Electrical,\nE.1,Points,E\n'

describe('the classification in Chromium', () => {
  const server = useServer()
  const browser = useBrowser()
  let drawing: FoundItem
  let versionNumber: number

  beforeAll(async () => {
    ;({ drawing, versionNumber } = await findNewestVersion(server().url, DRAWING))
  })

  it('imports and types a classification, saves it, lists it in History, and a rule without a description takes its code’s title', {
    timeout: 120_000,
  }, async () => {
    const { page, problems } = browser()
    await signIn(page, server().url)
    await extractInTree(page, drawing, versionNumber)
    const card = jobCard(page, `${DRAWING}, version ${versionNumber}`)
    // Its spline 894 is kept as fit points AutoCAD fitted with a fit tolerance: the bill warns.
    expect(await waitUntilFinished(card)).toBe('Done with warnings')
    await card.getByRole('link', { name: 'Open result' }).click()
    await page.waitForURL(/\/jobs\/[^/]+$/)

    await page.getByRole('link', { name: 'Takeoff rules of this project' }).click()
    await page.getByRole('heading', { name: 'Takeoff rules' }).waitFor()
    await page.getByRole('link', { name: 'Classification' }).click()
    await page.getByRole('heading', { name: 'Classification' }).waitFor()
    await page.getByRole('button', { name: 'Save' }).waitFor()

    // Whatever the project had (nothing, or an example system), the file takes its place.
    await page.getByLabel('Import CSV or XLSX').setInputFiles({
      name: 'codes.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(CODES_CSV),
    })
    // The editor asks first, saying what the file replaces.
    await page.getByRole('region', { name: 'Import codes.csv' }).waitFor()
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    const imported = page.getByText(/^Imported codes\.csv\. Saved as version (\d+)\.$/)
    await imported.waitFor()
    const first = Number(/version (\d+)/.exec(await imported.innerText())?.[1])
    const code = (n: number) => page.getByRole('textbox', { name: `Code, row ${n}` })
    expect([await code(1).inputValue(), await code(2).inputValue()]).toEqual(['E', 'E.1'])

    await page.getByRole('button', { name: 'Add a row' }).click()
    await code(3).fill('E.2')
    await page.getByRole('textbox', { name: 'Title, row 3' }).fill('Sockets')
    await page.getByRole('textbox', { name: 'Parent, row 3' }).fill('E')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText(`Saved as version ${first + 1}.`, { exact: true }).waitFor()
    const status = await page.getByText(`Version ${first + 1}, saved by `).innerText()
    const savedBy = /saved by (.+) on /.exec(status)?.[1] ?? ''
    expect(savedBy).not.toBe('')

    await page.getByRole('button', { name: 'History' }).click()
    const versions = page.getByRole('dialog', { name: 'History' }).getByRole('listitem')
    await versions.first().waitFor()
    const lines = await versions.allInnerTexts()
    const by = savedBy.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    const when = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d'
    expect(lines[0]).toMatch(
      new RegExp(`^Version ${first + 1}, saved by ${by} on ${when}, 3 rows \\(in the table\\)$`),
    )
    expect(lines[1]).toMatch(new RegExp(`^Version ${first}, saved by ${by} on ${when}, 2 rows$`))
    await page.keyboard.press('Escape')

    await page.getByRole('link', { name: 'Takeoff rules' }).click()
    await page.getByRole('heading', { name: 'Takeoff rules' }).waitFor()
    await page.getByRole('button', { name: 'Save' }).waitFor()
    const remove = page.getByRole('button', { name: 'Remove row 1', exact: true })
    while ((await remove.count()) > 0) await remove.click()
    await page.getByRole('button', { name: 'Add a row' }).click()
    await page.getByRole('combobox', { name: 'Match, row 1' }).selectOption('count')
    await page.getByRole('textbox', { name: 'Block, row 1' }).fill('CIRKLO_PUNKTOJ')
    await page.getByRole('textbox', { name: 'Code, row 1' }).fill('E.1')
    await page.getByRole('spinbutton', { name: 'Rate, row 1' }).fill('2.5')

    const preview = page.getByRole('region', { name: 'Preview' })
    await preview.getByText('Total 20.00').waitFor()
    expect(await preview.getByRole('table', { name: 'Preview items' }).innerText()).toMatch(
      /E\.1\s+Points\s+1\s+8\s+nr\s+2\.50\s+20\.00/,
    )
    expect(unexpectedProblems(problems)).toEqual([])
  })
})
