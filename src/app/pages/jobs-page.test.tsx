import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { exampleBoq } from '#contract/testing/boq.ts'
import { formatDateTime } from '../../lib/format-date'
import { fakeApi, ids, requestsTo } from '../../testing/fake-api'
import { comparedJob, job, succeededJob, writtenJob } from '../../testing/fixtures'
import { renderApp } from '../../testing/render-app'

// The result page's drawing is its own feature's to test.
vi.mock('../../features/drawing/components/drawing-view', () => ({ DrawingView: () => null }))

const rows = async () =>
  within(await screen.findByRole('table', { name: 'Extraction jobs' }))
    .getAllByRole('row')
    .slice(1)
const cells = (row: HTMLElement) => Array.from(row.querySelectorAll('th, td'), (c) => c.textContent)

// Whole-app tests: generous time on a shared machine.
describe('the jobs page', { timeout: 20_000 }, () => {
  it("lists the user's jobs newest first: drawing, project, version, status, progress, changes, time", async () => {
    fakeApi.jobs = [
      job({
        id: 'r',
        status: 'running',
        fileName: 'stair.dwg',
        fileVersionNumber: 1,
        progress: 0.42,
        createdAt: '2024-03-04T07:00:00.000Z',
      }),
      writtenJob({ id: 'w', fileName: 'plan.dwg', read: 3, warnings: ['No units.'] }),
      job({
        id: 'f',
        status: 'failed',
        fileName: 'bad.dwg',
        error: 'The file is not a DWG drawing.',
        createdAt: '2024-03-04T04:00:00.000Z',
      }),
    ]
    renderApp('/jobs')
    const [running, written, failed] = await rows()
    expect(cells(running as HTMLElement)).toEqual([
      'stair.dwg',
      'b.tower',
      '1',
      'Running',
      '',
      '–',
      formatDateTime('2024-03-04T07:00:00.000Z'),
    ])
    expect(within(running as HTMLElement).getByRole('progressbar')).toHaveAttribute(
      'aria-valuenow',
      '42',
    )
    expect(cells(written as HTMLElement).slice(0, 5)).toEqual([
      'plan.dwg',
      'b.tower',
      '3',
      'Done with warnings',
      '100%',
    ])
    expect(cells(failed as HTMLElement).slice(0, 4)).toEqual([
      'bad.dwg',
      'b.tower',
      '–',
      'FailedThe file is not a DWG drawing.',
    ])
  })

  it('opens a job’s result page from its drawing', async () => {
    fakeApi.jobs = [succeededJob({ id: 'j1', fileName: 'plan.dwg', fileVersionNumber: 2 })]
    fakeApi.results.j1 = { status: 200, body: exampleBoq() }
    const { user, router } = renderApp('/jobs')
    const [row] = await rows()
    await user.click(within(row as HTMLElement).getByRole('link', { name: 'plan.dwg' }))
    expect(
      await screen.findByRole('heading', { name: 'Bill of plan.dwg, version 2' }),
    ).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/jobs/j1')
    await user.click(screen.getByRole('link', { name: 'All extractions' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/jobs'))
    expect(await rows()).toHaveLength(1)
  })

  it('marks the jobs a watched folder started, and says how many lines changed', async () => {
    const base = writtenJob({ id: 'watched', fileName: 'plan.dwg', read: 7 })
    fakeApi.jobs = [
      {
        ...base,
        watchId: 'w1',
        result: {
          ...(base.result as NonNullable<typeof base.result>),
          comparedWith: { jobId: 'earlier', fileName: 'plan.dwg', versionNumber: 6 },
          changedLines: 12,
        },
      },
      writtenJob({ id: 'mine', fileName: 'mine.dwg' }),
    ]
    renderApp('/jobs')
    const [watched, mine] = await rows()
    expect(within(watched as HTMLElement).getByText('Watched folder')).toBeInTheDocument()
    expect(watched).toHaveTextContent('12 lines changed since version 6')
    expect(within(mine as HTMLElement).queryByText('Watched folder')).toBeNull()
    expect(mine).not.toHaveTextContent('changed since')
  })

  it('names each job’s project from the tree’s projects, with the folder under it', async () => {
    fakeApi.jobs = [
      writtenJob({
        id: 'a',
        fileName: 'plan.dwg',
        projectId: ids.tower,
        folder: { name: 'Plans', hubId: ids.hub },
      }),
      // No hub known: its project is found among the hubs already loaded.
      writtenJob({ id: 'b', fileName: 'site.dwg', projectId: ids.empty }),
      // A project no loaded hub has: its id is all there is to show.
      writtenJob({ id: 'c', fileName: 'old.dwg', projectId: 'b.gone' }),
    ]
    renderApp('/jobs')
    const projectOf = async (drawing: string) => {
      const row = screen.getByRole('rowheader', { name: drawing }).closest('tr') as HTMLElement
      return (row.querySelectorAll('td')[0] as HTMLElement).textContent
    }
    await rows()
    await waitFor(async () => expect(await projectOf('plan.dwg')).toBe('TowerPlans'))
    expect(await projectOf('site.dwg')).toBe('Empty project')
    expect(await projectOf('old.dwg')).toBe('b.gone')
    // The hub's projects were asked once, by the tree's own query.
    expect(requestsTo(`/api/aps/hubs/${ids.hub}/projects`)).toHaveLength(1)
  })

  it('links a bill compared with an earlier version’s to the change bill', async () => {
    fakeApi.jobs = [
      comparedJob(writtenJob({ id: 'v7', fileName: 'plan.dwg', read: 7 }), {
        jobId: 'v6',
        versionNumber: 6,
      }),
      // Compared with a bill kept without its job: said, with nothing to open.
      comparedJob(
        writtenJob({ id: 'v3', fileName: 'site.dwg', read: 3 }),
        { jobId: null, versionNumber: 2 },
        4,
      ),
    ]
    const { user, router } = renderApp('/jobs')
    const [plan, site] = await rows()
    expect(within(site as HTMLElement).queryByRole('link', { name: /changed/ })).toBeNull()
    expect(site).toHaveTextContent('4 lines changed since version 2')
    await user.click(
      within(plan as HTMLElement).getByRole('link', { name: 'Changes since version 6' }),
    )
    await waitFor(() => expect(router.state.location.pathname).toBe('/compare'))
    expect(router.state.location.search).toEqual({ from: 'v6', to: 'v7' })
  })

  describe('filtered', () => {
    const someJobs = () => [
      job({
        id: 'q',
        fileName: 'Stair.dwg',
        projectId: ids.tower,
        folder: { name: 'Plans', hubId: ids.hub, path: null },
        createdAt: '2024-03-04T09:00:00.000Z',
      }),
      job({
        id: 'f',
        status: 'failed',
        fileName: 'site plan.dwg',
        projectId: ids.empty,
        folder: { name: null, hubId: ids.hub, path: null },
        error: 'The file is not a DWG drawing.',
        createdAt: '2024-03-04T08:00:00.000Z',
      }),
      succeededJob({
        id: 's',
        fileName: 'plan.dwg',
        projectId: ids.tower,
        folder: { name: 'Plans', hubId: ids.hub, path: null },
        createdAt: '2024-03-04T07:00:00.000Z',
      }),
    ]
    const drawings = async () => (await rows()).map((row) => row.querySelector('th')?.textContent)
    const filterBar = () => screen.getByRole('form', { name: 'Filter the extractions' })

    it('by the drawing’s name, the project and the status, each kept in the address', async () => {
      fakeApi.jobs = someJobs()
      const { user, router } = renderApp('/jobs')
      expect(await drawings()).toEqual(['Stair.dwg', 'site plan.dwg', 'plan.dwg'])
      const bar = within(filterBar())

      await user.type(bar.getByRole('searchbox', { name: 'Drawing' }), 'PLAN')
      expect(await drawings()).toEqual(['site plan.dwg', 'plan.dwg'])
      expect(screen.getByText('2 of 3 extractions')).toBeInTheDocument()
      await waitFor(() => expect(router.state.location.search).toEqual({ drawing: 'PLAN' }))

      // The projects to choose from are the jobs', by name once the tree's hub answers.
      const project = bar.getByRole('combobox', { name: 'Project' })
      await waitFor(() =>
        expect(
          within(project)
            .getAllByRole('option')
            .map((o) => o.textContent),
        ).toEqual(['All projects', 'Empty project', 'Tower']),
      )
      await user.selectOptions(project, 'Tower')
      expect(await drawings()).toEqual(['plan.dwg'])
      await waitFor(() =>
        expect(router.state.location.search).toEqual({ drawing: 'PLAN', project: ids.tower }),
      )

      await user.selectOptions(bar.getByRole('combobox', { name: 'Status' }), 'Failed')
      expect(await screen.findByText('No extraction matches the filter.')).toBeInTheDocument()
      expect(screen.queryByRole('table', { name: 'Extraction jobs' })).toBeNull()
      await waitFor(() =>
        expect(router.state.location.search).toEqual({
          drawing: 'PLAN',
          project: ids.tower,
          status: 'failed',
        }),
      )

      await user.click(bar.getByRole('button', { name: 'Clear the filter' }))
      expect(await drawings()).toEqual(['Stair.dwg', 'site plan.dwg', 'plan.dwg'])
      expect(bar.getByRole('searchbox', { name: 'Drawing' })).toHaveValue('')
      await waitFor(() => expect(router.state.location.search).toEqual({}))
      expect(bar.queryByRole('button', { name: 'Clear the filter' })).toBeNull()
    })

    it('as an address names it; a part it cannot read is left out', async () => {
      fakeApi.jobs = someJobs()
      renderApp(`/jobs?drawing=plan&status=failed&project=${ids.empty}`)
      expect(await drawings()).toEqual(['site plan.dwg'])
      const bar = within(filterBar())
      expect(bar.getByRole('searchbox', { name: 'Drawing' })).toHaveValue('plan')
      expect(bar.getByRole('combobox', { name: 'Status' })).toHaveValue('failed')
      expect(bar.getByRole('combobox', { name: 'Project' })).toHaveValue(ids.empty)
    })

    it('ignores a status it does not know, and keeps a project no job has', async () => {
      fakeApi.jobs = someJobs()
      const { router } = renderApp('/jobs?status=bogus&project=b.gone')
      expect(await screen.findByText('No extraction matches the filter.')).toBeInTheDocument()
      expect(router.state.location.search).toEqual({ project: 'b.gone' })
      const bar = within(filterBar())
      expect(bar.getByRole('combobox', { name: 'Status' })).toHaveValue('')
      expect(bar.getByRole('combobox', { name: 'Project' })).toHaveValue('b.gone')
    })
  })

  it('says when there is no job yet', async () => {
    renderApp('/jobs')
    expect(await screen.findByText('No extractions yet.')).toBeInTheDocument()
  })
})
