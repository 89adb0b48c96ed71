import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { exampleBoq } from '#contract/testing/boq.ts'
import type { DrawingSlotProps } from '../../features/results/components/drawing-slot'
import { fakeApi, requestsTo } from '../../testing/fake-api'
import { job, succeededJob } from '../../testing/fixtures'
import { server } from '../../testing/msw-server'
import { renderApp } from '../../testing/render-app'

// The drawing feature's view stands in as the agreed props describe it (its renderer is its own
// feature's to test): it says how many entities it highlights and picks the one asked.
vi.mock('../../features/drawing/components/drawing-view', () => ({
  DrawingView: ({ jobId, highlighted, onPick }: DrawingSlotProps) => (
    <div>
      <p>
        Drawing of {jobId}: {highlighted.length} highlighted
      </p>
      <button type="button" onClick={() => onPick('3B5')}>
        Pick 3B5
      </button>
    </div>
  ),
}))

// The renderer's code is fetched early (alongside the bill); jsdom has no use for it.
const renderer = vi.hoisted(() => ({ loads: 0 }))
vi.mock('../../features/drawing/viewer/load-viewer', () => {
  const load = async () => {
    renderer.loads++
    return async () => {
      throw new Error('No renderer in jsdom.')
    }
  }
  return { loadGeometryViewer: load }
})

const bill = () => screen.findByRole('table', { name: 'Bill' })

/** A succeeded job j1 of plan.dwg, version 3, whose kept bill is `content`. */
function keptBill(content = exampleBoq()) {
  fakeApi.jobs = [succeededJob({ id: 'j1', fileName: 'plan.dwg', fileVersionNumber: 3 })]
  fakeApi.results.j1 = { status: 200, body: content }
}

