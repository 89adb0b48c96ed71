import type { Query } from '@tanstack/react-query'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi, ids, requestsTo } from '../../../testing/fake-api'
import { item, job, succeededJob, watch, writtenJob } from '../../../testing/fixtures'
import { renderApp } from '../../../testing/render-app'
import { clickPath, findRow } from '../../../testing/tree-helpers'
import { type Job, jobsQueries, POLL_INTERVAL_MS, WATCHING_POLL_INTERVAL_MS } from '../api/jobs-api'

const panel = () => screen.getByRole('region', { name: 'Extraction jobs' })
const jobItem = async (text: string) =>
  (
    await within(await screen.findByRole('region', { name: 'Extraction jobs' })).findAllByRole(
      'listitem',
    )
  ).find((li) => li.textContent?.includes(text))

// Whole-app tests: generous time on a shared machine.
describe('jobs panel', { timeout: 20_000 }, () => {
  it("lists the user's jobs from the server (so they survive a reload)", async () => {
    fakeApi.jobs = [
      job({ id: 'q', status: 'queued', fileName: 'queued.dwg' }),
      job({ id: 'r', status: 'running', fileName: 'running.dwg', progress: 0.42 }),
      succeededJob({ id: 's', fileName: 'done.dwg' }),
      job({
        id: 'f',
        status: 'failed',
        fileName: 'bad.dwg',
        error: 'The file is not a DWG drawing.',
      }),
    ]
    renderApp('/')
    const queued = await jobItem('queued.dwg')
    expect(queued).toHaveTextContent('Queued')
    expect(within(queued as HTMLElement).queryByRole('progressbar')).toBeNull()

    const running = (await jobItem('running.dwg')) as HTMLElement
    expect(running).toHaveTextContent('Running')
    expect(within(running).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '42')

    const done = (await jobItem('done.dwg')) as HTMLElement
    expect(done).toHaveTextContent('Done')
    expect(done).toHaveTextContent('done BOQ.xlsx')
    expect(within(done).getByRole('link', { name: 'Download XLSX' })).toHaveAttribute(
      'href',
      `${window.location.origin}/api/boq/jobs/s/result.xlsx`,
    )
    expect(within(done).getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
      'href',
      `${window.location.origin}/api/boq/jobs/s/result.csv`,
    )

    const failed = (await jobItem('bad.dwg')) as HTMLElement
    expect(failed).toHaveTextContent('Failed')
    expect(failed).toHaveTextContent('The file is not a DWG drawing.')
    expect(within(failed).queryByRole('link')).toBeNull()
    expect(within(panel()).getAllByRole('listitem')).toHaveLength(4)
  })

  it('says which version was read and where the result was written', async () => {
    fakeApi.jobs = [
      writtenJob({
        id: 'known',
        fileName: 'plan.dwg',
        read: 3,
        folder: { name: 'Project Files', hubId: ids.hub, path: [ids.plans] },
        written: 2,
      }),
      writtenJob({ id: 'unknown', fileName: 'site.dwg', read: null }),
      job({ id: 'r', status: 'running', fileName: 'stair.dwg', fileVersionNumber: 1 }),
      job({ id: 'f', status: 'failed', fileName: 'bad.dwg', fileVersionNumber: 4, error: 'No.' }),
    ]
    renderApp('/')
    const known = (await jobItem('plan.dwg')) as HTMLElement
    expect(within(known).getByText('plan.dwg, version 3')).toBeInTheDocument()
    expect(known).toHaveTextContent('Written to Project Files as plan BOQ.xlsx, version 2')
    expect(within(known).getByRole('button', { name: 'Show in tree' })).toBeInTheDocument()
    expect(within(known).getByText('Done')).toBeInTheDocument()
    expect(known).not.toHaveTextContent('with warnings')

    // Where the server could not tell: the file name alone, and "the drawing's folder".
    const unknown = (await jobItem('site.dwg')) as HTMLElement
    expect(within(unknown).getByText('site.dwg')).toBeInTheDocument()
    expect(unknown).not.toHaveTextContent('version 1,')
    expect(unknown).toHaveTextContent("Written to the drawing's folder as site BOQ.xlsx, version 1")

    const running = (await jobItem('stair.dwg')) as HTMLElement
    expect(within(running).getByText('stair.dwg, version 1')).toBeInTheDocument()
    const failed = (await jobItem('bad.dwg')) as HTMLElement
    expect(within(failed).getByText('bad.dwg, version 4')).toBeInTheDocument()
    expect(within(failed).queryByRole('button', { name: 'Show in tree' })).toBeNull()
  })

  it('says "Done with warnings" and lists the first few, then how many more', async () => {
    fakeApi.jobs = [
      writtenJob({
        id: 'w',
        fileName: 'plan.dwg',
        warnings: ['Block "A" is not resolved.', 'No units.', 'An xref is missing.', 'Fourth.'],
        warningCount: 5,
      }),
      writtenJob({ id: 'one', fileName: 'one.dwg', warnings: ['Only this one.'] }),
    ]
    renderApp('/')
    const card = (await jobItem('plan.dwg')) as HTMLElement
    expect(card).toHaveTextContent('Done with warnings')
    const list = within(card).getByRole('list', { name: 'Warnings' })
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Block "A" is not resolved.', 'No units.', 'An xref is missing.'])
    expect(card).toHaveTextContent('and 2 more')

    const one = (await jobItem('one.dwg')) as HTMLElement
    expect(one).toHaveTextContent('Done with warnings')
    expect(within(one).getByRole('list', { name: 'Warnings' })).toHaveTextContent('Only this one.')
    expect(one).not.toHaveTextContent(/and \d+ more/)
  })

  it('marks a job a watched folder started, and says how many lines changed since the earlier version', async () => {
    const compared = (id: string, changedLines: number, versionNumber: number | null) => {
      const base = writtenJob({ id, fileName: `${id}.dwg` })
      return {
        ...base,
        watchId: 'w1',
        result: {
          ...(base.result as NonNullable<Job['result']>),
          comparedWith: { jobId: 'earlier', fileName: `${id}.dwg`, versionNumber },
          changedLines,
        },
      }
    }
    fakeApi.jobs = [
      compared('many', 12, 6),
      compared('one', 1, 6),
      compared('none', 0, 6),
      compared('unknown', 2, null),
      job({ id: 'mine', fileName: 'mine.dwg' }),
    ]
    renderApp('/')
    const many = (await jobItem('many.dwg')) as HTMLElement
    expect(within(many).getByText('Watched folder')).toHaveAttribute(
      'title',
      expect.stringContaining('folder you watch'),
    )
    expect(many).toHaveTextContent('12 lines changed since version 6')
    expect(await jobItem('one.dwg')).toHaveTextContent('1 line changed since version 6')
    expect(await jobItem('none.dwg')).toHaveTextContent('No lines changed since version 6')
    expect(await jobItem('unknown.dwg')).toHaveTextContent('2 lines changed since the earlier bill')
    // A job a person started bears no badge.
    const mine = (await jobItem('mine.dwg')) as HTMLElement
    expect(within(mine).queryByText('Watched folder')).toBeNull()
    expect(mine).not.toHaveTextContent('changed since')
  })

  it('polls while a job is queued or running, or a watched folder may start one', () => {
    const interval = jobsQueries.list().refetchInterval
    const withJobs = (jobs: Job[]) =>
      ({ state: { data: { data: jobs } } }) as unknown as Query<
        { data: Job[] },
        Error,
        { data: Job[] },
        readonly ['jobs', 'list']
      >
    expect(typeof interval).toBe('function')
    if (typeof interval !== 'function') return
    expect(interval(withJobs([job({ status: 'queued' })]))).toBe(POLL_INTERVAL_MS)
    expect(interval(withJobs([succeededJob(), job({ status: 'running' })]))).toBe(POLL_INTERVAL_MS)
    expect(interval(withJobs([succeededJob(), job({ status: 'failed' })]))).toBe(false)
    expect(interval(withJobs([]))).toBe(false)
    // A watched folder may start a job at any time: asked again, less often, with nothing running.
    const watching = jobsQueries.list({ watching: true }).refetchInterval
    if (typeof watching !== 'function') throw new Error('no interval')
    expect(watching(withJobs([]))).toBe(WATCHING_POLL_INTERVAL_MS)
    expect(watching(withJobs([job({ status: 'running' })]))).toBe(POLL_INTERVAL_MS)
  })

  it('follows a running job to done, then stops polling', async () => {
    fakeApi.jobs = [job({ id: 'r', status: 'running', fileName: 'floor.dwg', progress: 0.1 })]
    renderApp('/')
    expect(await jobItem('floor.dwg')).toHaveTextContent('Running')
    fakeApi.jobs = [succeededJob({ id: 'r', fileName: 'floor.dwg' })]
    await waitFor(async () => expect(await jobItem('floor.dwg')).toHaveTextContent('Done'), {
      timeout: POLL_INTERVAL_MS * 4,
    })
    const polls = requestsTo('/api/boq/jobs').length
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS * 1.5))
    expect(requestsTo('/api/boq/jobs')).toHaveLength(polls)
  })

  it('does not poll when no job is active', async () => {
    fakeApi.jobs = [succeededJob({ fileName: 'old.dwg' })]
    renderApp('/')
    await jobItem('old.dwg')
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS * 1.5))
    expect(requestsTo('/api/boq/jobs')).toHaveLength(1)
  })

  it('shows the new job right after a successful POST, beside the specified info message', async () => {
    const app = renderApp('/')
    await screen.findByText('No jobs yet.')
    await clickPath(app.user, ['Demo Hub', 'Tower', 'Plans', 'floor.dwg', /^2 /])
    await app.user.click(screen.getByRole('button', { name: 'Extract BOQ' }))
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Extracting...Please wait a few minutes',
    )
    expect(await jobItem('floor.dwg')).toHaveTextContent('Queued')
  })

  it('after a job succeeds, the folder it wrote into shows the new file on its next expand', async () => {
    const app = renderApp('/')
    await clickPath(app.user, ['Demo Hub', 'Tower', 'Plans', 'floor.dwg', /^2 /])
    await app.user.click(screen.getByRole('button', { name: 'Extract BOQ' }))
    expect(await jobItem('floor.dwg')).toHaveTextContent('Queued')
    await clickPath(app.user, ['Plans']) // collapse the folder while the job runs
    await waitFor(() => expect(screen.queryByRole('treeitem', { name: 'floor.dwg' })).toBeNull())
    const folderLoads = () =>
      requestsTo(`/api/aps/hubs/${ids.hub}/projects/${ids.tower}/contents`).filter(
        (r) => r.url.searchParams.get('folder_id') === ids.plans,
      ).length
    expect(folderLoads()).toBe(1)

    // The server finishes the job and writes the BOQ beside the drawing.
    const [created] = fakeApi.jobs
    fakeApi.contents[ids.plans]?.push(item('floor BOQ.xlsx'))
    expect(created).toMatchObject({ fileFolderId: ids.plans, projectId: ids.tower })
    fakeApi.jobs = [
      succeededJob({
        id: created?.id,
        fileName: 'floor.dwg',
        fileFolderId: ids.plans,
        projectId: ids.tower,
      }),
    ]
    await waitFor(async () => expect(await jobItem('floor.dwg')).toHaveTextContent('Done'), {
      timeout: POLL_INTERVAL_MS * 4,
    })

    await clickPath(app.user, ['Plans'])
    expect(await findRow('floor BOQ.xlsx')).toBeInTheDocument()
    expect(folderLoads()).toBe(2)
  })

  it('with a folder watched, a job that started and finished by itself shows, and its folder reloads', async () => {
    fakeApi.watches = [watch({ fileFolderId: ids.plans, projectId: ids.tower })]
    const app = renderApp('/')
    await screen.findByText('No jobs yet.')
    // The watched folder's row ends with its mark ("Plans Watched").
    await clickPath(app.user, ['Demo Hub', 'Tower', /^Plans/])
    await findRow('floor.dwg')
    await clickPath(app.user, [/^Plans/]) // closed: its next expand loads it again if told to
    fakeApi.contents[ids.plans]?.push(item('floor BOQ.xlsx'))
    // Queued, run and finished on the server between two of the list's requests.
    fakeApi.jobs = [
      succeededJob({
        fileName: 'floor.dwg',
        fileFolderId: ids.plans,
        projectId: ids.tower,
        watchId: 'w1',
      }),
    ]
    await waitFor(async () => expect(await jobItem('floor.dwg')).toHaveTextContent('Done'), {
      timeout: WATCHING_POLL_INTERVAL_MS * 2,
    })
    await clickPath(app.user, [/^Plans/])
    expect(await findRow('floor BOQ.xlsx')).toBeInTheDocument()
  })

  it('reloads an open folder at once when its job succeeds', async () => {
    fakeApi.jobs = [
      job({ id: 'r', status: 'running', fileFolderId: ids.plans, projectId: ids.tower }),
    ]
    const app = renderApp('/')
    await clickPath(app.user, ['Demo Hub', 'Tower', 'Plans'])
    await findRow('floor.dwg')
    fakeApi.contents[ids.plans]?.push(item('floor BOQ.xlsx'))
    fakeApi.jobs = [succeededJob({ id: 'r', fileFolderId: ids.plans, projectId: ids.tower })]
    expect(await findRow('floor BOQ.xlsx')).toBeInTheDocument()
  })

  it('does not touch the tree for jobs that had already succeeded when the page loaded', async () => {
    fakeApi.jobs = [succeededJob({ fileFolderId: ids.plans, projectId: ids.tower })]
    const app = renderApp('/')
    await clickPath(app.user, ['Demo Hub', 'Tower', 'Plans'])
    await findRow('floor.dwg')
    await clickPath(app.user, ['Plans', 'Plans'])
    await findRow('floor.dwg')
    expect(
      requestsTo(`/api/aps/hubs/${ids.hub}/projects/${ids.tower}/contents`).filter(
        (r) => r.url.searchParams.get('folder_id') === ids.plans,
      ),
    ).toHaveLength(1)
  })
})
