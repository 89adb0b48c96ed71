/**
 * The project bill end to end in Chromium, local mode, the real server and engine: a folder of four
 * drawings (2004_HatchG.dwg), one of them billed. The surveyor makes a bill over the folder from
 * the tree, sees the three with no bill yet and bills them in one click, and issues the bill as
 * "Tender". The folder is watched; the architects replace three drawings (2000_TS1.dwg copied over
 * them on disk), the watch bills their new versions, and the bill's page opens to the new total
 * and a change bill since the tender that says which drawing moved which amount.
 */
import { copyFile, cp, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Job } from '#contract/jobs.ts'
import { AssembledBillSchema } from '#contract/project-bills.ts'
import { decodeId } from '../server/cloud/local/ids.ts'
import { localCloudRoot } from '../server/cloud/local/local-cloud.ts'
import { fixturePath } from '../server/testing/boq/fixtures.ts'
import { type ApiClient, apiSignIn, type FoundItem, findOne } from './support/api.ts'
import { unexpectedProblems } from './support/browser.ts'
import { extractThroughApi } from './support/extract-api.ts'
import { useBrowser, useServer } from './support/hooks.ts'
import { signIn } from './support/sign-in.ts'
import { expandPath, treeItem } from './support/tree.ts'

const DRAWINGS = ['L1.dwg', 'L2.dwg', 'L3.dwg', 'Roof.dwg']
const REPLACED = ['L1.dwg', 'L2.dwg', 'L3.dwg']
const RULES = [
  { match: 'length', code: 'B.10', description: 'Linework', rate: 2 },
  { match: 'area', ignore: true },
  { match: 'count', code: 'D.10', description: 'Placed blocks', rate: 2.5 },
]

let seedDir: string

async function jobsOf(api: ApiClient): Promise<Job[]> {
  const response = await api.request('/api/boq/jobs')
  expect(response.status).toBe(200)
  return ((await response.json()) as { data: Job[] }).data
}

async function saveRules(api: ApiClient, projectId: string): Promise<void> {
  const path = `/api/boq/projects/${encodeURIComponent(projectId)}/rules`
  const current = await api.request(path)
  await current.body?.cancel()
  const saved = await api.request(path, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'if-match': current.headers.get('etag') ?? '' },
    body: JSON.stringify({ rules: RULES }),
  })
  expect(saved.status, await saved.text()).toBe(200)
}

