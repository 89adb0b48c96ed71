/**
 * What the production build sends, measured as Chromium loads it: each screen within its gzip
 * budget (e2e/support/bundle-budget.ts; sizes are deterministic for a given build), /login
 * without the tree and the popover, and no screen with the Router or Query devtools. Each marker
 * is a string its library keeps through minification; the test first proves each marker is found
 * where the library is meant to be, so a marker that stops matching fails instead of passing.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from './support/browser.ts'
import {
  budgetKb,
  type FileScreenScripts,
  fileScreenScripts,
  gzipKbOf,
  loginScreenScripts,
  sizesOf,
} from './support/bundle-budget.ts'
import { useServer } from './support/hooks.ts'
import type { LoadedScript } from './support/scripts.ts'

const markers = {
  tree: 'aria-multiselectable', // react-arborist's tree container
  popover: 'data-radix-popper-content-wrapper', // @radix-ui/react-popover
  queryDevtools: 'tsqd-', // @tanstack/react-query-devtools' class names
  routerDevtools: 'TanStack Router Devtools',
}

const containing = (scripts: LoadedScript[], marker: string) =>
  scripts
    .filter((script) => script.body.includes(marker))
    .map((script) => new URL(script.url).pathname)

/** `92.7 kB /assets/index-….js, …` for a failure message. */
const listing = (scripts: LoadedScript[]) =>
  sizesOf(scripts)
    .map((size) => `${(size.gzip / 1000).toFixed(1)} kB ${new URL(size.url).pathname}`)
    .join(', ')

describe('the JavaScript each screen loads', () => {
  const server = useServer()
  let login: LoadedScript[] = []
  let files: FileScreenScripts = { asItOpens: [], userMenu: [] }
  let fileScreen: LoadedScript[] = []

  beforeAll(async () => {
    const browser = await launchBrowser()
    try {
      login = await loginScreenScripts(browser.page, server().url)
      files = await fileScreenScripts(browser.context, browser.page, server().url)
      fileScreen = [...files.asItOpens, ...files.userMenu]
    } finally {
      await browser.close()
    }
  })

  it(`/login, reached by opening / signed out, is at most ${budgetKb.login} kB gzip`, () => {
    expect(login.length).toBeGreaterThan(0)
    expect(gzipKbOf(sizesOf(login)), listing(login)).toBeLessThanOrEqual(budgetKb.login)
  })

  it(`the file-selection screen with its user menu opened is at most ${budgetKb.fileScreen} kB gzip`, () => {
    expect(files.asItOpens.length).toBeGreaterThan(0)
    // Opening the menu loads its popover: measured apart, or the budget would not cover it.
    expect(files.userMenu.length).toBeGreaterThan(0)
    expect(gzipKbOf(sizesOf(fileScreen)), listing(fileScreen)).toBeLessThanOrEqual(
      budgetKb.fileScreen,
    )
  })

  it('keeps the tree, the popover and the devtools out of /login, and the devtools out of all', () => {
    // The markers are real: the file screen with its user menu open has the tree and the popover.
    expect(containing(fileScreen, markers.tree)).not.toEqual([])
    expect(containing(files.userMenu, markers.popover)).not.toEqual([])

    expect(containing(login, markers.tree)).toEqual([])
    expect(containing(login, markers.popover)).toEqual([])
    for (const marker of [markers.queryDevtools, markers.routerDevtools]) {
      expect(containing([...login, ...fileScreen], marker)).toEqual([])
    }
  })
})
