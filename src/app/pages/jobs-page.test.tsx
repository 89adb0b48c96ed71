import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { exampleBoq } from '../../../contract/testing/boq'
import { formatDateTime } from '../../lib/format-date'
import { fakeApi } from '../../testing/fake-api'
import { job, succeededJob, writtenJob } from '../../testing/fixtures'
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
  it("lists the user's jobs newest first: drawing, version, status, progress, time", async () => {
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
      '1',
      'Running',
      '',
      formatDateTime('2024-03-04T07:00:00.000Z'),
    ])
    expect(within(running as HTMLElement).getByRole('progressbar')).toHaveAttribute(
      'aria-valuenow',
      '42',
    )
    expect(cells(written as HTMLElement).slice(0, 4)).toEqual([
      'plan.dwg',
      '3',
      'Done with warnings',
      '100%',
    ])
    expect(cells(failed as HTMLElement).slice(0, 3)).toEqual([
      'bad.dwg',
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

  it('says when there is no job yet', async () => {
    renderApp('/jobs')
    expect(await screen.findByText('No extractions yet.')).toBeInTheDocument()
  })
})