describe('the project bill in Chromium (local mode)', () => {
  beforeAll(async () => {
    seedDir = await mkdtemp(join(tmpdir(), 'boq-e2e-project-bill-'))
    // With the fixture's times: the cloud takes it as whole at once. The seed spreads drawings
    // over its folders: the others are uploaded beside this one.
    await cp(fixturePath('2004_HatchG.dwg'), join(seedDir, 'L1.dwg'), { preserveTimestamps: true })
  })
  afterAll(async () => {
    await rm(seedDir, { recursive: true, force: true })
  })
  const server = useServer(() => ({ seedDir, env: { BOQ_WATCH_POLL_SECONDS: '1' } }))
  const browser = useBrowser()

  it('bills a folder, bills what has no bill in one click, issues it, and follows the replaced drawings', async () => {
    const { page, problems } = browser()
    const api = await apiSignIn(server().url)
    const first: FoundItem = await findOne(api, 'L1.dwg')
    for (const name of DRAWINGS.slice(1)) {
      const form = new FormData()
      form.set('projectId', first.projectId)
      form.set('folderId', first.folderId)
      form.set('file', new Blob([await readFile(fixturePath('2004_HatchG.dwg'))]), name)
      const uploaded = await api.request('/api/local/upload', { method: 'POST', body: form })
      expect(uploaded.status, await uploaded.text()).toBe(201)
    }
    await saveRules(api, first.projectId)
    await extractThroughApi(api, first)

    // The folder chosen in the tree: a new bill over it.
    await signIn(page, server().url)
    const folderTitles = first.titles.slice(0, -1)
    await expandPath(page, folderTitles)
    const folderRow = treeItem(page, folderTitles.at(-1) as string)
    await expect.poll(() => folderRow.getAttribute('aria-selected')).toBe('true')
    await page.getByRole('link', { name: 'New project bill…' }).click()
    await page.getByLabel('Bill name').fill('Plans')
    await page.getByRole('button', { name: 'Make the bill' }).click()
    await page.getByRole('heading', { name: 'Plans', level: 1 }).waitFor()
    const billId = page.url().split('/').at(-1) as string
    const billPath = `/api/boq/projects/${encodeURIComponent(first.projectId)}/bills/${billId}`

    // Three drawings with no bill yet, billed in one click.
    const drawings = page.getByRole('table', { name: 'Drawings' })
    for (const name of ['L2.dwg', 'L3.dwg', 'Roof.dwg']) {
      await drawings
        .getByRole('row', { name: new RegExp(name.replace('.', '\\.')) })
        .getByText('No bill yet')
        .waitFor()
    }
    await page.getByRole('button', { name: 'Extract the drawings with no bill yet (3)' }).click()
    await page.getByRole('status').getByText('3 extractions queued.').waitFor()
    // The page asks again while drawings are extracting: all four billed.
    await expect
      .poll(async () => drawings.getByText('Billed', { exact: true }).count(), { timeout: 90_000 })
      .toBe(4)
    const summary = page.getByRole('table', { name: 'Summary' })
    for (const name of DRAWINGS)
      await summary.getByRole('columnheader', { name: `${name} v1` }).waitFor()
    const tenderBill = v.parse(AssembledBillSchema, await (await api.request(billPath)).json())
    expect(tenderBill.priced.total).toBeGreaterThan(0)

    await page.getByLabel('Issue name').fill('Tender')
    await page.getByRole('button', { name: 'Issue the bill' }).click()
    await page
      .getByRole('status')
      .getByText(
        /^Issued as issue 1 \(Tender\); its workbook written as Plans BOQ\.xlsx version 1\.$/,
      )
      .waitFor()

    // Weeks later: the folder watched, the architects replace three drawings on disk.
    const watched = await api.request('/api/boq/watches', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: first.projectId, fileFolderId: first.folderId }),
    })
    expect(watched.status, await watched.text()).toBe(201)
    const rel = decodeId('folder', first.folderId)
    if (rel === undefined) throw new Error(`${first.folderId} is not a local folder id`)
    const folderDir = join(localCloudRoot(server().dataDir), ...rel.split('/'))
    for (const name of REPLACED) await copyFile(fixturePath('2000_TS1.dwg'), join(folderDir, name))
    await expect
      .poll(
        async () =>
          (await jobsOf(api)).filter((job) => job.watchId && job.status === 'succeeded').length,
        { timeout: 90_000 },
      )
      .toBe(3)

    // The bill opens to the new total and what moved it since the tender.
    await page.reload()
    await page.getByRole('heading', { name: 'Plans', level: 1 }).waitFor()
    const now = v.parse(AssembledBillSchema, await (await api.request(billPath)).json())
    expect(now.priced.total).not.toBe(tenderBill.priced.total)
    for (const name of REPLACED)
      await summary.getByRole('columnheader', { name: `${name} v2` }).waitFor()
    await summary
      .getByRole('row', { name: /Total/ })
      .getByText(
        now.priced.total.toLocaleString('en', {
          minimumFractionDigits: 2,
          maximumFractionDigits: 2,
        }),
      )
      .waitFor()
    const since = page.getByRole('region', { name: 'Since the last issue' })
    await since.getByText('Since issue 1 (Tender)').waitFor()
    for (const name of REPLACED) {
      await since
        .getByText(new RegExp(`^${name.replace('.', '\\.')} version 2: Linework `))
        .waitFor()
    }
    expect(await since.getByText(/^Roof\.dwg/).count()).toBe(0)

    await page.getByRole('button', { name: 'Compare' }).click()
    const changes = page.getByRole('table', { name: 'Changes from issue 1 (Tender) to now' })
    const linework = changes.getByRole('row', { name: /Linework/ })
    for (const name of REPLACED)
      await linework.getByText(new RegExp(`^${name.replace('.', '\\.')} v1 → v2: [+−]`)).waitFor()
    expect(await linework.getByText(/^Roof\.dwg/).count()).toBe(0)

    expect(unexpectedProblems(problems)).toEqual([])
  }, 300_000)
})