// Whole-app tests: generous time on a shared machine.
describe('the result page', { timeout: 20_000 }, () => {
  it('opens by its URL: the bill of the job, beside the drawing’s place', async () => {
    keptBill()
    const { user, router } = renderApp('/jobs/j1')
    expect(
      await screen.findByRole('heading', { name: 'Bill of plan.dwg, version 3' }),
    ).toBeInTheDocument()
    expect(
      within(await bill()).getByRole('rowheader', { name: 'CIRKLO_PUNKTOJ' }),
    ).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/jobs/j1')
    expect(requestsTo('/api/boq/jobs/j1/result.json')).toHaveLength(1)
    // The renderer's code and the drawing's geometry were asked for as the page opened, alongside
    // the bill (the drawing view here is a stand-in that fetches nothing).
    expect(renderer.loads).toBeGreaterThan(0)
    await waitFor(() => expect(requestsTo('/api/boq/jobs/j1/geometry')).toHaveLength(1))

    // The drawing beside the bill, kept in step with the selection both ways.
    const drawing = screen.getByRole('complementary', { name: 'Drawing' })
    expect(await within(drawing).findByText('Drawing of j1: 0 highlighted')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'bloko' }))
    expect(drawing).toHaveTextContent('Drawing of j1: 2 highlighted')
    await user.click(within(drawing).getByRole('button', { name: 'Pick 3B5' }))
    expect(screen.getByRole('button', { name: 'CIRKLO_PUNKTOJ' })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
    expect(drawing).toHaveTextContent('Drawing of j1: 8 highlighted')
  })

  it('shows the drawing while the bill is on its way: its geometry is asked before the bill answers', async () => {
    keptBill()
    let answerBill: (() => void) | undefined
    const billAsked = new Promise<void>((asked) => {
      server.use(
        http.get('*/api/boq/jobs/j1/result.json', async () => {
          asked()
          await new Promise<void>((resolve) => {
            answerBill = resolve
          })
          return HttpResponse.json(exampleBoq())
        }),
      )
    })
    renderApp('/jobs/j1')
    await billAsked
    const drawing = await screen.findByText('Drawing of j1: 0 highlighted')
    expect(screen.getByText('Loading the bill…')).toBeInTheDocument()
    await waitFor(() => expect(requestsTo('/api/boq/jobs/j1/geometry')).toHaveLength(1))
    expect(screen.queryByRole('table', { name: 'Bill' })).toBeNull()

    answerBill?.()
    expect(await bill()).toBeInTheDocument()
    // The same drawing, kept in its place as the bill came: not made again.
    expect(screen.getByText('Drawing of j1: 0 highlighted')).toBe(drawing)
  })

  it('says the server’s words for a job that is not the user’s', async () => {
    renderApp('/jobs/nope')
    expect(await screen.findByRole('alert')).toHaveTextContent('There is no such job.')
    expect(requestsTo('/api/boq/jobs/nope/result.json')).toHaveLength(0)
  })

  it('follows a job until it has run, then shows its bill', async () => {
    fakeApi.jobs = [job({ id: 'j1', status: 'queued', fileName: 'plan.dwg' })]
    fakeApi.results.j1 = { status: 200, body: exampleBoq() }
    renderApp('/jobs/j1')
    expect(await screen.findByText(/^Queued: the bill shows here/)).toBeInTheDocument()

    fakeApi.jobs = [job({ id: 'j1', status: 'running', fileName: 'plan.dwg', progress: 0.42 })]
    const bar = await screen.findByRole('progressbar', {}, { timeout: 5000 })
    expect(bar).toHaveAttribute('aria-valuenow', '42')

    fakeApi.jobs = [succeededJob({ id: 'j1', fileName: 'plan.dwg' })]
    expect(
      await screen.findByRole('table', { name: 'Bill' }, { timeout: 5000 }),
    ).toBeInTheDocument()
    // Finished: asked no more.
    const asked = requestsTo('/api/boq/jobs/j1').length
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(requestsTo('/api/boq/jobs/j1')).toHaveLength(asked)
  })

  it('says why a job failed', async () => {
    fakeApi.jobs = [
      job({
        id: 'j1',
        status: 'failed',
        fileName: 'bad.dwg',
        error: 'The file is not a DWG drawing.',
      }),
    ]
    renderApp('/jobs/j1')
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The extraction failed: The file is not a DWG drawing.',
    )
  })

  it('offers the files of a job made before bills were kept', async () => {
    const old = succeededJob({ id: 'j1', fileName: 'plan.dwg' })
    old.result = old.result && { ...old.result, jsonUrl: null }
    fakeApi.jobs = [old]
    renderApp('/jobs/j1')
    expect(await screen.findByText(/made before bills were kept/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Download XLSX' })).toHaveAttribute(
      'href',
      `${window.location.origin}/api/boq/jobs/j1/result.xlsx`,
    )
    expect(screen.queryByRole('link', { name: 'Download JSON' })).toBeNull()
  })

  it('says the server’s words when the bill cannot be read', async () => {
    fakeApi.jobs = [succeededJob({ id: 'j1' })]
    fakeApi.results.j1 = { status: 404, body: 'This job has no result yet.' }
    renderApp('/jobs/j1')
    expect(await screen.findByRole('alert')).toHaveTextContent('This job has no result yet.')
  })

  it('says so when the bill breaks the contract', async () => {
    fakeApi.jobs = [succeededJob({ id: 'j2' })]
    fakeApi.results.j2 = { status: 200, body: { ...exampleBoq(), bill: 'none' } }
    renderApp('/jobs/j2')
    expect(await screen.findByRole('alert')).toHaveTextContent(/Invalid type/)
  })

  it('opens from a finished job’s card in the jobs panel', async () => {
    keptBill()
    fakeApi.jobs.push(job({ id: 'j2', status: 'failed', fileName: 'bad.dwg', error: 'No.' }))
    const { user, router } = renderApp('/')
    const panel = await screen.findByRole('region', { name: 'Extraction jobs' })
    const cards = await within(panel).findAllByRole('listitem')
    expect(cards).toHaveLength(2)
    expect(within(cards[1] as HTMLElement).queryByRole('link', { name: 'Open result' })).toBeNull()
    await user.click(within(cards[0] as HTMLElement).getByRole('link', { name: 'Open result' }))
    expect(await bill()).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/jobs/j1')

    await user.click(screen.getByRole('link', { name: 'All extractions' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/jobs'))
  })

  it('loads the job and its bill while a link to it is hovered, not its drawing', async () => {
    keptBill()
    const { user, router } = renderApp('/jobs')
    const link = await screen.findByRole('link', { name: 'plan.dwg' })
    expect(requestsTo('/api/boq/jobs/j1')).toHaveLength(0)
    await user.hover(link)
    await waitFor(() => expect(requestsTo('/api/boq/jobs/j1/result.json')).toHaveLength(1))
    expect(requestsTo('/api/boq/jobs/j1')).toHaveLength(1)
    expect(requestsTo('/api/boq/jobs/j1/geometry')).toHaveLength(0)

    await user.click(link)
    expect(await bill()).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/jobs/j1')
    // The bill was not asked again; the drawing was, once the page opened.
    expect(requestsTo('/api/boq/jobs/j1/result.json')).toHaveLength(1)
    await waitFor(() => expect(requestsTo('/api/boq/jobs/j1/geometry')).toHaveLength(1))
  })
})
