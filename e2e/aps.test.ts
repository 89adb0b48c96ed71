/**
 * Autodesk mode end to end in Chromium: the real server (APS_* set) against the fake Autodesk.
 * 'Login with Autodesk' → the fake's login page → back signed in → browse to a .dwg version →
 * Extract → the BOQ lands in the fake's folder as a new item, then as version 2.
 */
import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SeedIds } from '../dev/fake-aps/seed.ts'
import { type FakeAps, startFakeAps } from '../dev/fake-aps/server.ts'
import { unexpectedProblems } from './support/browser.ts'
import { extractResponse } from './support/extract.ts'
import { useBrowser } from './support/hooks.ts'
import { type RunningServer, startServer } from './support/server.ts'
import { signIn } from './support/sign-in.ts'
import { expandPath, expandTreeItem, treeItem } from './support/tree.ts'

/** A free port on loopback: the callback URL registered with Autodesk must name the real one. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

describe('Autodesk mode in Chromium, against the fake Autodesk', () => {
  let fake: FakeAps
  let ids: SeedIds
  let server: RunningServer
  const browser = useBrowser()

  beforeAll(async () => {
    const port = await freePort()
    const callbackUrl = `http://127.0.0.1:${port}/api/aps/auth/callback`
    fake = await startFakeAps({ callbackUrls: [callbackUrl] })
    ids = fake.ids as SeedIds
    server = await startServer({
      env: {
        PORT: String(port),
        APS_CLIENT_ID: fake.client.clientId,
        APS_CLIENT_SECRET: fake.client.clientSecret,
        APS_CALLBACK_URL: callbackUrl,
        APS_BASE_URL: fake.url,
      },
    })
  })
  afterAll(async () => {
    await server?.stop()
    await fake?.close()
  })

  it('signs in at Autodesk, extracts a drawing, and writes the BOQ back as an item, then version 2', async () => {
    const { page, problems } = browser()
    let sawLoginPage = false
    await signIn(page, server.url, {
      atProvider: async (at) => {
        await at.getByRole('heading', { name: 'Autodesk sign-in (fake)' }).waitFor()
        sawLoginPage = new URL(at.url()).origin === fake.url
        await at.getByRole('button', { name: 'Allow' }).click()
      },
    })
    expect(sawLoginPage, 'the browser went through the fake Autodesk login page').toBe(true)

    await expandPath(page, [
      'ACC Demo Account',
      'Tower A',
      'Project Files',
      'Drawings',
      'sample.dwg',
    ])
    const versionRow = treeItem(page, /^\D*1\b.*Ada Lovelace/)
    await versionRow.waitFor()
    await versionRow.click()
    const extract = page.getByRole('button', { name: 'Extract BOQ' })
    await expect.poll(() => extract.isEnabled()).toBe(true)

    const resultName = 'sample BOQ.xlsx'
    const versionsOfResult = () =>
      fake.state.findItem(ids.drawingsId, resultName)?.versions.length ?? 0

    const first = await extractResponse(page, () => extract.click())
    expect(first.status(), await first.text()).toBe(202)
    expect(first.request().postDataJSON()).toMatchObject({
      fileName: 'sample.dwg',
      fileFolderId: ids.drawingsId,
      projectId: ids.projectId,
    })
    await expect.poll(versionsOfResult, { timeout: 60_000, interval: 250 }).toBe(1)
    const jobs = page.getByRole('region', { name: 'Extraction jobs' })
    await jobs
      .getByRole('listitem')
      .filter({ hasText: 'Done' })
      .first()
      .waitFor({ timeout: 30_000 })

    const second = await extractResponse(page, () => extract.click())
    expect(second.status(), await second.text()).toBe(202)
    await expect.poll(versionsOfResult, { timeout: 60_000, interval: 250 }).toBe(2)

    const item = fake.state.findItem(ids.drawingsId, resultName)
    const bytes = fake.state.objects.get(item?.versions[1]?.storageId ?? '')?.bytes
    expect(
      Buffer.from(bytes ?? [])
        .subarray(0, 2)
        .toString(),
      'an XLSX (zip) file',
    ).toBe('PK')
    expect(unexpectedProblems(problems, [/\/api\/aps\/auth\/token$/])).toEqual([])
  })

  it('shows the Autodesk profile, leaves hidden items out, and logs out', async () => {
    const { page, problems } = browser()
    await signIn(page, server.url, {
      atProvider: (at) => at.getByRole('button', { name: 'Allow' }).click(),
    })
    const avatar = page.getByRole('button', { name: 'User menu' }).locator('img')
    await expect.poll(() => avatar.getAttribute('src')).toBe(`${fake.url}/fake-profile/ada.png`)
    await expandPath(page, ['ACC Demo Account', 'Tower A'])
    await treeItem(page, 'Plans').waitFor()
    expect(await treeItem(page, 'Recycled').count(), 'hidden top folder').toBe(0)
    await expandPath(page, ['Project Files', 'Drawings'])
    await treeItem(page, 'sample.dwg').waitFor()
    expect(await treeItem(page, 'deleted.dwg').count(), 'hidden item').toBe(0)

    await page.getByRole('button', { name: 'User menu' }).click()
    await page.getByRole('button', { name: 'Logout' }).click()
    await page.waitForURL((address) => address.pathname === '/login')
    expect(unexpectedProblems(problems, [/\/api\/aps\/auth\/token$/])).toEqual([])
  })

  it('sends the user back to the login screen when Autodesk revoked the session', async () => {
    const { page, problems } = browser()
    await signIn(page, server.url, {
      atProvider: (at) => at.getByRole('button', { name: 'Allow' }).click(),
    })
    fake.state.expireAccessTokens()
    fake.state.revokeRefreshTokens()
    // The next call that reaches Autodesk (hubs and projects may come from the short per-user
    // cache) finds the token refused and the refresh revoked: the server ends the session (401,
    // cookie cleared), and the next navigation lands on the login screen.
    const refused = page.waitForResponse(
      (answer) =>
        new URL(answer.url()).pathname.startsWith('/api/aps/hubs/') && answer.status() === 401,
    )
    await expandPath(page, ['ACC Demo Account'])
    const projectsCached = await Promise.race([
      refused.then(() => false),
      treeItem(page, 'Tower A')
        .waitFor()
        .then(() => true),
    ])
    if (projectsCached) await expandTreeItem(page, 'Tower A')
    await refused
    await page.reload()
    await page.waitForURL((address) => address.pathname === '/login')
    await page.getByRole('button', { name: 'Login with Autodesk' }).waitFor()
    const expected = [
      /\/api\/aps\/auth\/token$/,
      /\/projects$/,
      /\/contents$/,
      /session has expired/i,
      // The app logs a tree load failure and shows an empty list.
      /Could not load the tree node/,
    ]
    expect(unexpectedProblems(problems, expected)).toEqual([])
  })
})
