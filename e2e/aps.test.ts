/**
 * Autodesk mode end to end in Chromium: the real server (APS_* set) against the fake Autodesk.
 * 'Login with Autodesk' → the fake's login page → back signed in → browse to a .dwg version →
 * Extract → the BOQ lands in the fake's folder as a new item, then as version 2.
 */
import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SeedIds } from '../server/testing/fake-aps/seed.ts'
import { type FakeAps, startFakeAps } from '../server/testing/fake-aps/server.ts'
import { unexpectedProblems } from './support/browser.ts'
import { extractResponse } from './support/extract.ts'
import { useBrowser } from './support/hooks.ts'
import { type RunningServer, startServer } from './support/server.ts'
import { signIn } from './support/sign-in.ts'
import { expandPath, treeItem } from './support/tree.ts'

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
})
