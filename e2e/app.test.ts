/**
 * The app end to end in Chromium against the real server (local mode, fresh data folder seeded
 * with the sample drawings): the guard, sign-in, browsing down to a .dwg version, Extract, the
 * header, logout. Paths through the tree are found through the API, not hard-coded.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import {
  apiSignIn,
  type FoundItem,
  findItems,
  type JsonApiObject,
  titleOf,
  versionsOf,
} from './support/api.ts'
import { unexpectedProblems } from './support/browser.ts'
import {
  expectExtractOutcome,
  expectedWhileJobsAbsent,
  extractResponse,
} from './support/extract.ts'
import { useBrowser, useServer } from './support/hooks.ts'
import { fileScreenHeading, signIn } from './support/sign-in.ts'
import { expandPath, treeItem } from './support/tree.ts'

// A zone far from UTC with a 45-minute offset: a title formatted in UTC (or any other zone) shows.
const timezoneId = 'Asia/Kathmandu'

/** `YYYY-MM-DD HH:mm:ss` in `timeZone`, as the tree must show a version's createTime. */
function localTime(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(iso))
  const part = (type: string) => parts.find((p) => p.type === type)?.value
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The version row's title: number, createTime in the browser's zone, last modifier, in order. */
function versionTitle(version: JsonApiObject): RegExp {
  const { versionNumber, createTime, lastModifiedUserName } = version.attributes
  return new RegExp(
    `^\\D*${versionNumber}\\b.*${escapeRegExp(localTime(String(createTime), timezoneId))}.*${escapeRegExp(String(lastModifiedUserName))}`,
  )
}

describe('BOQ in Chromium', () => {
  const server = useServer()
  const browser = useBrowser({ timezoneId })
  let drawing: FoundItem
  let version: JsonApiObject
  let jobsAbsent: RegExp[]

  beforeAll(async () => {
    jobsAbsent = await expectedWhileJobsAbsent(server().url)
    const api = await apiSignIn(server().url)
    const drawings = await findItems(api, (item) => titleOf(item).endsWith('.dwg'))
    expect(drawings.length, 'the seed put .dwg drawings into the local cloud').toBeGreaterThan(0)
    // The smallest seeded drawing keeps a real extraction (once jobs exist) cheap.
    drawing = drawings.find((found) => found.titles.at(-1) === 'sample_2018.dwg') ?? drawings[0]
    ;[version] = await versionsOf(api, drawing)
  })

  it('sends a visitor who is not signed in to /login, from / and from /home', async () => {
    const { page, problems } = browser()
    for (const path of ['/', '/home']) {
      await page.goto(`${server().url}${path}`)
      // From /home the sign-in leads back there (?returnTo=/home).
      await page.waitForURL((address) => address.pathname === '/login')
      await page.getByRole('heading', { name: 'BOQ' }).waitFor()
      await page.getByRole('button', { name: 'Login with Autodesk' }).waitFor()
      await page.getByText('App description').waitFor()
    }
    // The guard's token check answers 401 here, which Chromium logs: expected, nothing else.
    expect(unexpectedProblems(problems, [...jobsAbsent, /\/api\/aps\/auth\/token$/])).toEqual([])
  })

  it('signs in, browses hub → project → folder → item, selects the .dwg version and extracts', async () => {
    const { page, problems } = browser()
    await signIn(page, server().url)
    const extract = page.getByRole('button', { name: 'Extract BOQ' })
    expect(await extract.isDisabled(), 'Extract is disabled with nothing selected').toBe(true)

    await expandPath(page, drawing.titles)
    const versionRow = treeItem(page, versionTitle(version))
    await versionRow.waitFor()
    await versionRow.click()
    await expect.poll(() => versionRow.getAttribute('aria-selected')).toBe('true')
    await expect
      .poll(() => extract.isEnabled(), { message: 'Extract is enabled for a .dwg version' })
      .toBe(true)

    const response = await extractResponse(page, () => extract.click())
    expect(response.request().postDataJSON()).toEqual({
      fileName: drawing.titles.at(-1),
      fileStorageId: version.relationships?.storage?.data?.id,
      fileFolderId: drawing.folderId,
      projectId: drawing.projectId,
    })
    const expected = await expectExtractOutcome(page, response)
    expect(unexpectedProblems(problems, [...jobsAbsent, ...expected])).toEqual([])
  })

  it('has a header with the company link, Home, the user menu and Help', async () => {
    const { page, problems } = browser()
    await signIn(page, server().url)
    const company = page.getByRole('link', { name: 'Company site' })
    expect(await company.getAttribute('href')).toMatch(/^https?:\/\//)
    await page.getByRole('button', { name: 'Help' }).waitFor()
    await page.goto(`${server().url}/jobs`)
    await page.getByRole('link', { name: 'Back to the drawings' }).waitFor()
    await page.getByRole('button', { name: 'Home' }).click()
    await page.waitForURL(`${server().url}/home`)
    await page.getByRole('heading', { name: fileScreenHeading }).waitFor()
    expect(unexpectedProblems(problems, jobsAbsent)).toEqual([])
  })

  it('logs out from the user menu: back at /login, and the token answers 401', async () => {
    const { page, problems } = browser()
    await signIn(page, server().url)
    await page.getByRole('button', { name: 'User menu' }).click()
    await page.getByRole('button', { name: 'Logout' }).click()
    await page.waitForURL(`${server().url}/login`)
    await page.getByRole('button', { name: 'Login with Autodesk' }).waitFor()

    const token = await page.request.get(`${server().url}/api/aps/auth/token`)
    expect(token.status()).toBe(401)
    await page.goto(`${server().url}/`)
    await page.waitForURL(`${server().url}/login`)
    expect(unexpectedProblems(problems, [...jobsAbsent, /\/api\/aps\/auth\/token$/])).toEqual([])
  })
})
