/**
 * Locations end to end in Chromium against the real server: a floor plan with three rooms (each
 * a closed outline on A-AREA named by the text inside) dropped into the demo cloud → the
 * project's locations page, reached from the tree: one row (A-AREA, names from the text inside)
 * saved as version 1 → the drawing extracted from the tree → its result's Locations tab lists
 * Kitchen, Living and Bath with their areas and perimeters, each named in the drawing at its
 * outline, and the bill in the living room (its two chairs), its name stood out → the workbook downloaded from the page has a By location sheet, a column per room,
 * its chairs split 1, 2, 0 and one unallocated, and a Rooms sheet.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { DEMO_FOLDERS } from '../server/seed/seed.ts'
import {
  FLOOR_PLAN_CHAIRS_OUTSIDE,
  FLOOR_PLAN_ROOMS,
  floorPlanDxf,
} from '../server/testing/rules/floor-plan.ts'
import { type FoundItem, findNewestVersion } from './support/api.ts'
import { unexpectedProblems } from './support/browser.ts'
import { extractInTree } from './support/extract.ts'
import { useBrowser, useServer } from './support/hooks.ts'
import { jobCard, waitUntilFinished } from './support/jobs.ts'
import { signIn } from './support/sign-in.ts'
import { expandPath, treeItem } from './support/tree.ts'

const DRAWING = 'floor-plan.dwg'

/** A table's body rows, each as its cells' texts. */
async function bodyRows(page: Page, name: string): Promise<string[][]> {
  const rows = page.getByRole('table', { name }).locator('tbody tr')
  const texts: string[][] = []
  for (const row of await rows.all()) texts.push(await row.locator('td').allInnerTexts())
  return texts
}

/** A cell's figure: a formula's stored result, or the number itself. */
function figureOf(value: ExcelJS.CellValue): number {
  if (typeof value === 'number') return value
  if (value && typeof value === 'object' && 'result' in value) return Number(value.result)
  throw new Error(`No figure: ${JSON.stringify(value)}`)
}

