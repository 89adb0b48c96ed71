import { gzipSync } from 'node:zlib'
import type { BrowserContext, Page } from 'playwright-core'
import { javascriptLoadedBy, type LoadedScript } from './scripts.ts'
import { signIn } from './sign-in.ts'

/**
 * What each screen may make a visitor download, in kB of gzip (kB = 1000 bytes, zlib's default
 * level, as Vite's build report counts): the sum over every JavaScript response, entry, preloaded
 * and lazily loaded chunks alike. Shared by the bench (prints) and e2e/bundle.test.ts (enforces).
 */
export const budgetKb = {
  /** /login as a signed-out visitor reaches it: by opening /, whose guard sends them there. */
  login: 120,
  /** The file-selection screen once its user menu has been opened. */
  fileScreen: 200,
}

export interface ScriptSize {
  url: string
  bytes: number
  gzip: number
}

export function sizesOf(scripts: LoadedScript[]): ScriptSize[] {
  return scripts
    .map(({ url, body }) => ({ url, bytes: body.length, gzip: gzipSync(body).length }))
    .sort((x, y) => y.gzip - x.gzip)
}

export const gzipKbOf = (sizes: ScriptSize[]) =>
  sizes.reduce((sum, size) => sum + size.gzip, 0) / 1000

/** A signed-out visitor opens / and lands on /login: everything that took. */
export function loginScreenScripts(page: Page, url: string): Promise<LoadedScript[]> {
  return javascriptLoadedBy(page, async () => {
    await page.goto(`${url}/`)
    await page.waitForURL(`${url}/login`)
    await page.getByRole('button', { name: 'Login with Autodesk' }).waitFor()
  })
}

export interface FileScreenScripts {
  /** What / loads until the tree shows its first row. */
  asItOpens: LoadedScript[]
  /** What opening the user menu loads on top (its popover). */
  userMenu: LoadedScript[]
}

/**
 * Signs in on `page`, then opens / in a new tab of `context` (so nothing is cached from the sign-in)
 * and opens the user menu there.
 */
export async function fileScreenScripts(
  context: BrowserContext,
  page: Page,
  url: string,
): Promise<FileScreenScripts> {
  await signIn(page, url)
  const filePage = await context.newPage()
  const asItOpens = await javascriptLoadedBy(filePage, async () => {
    await filePage.goto(`${url}/`)
    await filePage.getByRole('tree', { name: 'ACC files' }).getByRole('treeitem').first().waitFor()
  })
  const userMenu = await javascriptLoadedBy(filePage, async () => {
    await filePage.getByRole('button', { name: 'User menu' }).click()
    await filePage.getByRole('button', { name: 'Logout' }).waitFor()
  })
  return { asItOpens, userMenu }
}
