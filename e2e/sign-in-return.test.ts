/**
 * Where signing in leads, end to end in Chromium against the real server (local mode, the sample
 * drawings seeded): a finished job's page opened signed out is the page the person lands on once
 * signed in; the header's Home button shows the file-selection screen at /home.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Job } from '#contract/jobs.ts'
import { apiSignIn, findOne } from './support/api.ts'
import { unexpectedProblems } from './support/browser.ts'
import { expectedWhileJobsAbsent } from './support/extract.ts'
import { extractThroughApi } from './support/extract-api.ts'
import { useBrowser, useServer } from './support/hooks.ts'
import { fileScreenHeading, signIn } from './support/sign-in.ts'

// The smallest seeded drawing keeps the extraction cheap.
const DRAWING = 'sample_2018.dwg'

describe('signing in leads back', () => {
  const server = useServer()
  const browser = useBrowser()
  let job: Job
  let jobsAbsent: RegExp[]

  beforeAll(async () => {
    jobsAbsent = await expectedWhileJobsAbsent(server().url)
    const api = await apiSignIn(server().url)
    job = await extractThroughApi(api, await findOne(api, DRAWING))
  })

  it('to the job page a signed-out visitor opened', async () => {
    const { page, problems } = browser()
    const jobPage = `${server().url}/jobs/${encodeURIComponent(job.id)}`
    await page.goto(jobPage)
    await page.waitForURL((address) => address.pathname === '/login')
    expect(new URL(page.url()).searchParams.get('returnTo')).toBe(`/jobs/${job.id}`)
    await page.getByRole('button', { name: 'Login with Autodesk' }).click()
    await page.waitForURL(jobPage)
    await page
      .getByRole('heading', { name: `Bill of ${job.fileName}, version ${job.fileVersionNumber}` })
      .waitFor()
    // The guard's token check answers 401 before the sign-in, which Chromium logs.
    expect(unexpectedProblems(problems, [...jobsAbsent, /\/api\/aps\/auth\/token$/])).toEqual([])
  })

  it('Home shows the file-selection screen at /home, on a reload too', async () => {
    const { page, problems } = browser()
    await signIn(page, server().url)
    await page.goto(`${server().url}/jobs`)
    await page.getByRole('link', { name: 'Back to the drawings' }).waitFor()
    await page.getByRole('button', { name: 'Home' }).click()
    await page.waitForURL(`${server().url}/home`)
    await page.getByRole('heading', { name: fileScreenHeading }).waitFor()
    await page.reload()
    await page.getByRole('heading', { name: fileScreenHeading }).waitFor()
    expect(new URL(page.url()).pathname).toBe('/home')
    expect(unexpectedProblems(problems, jobsAbsent)).toEqual([])
  })
})
