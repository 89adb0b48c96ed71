/** The public 404 page for any unknown path, and its 'Back Home' button to /. */
import { beforeAll, describe, expect, it } from 'vitest'
import { unexpectedProblems } from './support/browser.ts'
import { expectedWhileJobsAbsent } from './support/extract.ts'
import { useBrowser, useServer } from './support/hooks.ts'
import { fileScreenHeading, signIn } from './support/sign-in.ts'

const notFoundText = 'Sorry, the page you visited does not exist.'

describe('the 404 page', () => {
  const server = useServer()
  const browser = useBrowser()
  let jobsAbsent: RegExp[]
  beforeAll(async () => {
    jobsAbsent = await expectedWhileJobsAbsent(server().url)
  })

  it('shows to a signed-in user, and Back Home leads to the file screen', async () => {
    const { page, problems } = browser()
    await signIn(page, server().url)
    await page.goto(`${server().url}/no/such/page`)
    await page.getByText(notFoundText).waitFor()
    await page.getByRole('button', { name: 'Back Home' }).click()
    await page.waitForURL(`${server().url}/`)
    await page.getByRole('heading', { name: fileScreenHeading }).waitFor()
    expect(unexpectedProblems(problems, jobsAbsent)).toEqual([])
  })

  it('is public: shown without signing in; Back Home then meets the guard', async () => {
    const { page, problems } = browser()
    await page.goto(`${server().url}/not-a-page?x=1`)
    await page.getByText(notFoundText).waitFor()
    expect(new URL(page.url()).pathname).toBe('/not-a-page')
    await page.getByRole('button', { name: 'Back Home' }).click()
    await page.waitForURL(`${server().url}/login`)
    expect(unexpectedProblems(problems, [...jobsAbsent, /\/api\/aps\/auth\/token$/])).toEqual([])
  })

  it('is not served for unknown API paths, which answer 404 in plain text', async () => {
    const { page } = browser()
    const answer = await page.request.get(`${server().url}/api/no-such-thing`)
    expect(answer.status()).toBe(404)
    expect(answer.headers()['content-type']).toMatch(/^text\/plain/)
  })
})