describe('locations in Chromium', () => {
  const server = useServer()
  const browser = useBrowser()
  let drawing: FoundItem
  let versionNumber: number

  beforeAll(async () => {
    // A DXF under a drawing's name, as the app takes it: the reader tells DXF by its content.
    const folder = join(server().dataDir, 'cloud', ...(DEMO_FOLDERS[0] as string).split('/'))
    await writeFile(join(folder, DRAWING), floorPlanDxf())
    ;({ drawing, versionNumber } = await findNewestVersion(server().url, DRAWING))
  })

  it('saves one locations row, extracts the plan, shows its rooms and their areas, and writes the By location sheet', {
    timeout: 120_000,
  }, async () => {
    const { page, problems } = browser()
    await signIn(page, server().url)

    // The project's locations, from the tree, never saved yet.
    await expandPath(page, drawing.titles.slice(0, 2))
    await expect
      .poll(() => treeItem(page, drawing.titles[1] as string).getAttribute('aria-selected'))
      .toBe('true')
    await page.getByRole('link', { name: 'Locations…' }).click()
    await page.getByRole('heading', { name: 'Locations' }).waitFor()
    await page.getByText(/^Never saved/).waitFor()
    await page.getByRole('button', { name: 'Add a row' }).click()
    await page.getByRole('textbox', { name: 'Layer, row 1', exact: true }).fill('A-AREA')
    expect(
      await page.getByRole('combobox', { name: 'Label, row 1', exact: true }).inputValue(),
    ).toBe('text')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Saved as version 1.').waitFor()

    // A new extraction is measured by room.
    await page.getByRole('link', { name: 'Back to the drawings' }).click()
    await extractInTree(page, drawing, versionNumber)
    const card = jobCard(page, `${DRAWING}, version ${versionNumber}`)
    const finished = await waitUntilFinished(card)
    expect(finished, (await card.textContent()) ?? '').toMatch(/^Done/)
    await card.getByRole('link', { name: 'Open result' }).click()
    await page.waitForURL(/\/jobs\/[^/]+$/)

    await page.getByRole('tab', { name: `Locations (${FLOOR_PLAN_ROOMS.length})` }).click()
    const zones = await bodyRows(page, 'Zones')
    expect(zones.sort()).toEqual(
      FLOOR_PLAN_ROOMS.map(({ name, area, perimeter }) => [
        name,
        name,
        area.toFixed(2),
        perimeter.toFixed(2),
      ]).sort(),
    )
    // Each room named in the drawing, over its outline on the canvas.
    const drawingView = page.getByRole('complementary', { name: 'Drawing' })
    const canvas = drawingView.locator('[data-testid="drawing-canvas"] canvas').first()
    const names = drawingView.getByTestId('drawing-labels')
    const nameOf = (room: string) => names.getByText(room, { exact: true })
    for (const { name } of FLOOR_PLAN_ROOMS) {
      await nameOf(name).waitFor({ state: 'visible' })
      const box = await nameOf(name).boundingBox()
      const on = await canvas.boundingBox()
      if (!box || !on) throw new Error(`No box for ${name}'s name or the canvas`)
      expect(box.x, name).toBeGreaterThanOrEqual(on.x)
      expect(box.x + box.width, name).toBeLessThanOrEqual(on.x + on.width)
      expect(box.y, name).toBeGreaterThanOrEqual(on.y)
      expect(box.y + box.height, name).toBeLessThanOrEqual(on.y + on.height)
    }
    expect(await nameOf('Living').getAttribute('data-emphasised')).toBe('false')

    await page.getByRole('button', { name: 'Living' }).click()
    await expect.poll(() => nameOf('Living').getAttribute('data-emphasised')).toBe('true')
    expect(await nameOf('Living').isVisible()).toBe(true)
    const inLiving = await bodyRows(page, 'Bill in Living')
    expect(inLiving.find((row) => row[1] === 'CHAIR')?.slice(2)).toEqual([
      '2',
      'nr',
      String(FLOOR_PLAN_ROOMS.reduce((n, room) => n + room.chairs, FLOOR_PLAN_CHAIRS_OUTSIDE)),
    ])

    // The workbook downloaded from the page: a column per room, the chairs split by room.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download XLSX' }).first().click(),
    ])
    const book = new ExcelJS.Workbook()
    await book.xlsx.load((await readFile(await download.path())).buffer as unknown as ArrayBuffer)
    const sheet = book.getWorksheet('By location')
    if (!sheet) throw new Error(`No By location sheet: ${book.worksheets.map((one) => one.name)}`)
    const header = (sheet.getRow(1).values as ExcelJS.CellValue[]).slice(1).map(String)
    expect(header.slice(0, 4)).toEqual(['Item', 'Code', 'Description', 'Unit'])
    expect(header.slice(4, -2).sort()).toEqual(FLOOR_PLAN_ROOMS.map((room) => room.name).sort())
    expect(header.slice(-2)).toEqual(['Unallocated', 'Total'])
    const rows: ExcelJS.CellValue[][] = []
    sheet.eachRow((row) => rows.push((row.values as ExcelJS.CellValue[]).slice(1)))
    const chairs = rows.find((row) => row[2] === 'CHAIR')
    if (!chairs) throw new Error('No CHAIR row in the By location sheet')
    for (const room of FLOOR_PLAN_ROOMS) {
      expect(figureOf(chairs[header.indexOf(room.name)] ?? null), room.name).toBe(room.chairs)
    }
    expect(figureOf(chairs[header.length - 2] ?? null)).toBe(FLOOR_PLAN_CHAIRS_OUTSIDE)
    expect(figureOf(chairs[header.length - 1] ?? null)).toBe(4)
    expect(book.getWorksheet('Rooms')).toBeDefined()

    expect(unexpectedProblems(problems)).toEqual([])
  })
})
