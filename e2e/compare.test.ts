/**
 * The change bill end to end in Chromium: a local cloud with plan.dwg (2004_HatchG.dwg); extract
 * version 1; its next version (2000_TS1.dwg) uploaded; extract version 2 → its card links to the
 * changes since version 1 → the change bill shows layer 0's linework going from 4.43 to 5.18 ft →
 * beside it, "N added, M removed" (as the server's change bill counts them) and the newer drawing
 * drawn with the added entities in green; Before shows the older one with the removed in red.
 * Then another drawing (survey.dwg, 2000_entities-2d.dwg) against version 2: the bill says they are
 * two different drawings, and each line has its own item number.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import * as v from 'valibot'
import { afterAll, describe, expect, it } from 'vitest'
import { ChangeBillSchema } from '#contract/compare.ts'
import { fixturePath } from '../server/testing/boq/fixtures.ts'
import { apiSignIn, findOne } from './support/api.ts'
import { unexpectedProblems } from './support/browser.ts'
import { drawingPixels, PIXELS_SETTLE } from './support/drawing-pixels.ts'
import { extractInTree } from './support/extract.ts'
import { extractThroughApi } from './support/extract-api.ts'
import { useBrowser, useServer } from './support/hooks.ts'
import { jobCard, waitUntilFinished } from './support/jobs.ts'
import { signIn } from './support/sign-in.ts'

/**
 * Pixels of a screenshot of the drawing in a colour: green as the drawing view draws what was
 * added (#22c55e), red as it draws what was removed (#ef4444). Decoded by the browser itself.
 */
async function coloured(page: Page, drawing: Locator): Promise<{ green: number; red: number }> {
  const pixels = await drawingPixels(page, drawing)
  return {
    green: pixels.filter(({ r, g, b }) => g > 150 && r < 90 && b < 140).length,
    red: pixels.filter(({ r, g, b }) => r > 190 && g < 110 && b < 110).length,
  }
}

const seedDir = mkdtempSync(join(tmpdir(), 'boq-e2e-compare-'))
// With the fixtures' times, as whole files have: the cloud takes them at once (a file of a few
// seconds ago could still be being copied in).
const whole = { preserveTimestamps: true }
cpSync(fixturePath('2004_HatchG.dwg'), join(seedDir, 'plan.dwg'), whole)
cpSync(fixturePath('2000_entities-2d.dwg'), join(seedDir, 'survey.dwg'), whole)
afterAll(() => rmSync(seedDir, { recursive: true, force: true }))

