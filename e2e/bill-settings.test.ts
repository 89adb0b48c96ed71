/**
 * Bill settings end to end in Chromium against the real server: from the tree, the demo
 * project's bill settings page → EUR, a client and 10 % preliminaries saved as version 1 →
 * example_2018.dwg extracted → its result's Priced tab: amounts in euros, the items' total, the
 * Preliminaries line (10 % of it, to the cent) and the total after it → the workbook downloaded
 * from the page says the same: its header names the client and the currency, its amounts are in
 * the euro's format, and its Preliminaries and Total rows hold the page's figures.
 */
import { readFile } from 'node:fs/promises'
import ExcelJS from 'exceljs'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { type FoundItem, findNewestVersion } from './support/api.ts'
import { unexpectedProblems } from './support/browser.ts'
import { extractInTree } from './support/extract.ts'
import { useBrowser, useServer } from './support/hooks.ts'
import { jobCard, waitUntilFinished } from './support/jobs.ts'
import { signIn } from './support/sign-in.ts'
import { expandPath, treeItem } from './support/tree.ts'

const DRAWING = 'example_2018.dwg'
const CLIENT = 'Acme Estates'

/** `€1,234.50` or `1,234.50` → 1234.5. */
const amountOf = (text: string) => Number(text.replace(/[^\d.-]/g, ''))

/** A figure rounded to the cent, as the bill rounds its amounts. */
const cents = (value: number) => Math.round(value * 100) / 100

/** The Priced tab's row headed `name`, as its cells' texts. */
async function pricedRow(page: Page, name: string | RegExp): Promise<string[]> {
  const table = page.getByRole('table', { name: 'Priced bill' })
  return table
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name, exact: typeof name === 'string' }) })
    .locator('th, td')
    .allInnerTexts()
}

/** A cell's text: rich text's runs joined (the header's lines), else its value as text. */
function cellText(cell: ExcelJS.Cell): string {
  const value = cell.value
  if (value && typeof value === 'object' && 'richText' in value) {
    return value.richText.map((run) => run.text).join('')
  }
  return String(value ?? '')
}

/** A cell's figure: a formula's stored result, or the number itself. */
function figureOf(cell: ExcelJS.Cell): number {
  const value = cell.value
  if (typeof value === 'number') return value
  if (value && typeof value === 'object' && 'result' in value) return Number(value.result)
  throw new Error(`Cell ${cell.address} holds no figure: ${JSON.stringify(value)}`)
}

