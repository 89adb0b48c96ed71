/**
 * Watched folders in Chromium, local mode, against the real server and engine on the sample
 * drawings, the poller looking every second: the folder holding example_2018.dwg is selected and
 * watched from under the tree; drawings copied into it by hand on disk get their bill by
 * themselves (a job badged "Watched folder", its BOQ written beside the drawing), a second version
 * saying how many lines changed since the first; once the folder is no longer watched, a drawing
 * copied there starts nothing.
 */
import { copyFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Job } from '#contract/jobs.ts'
import { decodeId } from '../server/cloud/local/ids.ts'
import { localCloudRoot } from '../server/cloud/local/local-cloud.ts'
import { fixturePath } from '../server/testing/boq/fixtures.ts'
import { type ApiClient, apiSignIn, type FoundItem, findOne } from './support/api.ts'
import { unexpectedProblems } from './support/browser.ts'
import { useBrowser, useServer } from './support/hooks.ts'
import { jobCard, jobsPanel, waitUntilFinished } from './support/jobs.ts'
import { fileScreenHeading, signIn } from './support/sign-in.ts'
import { expandPath, treeItem } from './support/tree.ts'

const SEEDED = 'example_2018.dwg'
const DROPPED = 'revised.dwg'
const WRITTEN = 'revised BOQ.xlsx'
/** A drawing copied into the folder once it is no longer watched. */
const IGNORED = 'unwatched.dwg'
/** Copied over the first as its version 2: a tiny drawing of one closed polyline. */
const CHANGED = 'sample_2018.dwg'

/** The user's jobs as the server lists them, newest first. */
async function jobsOf(api: ApiClient): Promise<Job[]> {
  const response = await api.request('/api/boq/jobs')
  expect(response.status).toBe(200)
  return ((await response.json()) as { data: Job[] }).data
}

/** The version number of each job, newest first. */
async function versionsQueued(api: ApiClient): Promise<(number | null)[]> {
  return (await jobsOf(api)).map((job) => job.fileVersionNumber)
}

/** Opens the file-selection screen again, as a person reloading the page. */
async function openAgain(page: Page): Promise<void> {
  await page.reload()
  await page.getByRole('heading', { name: fileScreenHeading }).waitFor()
}

describe('watched folders in Chromium (local mode)', () => {
  const server = useServer({ env: { BOQ_WATCH_POLL_SECONDS: '1' } })
  const browser = useBrowser()
  let seeded: FoundItem
  /** The watched folder on disk, inside the data folder's local cloud. */
  let folderDir: string

  beforeAll(async () => {
    seeded = await findOne(await apiSignIn(server().url), SEEDED)
    const rel = decodeId('folder', seeded.folderId)
    if (rel === undefined) throw new Error(`${seeded.folderId} is not a local folder id`)
    folderDir = join(localCloudRoot(server().dataDir), ...rel.split('/'))
  })

  it('extracts drawings copied by hand into a watched folder, and none once it is not watched', async () => {
    const { page, problems } = browser()
    const api = await apiSignIn(server().url)
    await signIn(page, server().url)

    // The folder holding the sample drawing, selected (the last row opened), then watched.
    const folderTitles = seeded.titles.slice(0, -1)
    const folderTitle = folderTitles.at(-1) as string
    await expandPath(page, folderTitles)
    const folderRow = treeItem(page, folderTitle)
    await expect.poll(() => folderRow.getAttribute('aria-selected')).toBe('true')
    const actions = page.getByRole('group', { name: 'Watching the selected folder' })
    await actions.getByRole('button', { name: 'Watch this folder' }).click()
    await actions.getByRole('button', { name: 'Stop watching' }).waitFor()
    await actions.getByText('Watched', { exact: true }).waitFor()
    const markedRow = treeItem(page, new RegExp(`^${folderTitle}\\s*Watched$`))
    await markedRow.waitFor()
    const watchedList = page.getByRole('region', { name: 'Watched folders' })
    const watchedFolder = watchedList.getByRole('listitem').filter({ hasText: folderTitle })
    await watchedFolder.getByText('Watched', { exact: true }).waitFor()
    expect(await watchedList.getByRole('listitem').count()).toBe(1)
    // What the folder held before is not extracted.
    expect(await jobsOf(api)).toEqual([])

    // Version 1, copied by hand: the server queues a job of its own for it, in the user's name.
    await copyFile(fixturePath(SEEDED), join(folderDir, DROPPED))
    await expect.poll(() => versionsQueued(api), { timeout: 30_000 }).toEqual([1])
    // The panel, asking again while a folder is watched, shows it by itself and follows it.
    const first = jobCard(page, `${DROPPED}, version 1`)
    await first.getByText('Watched folder', { exact: true }).waitFor()
    expect(await waitUntilFinished(first), (await first.textContent()) ?? '').toMatch(/^Done/)
    await first.getByText(`as ${WRITTEN}, version 1`).waitFor()
    expect((await stat(join(folderDir, WRITTEN))).isFile()).toBe(true)

    // Version 2, another drawing copied over it: its bill is compared with version 1's.
    await copyFile(fixturePath(CHANGED), join(folderDir, DROPPED))
    await expect.poll(() => versionsQueued(api), { timeout: 30_000 }).toEqual([2, 1])
    const second = jobCard(page, `${DROPPED}, version 2`)
    await second.getByText('Watched folder', { exact: true }).waitFor()
    expect(await waitUntilFinished(second), (await second.textContent()) ?? '').toMatch(/^Done/)
    await second.getByText(`as ${WRITTEN}, version 2`).waitFor()
    // The bills of two different drawings, read by the same engine: the same count on every run.
    await second.getByText(/^\d+ lines? changed since version 1$/).waitFor()
    await second.getByText('18 lines changed since version 1', { exact: true }).waitFor()
    const watchJobs = await jobsOf(api)
    expect(watchJobs.every((job) => typeof job.watchId === 'string')).toBe(true)

    // Stop watching from the list: the list is empty and the folder's row unmarked.
    await expandPath(page, folderTitles.slice(0, -1))
    await markedRow.waitFor()
    await watchedFolder.getByRole('button', { name: 'Stop watching' }).click()
    await watchedList.getByText(/^None\. Select a folder/).waitFor()
    expect(await watchedList.getByRole('listitem').count()).toBe(0)
    await folderRow.waitFor()
    expect(await markedRow.count()).toBe(0)

    // A drawing copied there now starts nothing: the tree, loaded afresh, lists it, and no job is
    // queued for it.
    await copyFile(fixturePath(SEEDED), join(folderDir, IGNORED))
    await openAgain(page)
    await expandPath(page, folderTitles)
    await treeItem(page, IGNORED).waitFor()
    // Three looks of the poller (every second), were it still looking at the folder.
    await page.waitForTimeout(3_000)
    expect((await jobsOf(api)).map((job) => job.id)).toEqual(watchJobs.map((job) => job.id))
    await openAgain(page)
    await second.waitFor()
    expect(
      await jobsPanel(page)
        .getByText(/^revised\.dwg, version \d$/)
        .count(),
    ).toBe(2)
    expect(await jobsPanel(page).getByText(IGNORED).count()).toBe(0)

    expect(unexpectedProblems(problems)).toEqual([])
  }, 180_000)
})