describe('the change bill in Chromium', () => {
  const server = useServer({ seedDir })
  const browser = useBrowser()

  it('extracts versions 1 and 2 of a drawing and shows what changed between them', async () => {
    const { page, problems } = browser()
    const api = await apiSignIn(server().url)
    const drawing = await findOne(api, 'plan.dwg')

    await signIn(page, server().url)
    await extractInTree(page, drawing, 1)
    expect(await waitUntilFinished(jobCard(page, 'plan.dwg, version 1'))).toBe('Done')

    // Version 2: the next version of the item, uploaded as a person would drop it in.
    const form = new FormData()
    form.set('projectId', drawing.projectId)
    form.set('folderId', drawing.folderId)
    form.set('itemId', drawing.item.id)
    const bytes = readFileSync(fixturePath('2000_TS1.dwg'))
    form.set('file', new Blob([bytes]), 'plan.dwg')
    const uploaded = await api.request('/api/local/upload', { method: 'POST', body: form })
    expect(uploaded.status, await uploaded.text()).toBe(201)

    await page.reload()
    await extractInTree(page, drawing, 2)
    const second = jobCard(page, 'plan.dwg, version 2')
    expect(await waitUntilFinished(second)).toBe('Done')

    await second.getByRole('link', { name: 'Changes since version 1' }).click()
    const bill = page.getByRole('region', { name: 'Change bill' })
    await bill
      .getByRole('heading', { name: 'Changes from plan.dwg, version 1 to plan.dwg, version 2' })
      .waitFor()
    // Layer 0's linework, kind by kind: its polylines shorter, a spline added.
    const polylines = bill.getByRole('row', { name: /Polylines on layer 0/ })
    await polylines.waitFor()
    const cells = await polylines.getByRole('cell').allTextContents()
    expect(cells).toEqual(['B6', '4.43', '1.20', '−3.23', '−72.9%', 'ft', 'changed'])
    const splines = bill.getByRole('row', { name: /Splines on layer 0/ })
    expect(await splines.getByRole('cell').allTextContents()).toEqual([
      'B7',
      '0.00',
      '1.17',
      '+1.17',
      '–',
      'ft',
      'added',
    ])
    expect(page.url()).toMatch(/\/compare\?from=[^&]+&to=[^&]+$/)

    // Beside it, the drawings: as many added and removed as the server's change bill names.
    const compared = new URL(page.url()).searchParams
    const answer = await api.request(`/api/boq/compare?${compared}`)
    const { entities } = v.parse(ChangeBillSchema, await answer.json())
    expect(entities.added.length).toBeGreaterThan(0)
    const changes = page.getByRole('complementary', { name: 'Drawing changes' })
    await changes
      .getByText(`${entities.added.length} added, ${entities.removed.length} removed`)
      .waitFor()
    // The newer drawing, drawn with the added entities in green.
    const ready = changes.getByRole('button', { name: 'Fit to view' }).and(page.locator(':enabled'))
    await ready.waitFor({ timeout: 60_000 })
    await changes.getByText(`${entities.added.length} added in green`).waitFor()
    const view = changes.getByRole('application', { name: /^Drawing of job/ })
    await expect
      .poll(async () => (await coloured(page, view)).green, PIXELS_SETTLE)
      .toBeGreaterThan(20)
    // Before: the older drawing, with the removed ones in red (when there are any).
    await changes.getByRole('button', { name: 'Before' }).click()
    await changes
      .getByText(
        entities.removed.length > 0
          ? `${entities.removed.length} removed in red`
          : 'Nothing added or removed',
      )
      .waitFor()
    await ready.waitFor({ timeout: 60_000 })
    const older = `Drawing of job ${compared.get('from')}:`
    expect(await view.getAttribute('aria-label')).toContain(older)
    if (entities.removed.length > 0) {
      await expect
        .poll(async () => (await coloured(page, view)).red, PIXELS_SETTLE)
        .toBeGreaterThan(20)
    }

    // Another drawing against version 2: said above the bill, and every line its own number
    // (version 2's block is A1, removed; survey.dwg's first block is A1 too, so it gets a new one).
    // Both have an area on layer 0 (survey.dwg's is its circle), so C1 is changed, not removed.
    const survey = await extractThroughApi(api, await findOne(api, 'survey.dwg'))
    await page.goto(`${server().url}/compare?from=${compared.get('to')}&to=${survey.id}`)
    const notice = bill.getByText('These are two different drawings: plan.dwg and survey.dwg.')
    await notice.waitFor()
    await bill.getByRole('row', { name: /BLOCK1/ }).waitFor()
    const numbers = await bill.locator('tbody tr td:first-child').allTextContents()
    // Layer 0's linework kind by kind: the kinds only version 2 has are removed under its numbers.
    expect(numbers.sort()).toEqual([
      'A1 (removed)',
      'A2',
      'A3',
      'B1',
      'B2',
      'B3',
      'B3 (removed)',
      'B4',
      'B5 (removed)',
      'B7 (removed)',
      'C1',
    ])
    expect(new Set(numbers).size).toBe(numbers.length)
    expect(
      await bill
        .getByRole('row', { name: /BLOCK1/ })
        .getByRole('cell')
        .first()
        .textContent(),
    ).toBe('A3')
    expect(unexpectedProblems(problems)).toEqual([])
    // Three extractions and two drawings drawn: more than one page's budget on a busy machine.
  }, 180_000)
})
