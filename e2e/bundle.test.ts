/**
 * What the production build sends: /login loads neither the tree nor the popover, and no screen
 * loads the Router or Query devtools. (Sizes are in `npm run bench`, not here.) Each marker is a
 * string its library keeps through minification; the test first proves each marker is found where
 * the library is meant to be, so a marker that stops matching fails instead of passing quietly.
 */
import { describe, expect, it } from 'vitest'
import { useBrowser, useServer } from './support/hooks.ts'
import { javascriptLoadedBy, type LoadedScript } from './support/scripts.ts'
import { signIn } from './support/sign-in.ts'

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

describe('the JavaScript each screen loads', () => {
  const server = useServer()
  const browser = useBrowser()

  it('keeps the tree, the popover and the devtools out of /login, and the devtools out of all', async () => {
    const { page, context } = browser()
    const login = await javascriptLoadedBy(page, async () => {
      await page.goto(`${server().url}/login`)
      await page.getByRole('button', { name: 'Login with Autodesk' }).waitFor()
    })
    expect(login.length).toBeGreaterThan(0)

    await signIn(page, server().url)
    const filePage = await context.newPage()
    const files = await javascriptLoadedBy(filePage, async () => {
      await filePage.goto(`${server().url}/`)
      await filePage
        .getByRole('tree', { name: 'ACC files' })
        .getByRole('treeitem')
        .first()
        .waitFor()
      await filePage.getByRole('button', { name: 'User menu' }).click()
      await filePage.getByRole('button', { name: 'Logout' }).waitFor()
    })

    // The markers are real: the file screen with its user menu open has the tree and the popover.
    expect(containing(files, markers.tree)).not.toEqual([])
    expect(containing(files, markers.popover)).not.toEqual([])

    expect(containing(login, markers.tree)).toEqual([])
    expect(containing(login, markers.popover)).toEqual([])
    for (const marker of [markers.queryDevtools, markers.routerDevtools]) {
      expect(containing([...login, ...files], marker)).toEqual([])
    }
  })
})