describe('bill settings in Chromium', () => {
  const server = useServer()
  const browser = useBrowser()
  let drawing: FoundItem
  let versionNumber: number

  beforeAll(async () => {
    ;({ drawing, versionNumber } = await findNewestVersion(server().url, DRAWING))
  })

  it('sets EUR, a client and 10 % preliminaries; the extraction’s Priced tab and workbook show them', {
    timeout: 120_000,
  }, async () => {
    const { page, problems } = browser()
    await signIn(page, server().url)

    // The project's bill settings, from the tree, never saved yet.
    // The project's row, opened by a click, is the one selected.
    await expandPath(page, drawing.titles.slice(0, 2))
    await expect
      .poll(() => treeItem(page, drawing.titles[1] as string).getAttribute('aria-selected'))
      .toBe('true')
    await page.getByRole('link', { name: 'Bill settings…' }).click()
    await page.getByRole('heading', { name: 'Bill settings' }).waitFor()
    await page.getByText(/^Never saved/).waitFor()

    await page.getByRole('combobox', { name: 'Currency' }).selectOption('EUR')
    await page.getByText('Symbol €, 2 decimals: amounts show as €1,234.56').waitFor()
    await page.getByRole('textbox', { name: 'Client' }).fill(CLIENT)
    await page.getByRole('button', { name: 'Add an adjustment' }).click()
    // The new row's name has the focus: typed straight in, as from the keyboard.
    await expect
      .poll(() =>
        page.getByRole('textbox', { name: 'Name, adjustment 1' }).evaluate((input) => {
          return input === document.activeElement
        }),
      )
      .toBe(true)
    await page.keyboard.type('Preliminaries')
    await page.getByRole('spinbutton', { name: 'Percent, adjustment 1' }).fill('10')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Saved as version 1.').waitFor()

    // A new extraction is priced with the saved settings.
    await page.getByRole('link', { name: 'Back to the drawings' }).click()
    await extractInTree(page, drawing, versionNumber)
    const card = jobCard(page, `${DRAWING}, version ${versionNumber}`)
    // Its spline 894 is kept as fit points AutoCAD fitted with a fit tolerance: the bill warns.
    expect(await waitUntilFinished(card)).toBe('Done with warnings')
    await card.getByRole('link', { name: 'Open result' }).click()
    await page.waitForURL(/\/jobs\/[^/]+$/)

    await page.getByRole('tab', { name: 'Priced' }).click()
    await page.getByText(/^Bill of record, priced with rules version 1 and /).waitFor()
    const table = page.getByRole('table', { name: 'Priced bill' })
    await table.getByRole('columnheader', { name: 'Amount (EUR)' }).waitFor()
    const [, itemsTotalText] = await pricedRow(page, 'Items total')
    const itemsTotal = amountOf(itemsTotalText ?? '')
    expect(itemsTotal).toBeGreaterThan(0)
    const preliminaries = await pricedRow(page, /^Preliminaries/)
    expect(preliminaries[0]).toMatch(/^Preliminaries \(10% of [\d,]+\.\d\d\)$/)
    const preliminariesAmount = amountOf(preliminaries[1] ?? '')
    expect(preliminariesAmount).toBe(cents(itemsTotal * 0.1))
    // The total comes after the preliminaries, and adds them.
    const rowHeaders = await table.locator('tfoot th').allInnerTexts()
    expect(rowHeaders.map((text) => text.replace(/ \(.*\)$/, ''))).toEqual([
      'Items total',
      'Preliminaries',
      'Total',
    ])
    const [, totalText] = await pricedRow(page, 'Total')
    expect(totalText).toMatch(/^€[\d,]+\.\d\d$/)
    const total = amountOf(totalText ?? '')
    expect(total).toBe(cents(itemsTotal + preliminariesAmount))

    // The workbook downloaded from the page: the same bill, in euros, for the client.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download XLSX' }).first().click(),
    ])
    const book = new ExcelJS.Workbook()
    await book.xlsx.load((await readFile(await download.path())).buffer as unknown as ArrayBuffer)
    const sheet = book.getWorksheet('Priced bill')
    if (!sheet) throw new Error(`No priced sheet: ${book.worksheets.map((one) => one.name)}`)
    const rows: ExcelJS.Row[] = []
    sheet.eachRow((row) => rows.push(row))
    const text = (row: ExcelJS.Row, column: number) => cellText(row.getCell(column))
    const headed = (label: string, column: number) =>
      rows.find((row) => text(row, column) === label)
    // The header says who the bill is for, in which currency, and what priced it.
    const headerLines = rows.slice(0, 12).map((row) => text(row, 1))
    expect(headerLines).toContain(`Client: ${CLIENT}`)
    expect(headerLines).toContain('Currency: EUR (€)')
    expect(headerLines.find((line) => line.startsWith('Priced with: '))).toMatch(
      /bill settings version 1$/,
    )
    const header = headed('Item', 1) as ExcelJS.Row
    expect([text(header, 6), text(header, 7)]).toEqual(['Rate (EUR)', 'Amount (EUR)'])

    const amount = (label: string) => {
      const row = headed(label, 3)
      if (!row) throw new Error(`No row '${label}' in the priced sheet`)
      return row.getCell(7)
    }
    expect(figureOf(amount('Items total'))).toBe(itemsTotal)
    const workbookPreliminaries = amount('Preliminaries')
    expect(figureOf(workbookPreliminaries)).toBe(preliminariesAmount)
    // A live formula: 10 % of the items' total, rounded to the cent, in the euro's format.
    expect(workbookPreliminaries.formula).toMatch(/ROUND\(.*\/100,2\)/)
    expect(workbookPreliminaries.numFmt).toContain('€')
    const workbookTotal = amount('Total')
    expect(figureOf(workbookTotal)).toBe(total)
    expect(workbookTotal.numFmt).toContain('€')
    expect(rows.indexOf(headed('Total', 3) as ExcelJS.Row)).toBeGreaterThan(
      rows.indexOf(headed('Preliminaries', 3) as ExcelJS.Row),
    )

    expect(unexpectedProblems(problems)).toEqual([])
  })
})
