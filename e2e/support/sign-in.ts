import type { Page } from 'playwright-core'

export const fileScreenHeading = 'Select the file from ACC to extract BOQ'

export interface SignInOptions {
  /**
   * Steps on the identity provider's own page, between the click on 'Login with Autodesk' and the
   * return to the app (Autodesk mode: the fake's login form). Local mode has no such page.
   */
  atProvider?: (page: Page) => Promise<void>
}

/**
 * Signs in the way a person does: open /login, click 'Login with Autodesk', follow the provider
 * back to the app, and wait for the file-selection screen.
 */
export async function signIn(page: Page, url: string, options: SignInOptions = {}): Promise<void> {
  await page.goto(`${url}/login`)
  await page.getByRole('button', { name: 'Login with Autodesk' }).click()
  if (options.atProvider) await options.atProvider(page)
  await page.waitForURL((address) => address.origin === url && address.pathname === '/')
  await page.getByRole('heading', { name: fileScreenHeading }).waitFor()
}
