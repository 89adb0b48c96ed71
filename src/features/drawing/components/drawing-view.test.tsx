import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { encodeGeometry } from '#contract/drawing-geometry.ts'
import { geometryOf } from '#contract/testing/drawing-geometry.ts'
import { fakeApi } from '../../../testing/fake-api'
import { server } from '../../../testing/msw-server'
import type { DrawingMarks, DrawingViewer } from '../viewer/drawing-viewer'
import { DrawingView } from './drawing-view'

// The API is MSW's (src/testing/handlers.ts); the renderer is faked at its seam
// (viewer/drawing-viewer.ts): what the view asks of it, and what it says, are checked here; drawing itself is checked in Chromium (e2e/drawing-view.test.ts).

const fake = vi.hoisted(() => ({
  created: [] as HTMLElement[],
  viewer: undefined as unknown as DrawingViewer,
  inDrawing: new Set<string>(),
}))

vi.mock('../viewer/load-viewer', () => ({
  loadGeometryViewer: async () => async (container: HTMLElement) => {
    fake.created.push(container)
    return fake.viewer
  },
}))

const NOT_GEOMETRY = new Uint8Array([0x41, 0x43, 0x31, 0x30, 0x33, 0x32])
const GEOMETRY = encodeGeometry(geometryOf({ handles: ['1C8', '250'], points: [0, 0, 5, 5] }))
/** A drawing of 3D solids only: their handles in model space, nothing the view can draw. */
const SOLIDS_ONLY = encodeGeometry(geometryOf({ handles: ['2A', '2B'] }))

function fakeViewer(): DrawingViewer {
  return {
    open: vi.fn(async () => {}),
    highlight: vi.fn((handles: readonly string[]) => handles.filter((h) => fake.inDrawing.has(h))),
    mark: vi.fn(({ added, removed }: DrawingMarks) => ({
      added: added.filter((h) => fake.inDrawing.has(h)),
      removed: removed.filter((h) => fake.inDrawing.has(h)),
    })),
    label: vi.fn(),
    zoomToHandles: vi.fn(),
    fit: vi.fn(),
    zoom: vi.fn(),
    handleAt: vi.fn(() => '1C8'),
    destroy: vi.fn(async () => {}),
  }
}

beforeEach(() => {
  fake.created = []
  fake.viewer = fakeViewer()
  fakeApi.geometries = {
    'job-1': GEOMETRY,
    'job-bad-geometry': NOT_GEOMETRY,
    'job-solids': SOLIDS_ONLY,
  }
  fake.inDrawing = new Set(['1C8', '250', '251'])
})

/** Where a job's geometry is, as its Job says. */
const geometryUrl = (jobId: string) => `/api/boq/jobs/${jobId}/geometry`

function renderView(props: {
  jobId?: string
  geometryUrl?: string
  highlighted?: string[]
  ringed?: boolean
  notMeasured?: { type: string; count: number }[]
  onPick?: (h: string) => void
}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const onPick = props.onPick ?? vi.fn()
  const view = (highlighted: string[]) => (
    <QueryClientProvider client={client}>
      <DrawingView
        jobId={props.jobId ?? 'job-1'}
        geometryUrl={props.geometryUrl ?? geometryUrl(props.jobId ?? 'job-1')}
        highlighted={highlighted}
        ringed={props.ringed}
        notMeasured={props.notMeasured}
        onPick={onPick}
      />
    </QueryClientProvider>
  )
  const result = render(view(props.highlighted ?? []))
  return { ...result, onPick, highlight: (h: string[]) => result.rerender(view(h)) }
}

const drawing = () => screen.getByRole('application', { name: /Drawing of job/ })
const ready = () =>
  waitFor(() => expect(screen.getByRole('button', { name: 'Fit to view' })).toBeEnabled())

describe('DrawingView', () => {
  it("opens the job's geometry in the viewer, saying it loads until then", async () => {
    renderView({})
    expect(screen.getByRole('status')).toHaveTextContent('Loading the drawing…')
    expect(screen.getByRole('button', { name: 'Zoom in' })).toBeDisabled()
    await ready()
    expect(fake.created).toHaveLength(1)
    expect(drawing()).toContainElement(fake.created[0] ?? null)
    expect(fake.viewer.open).toHaveBeenCalledTimes(1)
    const [geometry] = vi.mocked(fake.viewer.open).mock.calls[0] ?? []
    expect(geometry?.handles.toArray()).toEqual(['1C8', '250'])
    expect(screen.queryByRole('status')).not.toBeInTheDocument()
  })

  it('fetches the geometry from the geometryUrl it is given, once, and nothing else', async () => {
    const asked: string[] = []
    const listen = ({ request }: { request: Request }) => {
      asked.push(new URL(request.url).pathname)
    }
    server.events.on('request:start', listen)
    try {
      renderView({ jobId: 'job-7', geometryUrl: geometryUrl('job-1') })
      await ready()
    } finally {
      server.events.removeListener('request:start', listen)
    }
    expect(asked).toEqual(['/api/boq/jobs/job-1/geometry'])
  })

  it("shows the server's reason when it cannot build a job's geometry", async () => {
    server.use(
      http.get(
        '*/api/boq/jobs/job-gone/geometry',
        () =>
          new HttpResponse(
            'The drawing version this job read is no longer in the cloud, so it cannot be drawn.',
            { status: 404 },
          ),
      ),
    )
    renderView({ jobId: 'job-gone' })
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The drawing could not be loaded: The drawing version this job read is no longer in the cloud, so it cannot be drawn.',
    )
    expect(fake.created).toHaveLength(0)
  })

  it('says so when the geometry it is sent is not geometry, drawing nothing', async () => {
    renderView({ jobId: 'job-bad-geometry' })
    expect(
      await screen.findByText('The drawing could not be loaded: Not drawing geometry.'),
    ).toBeInTheDocument()
    expect(fake.created).toHaveLength(0)
  })

  it('says how far the viewer has got, in steps of ten percent, until the drawing is on screen', async () => {
    let tell: ((percent: number) => void) | undefined
    let finish: (() => void) | undefined
    vi.mocked(fake.viewer.open).mockImplementationOnce((_file, onProgress) => {
      tell = onProgress
      return new Promise<void>((resolve) => {
        finish = resolve
      })
    })
    renderView({})
    await waitFor(() => expect(tell).toBeDefined())
    expect(screen.getByRole('status')).toHaveTextContent(/^Loading the drawing…$/)
    act(() => tell?.(7))
    expect(screen.getByRole('status')).toHaveTextContent(/^Loading the drawing…$/)
    act(() => tell?.(37.5))
    expect(screen.getByRole('status')).toHaveTextContent(/^Loading the drawing… 30%$/)
    act(() => tell?.(99))
    expect(screen.getByRole('status')).toHaveTextContent(/^Loading the drawing… 90%$/)
    act(() => finish?.())
    await ready()
    expect(screen.queryByRole('status')).not.toBeInTheDocument()
  })

  it('highlights the handles it is given, frames those found, and says how many in a live text', async () => {
    const { highlight } = renderView({ highlighted: ['1C8', '250'] })
    expect(screen.getByText('2 highlighted')).toBeInTheDocument()
    await ready()
    // The highlight follows the viewer's readiness in an effect of its own.
    await waitFor(() =>
      expect(fake.viewer.highlight).toHaveBeenLastCalledWith(['1C8', '250'], { ringed: false }),
    )
    expect(fake.viewer.zoomToHandles).toHaveBeenLastCalledWith(['1C8', '250'])
    expect(screen.getByText('2 highlighted').closest('[aria-live]')).toHaveAttribute(
      'aria-live',
      'polite',
    )

    // One handle the drawing's model space does not hold: highlighted as asked, said apart.
    highlight(['251', 'FFFF'])
    expect(await screen.findByText('2 highlighted')).toBeInTheDocument()
    await waitFor(() =>
      expect(fake.viewer.highlight).toHaveBeenLastCalledWith(['251', 'FFFF'], { ringed: false }),
    )
    expect(fake.viewer.zoomToHandles).toHaveBeenLastCalledWith(['251'])
    expect(screen.getByText(/1 not in the drawing's model space/)).toBeInTheDocument()

    // Nothing selected: the drawing as it is, the view left where it is.
    vi.mocked(fake.viewer.zoomToHandles).mockClear()
    highlight([])
    await waitFor(() =>
      expect(fake.viewer.highlight).toHaveBeenLastCalledWith([], { ringed: false }),
    )
    expect(screen.getByText('0 highlighted')).toBeInTheDocument()
    expect(fake.viewer.zoomToHandles).not.toHaveBeenCalled()
  })

  it('colours the marked entities as added and removed instead, saying how many of each', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const view = (marked: { added: string[]; removed: string[] }) => (
      <QueryClientProvider client={client}>
        <DrawingView
          jobId="job-1"
          geometryUrl={geometryUrl('job-1')}
          highlighted={['1C8']}
          marked={marked}
        />
      </QueryClientProvider>
    )
    const { rerender } = render(view({ added: ['1C8', '250'], removed: ['FFFF'] }))
    expect(screen.getByText('2 added in green, 1 removed in red')).toBeInTheDocument()
    await ready()
    // Marked once the viewer is there, which the view learns a moment after it is ready.
    await waitFor(() =>
      expect(fake.viewer.mark).toHaveBeenLastCalledWith({
        added: ['1C8', '250'],
        removed: ['FFFF'],
      }),
    )
    expect(fake.viewer.highlight).not.toHaveBeenCalled()
    // The whole drawing stays in view: the changes are read against the rest.
    expect(fake.viewer.zoomToHandles).not.toHaveBeenCalled()
    expect(screen.getByText(/1 not in the drawing's model space/)).toBeInTheDocument()

    // The same marks in new arrays are not drawn again; other marks are.
    rerender(view({ added: ['1C8', '250'], removed: ['FFFF'] }))
    expect(fake.viewer.mark).toHaveBeenCalledTimes(1)
    rerender(view({ added: [], removed: ['251'] }))
    expect(await screen.findByText('1 removed in red')).toBeInTheDocument()
    await waitFor(() =>
      expect(fake.viewer.mark).toHaveBeenLastCalledWith({ added: [], removed: ['251'] }),
    )
    rerender(view({ added: [], removed: [] }))
    expect(await screen.findByText('Nothing added or removed')).toBeInTheDocument()
  })

  it('has the counted references ringed when told they are', async () => {
    renderView({ highlighted: ['1C8', '250'], ringed: true })
    await ready()
    await waitFor(() =>
      expect(fake.viewer.highlight).toHaveBeenLastCalledWith(['1C8', '250'], { ringed: true }),
    )
  })

  it('frames what is lit with Zoom to selection and F, once something is', async () => {
    const user = userEvent.setup()
    const { highlight } = renderView({})
    await ready()
    const button = screen.getByRole('button', { name: 'Zoom to selection' })
    expect(button).toBeDisabled()
    expect(button).toHaveAttribute('aria-keyshortcuts', 'F')

    highlight(['1C8', '250', 'FFFF'])
    await waitFor(() => expect(button).toBeEnabled())
    vi.mocked(fake.viewer.zoomToHandles).mockClear()
    // Moved away from the selection, then back to it: only what the drawing holds is framed.
    await user.click(screen.getByRole('button', { name: 'Zoom out' }))
    await user.click(button)
    expect(fake.viewer.zoomToHandles).toHaveBeenCalledExactlyOnceWith(['1C8', '250'])
    drawing().focus()
    await user.keyboard('f')
    await user.keyboard('F')
    expect(fake.viewer.zoomToHandles).toHaveBeenCalledTimes(3)

    highlight([])
    await waitFor(() => expect(button).toBeDisabled())
    await user.keyboard('f')
    expect(fake.viewer.zoomToHandles).toHaveBeenCalledTimes(3)
  })

  it('frames the marked changes with Zoom to selection', async () => {
    const user = userEvent.setup()
    render(
      <QueryClientProvider client={new QueryClient()}>
        <DrawingView
          jobId="job-1"
          geometryUrl={geometryUrl('job-1')}
          marked={{ added: ['1C8'], removed: ['251', 'FFFF'] }}
        />
      </QueryClientProvider>,
    )
    const button = screen.getByRole('button', { name: 'Zoom to selection' })
    await waitFor(() => expect(button).toBeEnabled())
    await user.click(button)
    expect(fake.viewer.zoomToHandles).toHaveBeenCalledExactlyOnceWith(['1C8', '251'])
  })

  it('says what the model space holds when its geometry has nothing to draw, making no viewer', async () => {
    renderView({
      jobId: 'job-solids',
      notMeasured: [
        { type: '3DSOLID', count: 58 },
        { type: 'paper space', count: 3 },
      ],
    })
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        "This drawing's model space holds 58 3D solids: not drawn, not measured. " +
          'Its layouts (paper space) hold 3 entities: only model space is drawn and measured.',
      ),
    )
    expect(drawing()).toHaveAttribute('aria-busy', 'false')
    expect(fake.created).toHaveLength(0)
    expect(screen.getByRole('button', { name: 'Fit to view' })).toBeDisabled()
  })

  it('has the names it is given drawn, once the viewer is there, and again only for a new list', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const view = (labels?: { handle: string; text: string; emphasised?: boolean }[]) => (
      <QueryClientProvider client={client}>
        <DrawingView jobId="job-1" geometryUrl={geometryUrl('job-1')} labels={labels} />
      </QueryClientProvider>
    )
    const names = [
      { handle: '1C8', text: 'Kitchen', emphasised: true },
      { handle: '250', text: 'Living' },
    ]
    const { rerender } = render(view(names))
    await ready()
    await waitFor(() => expect(fake.viewer.label).toHaveBeenLastCalledWith(names))
    const calls = vi.mocked(fake.viewer.label).mock.calls.length
    // The same list again (the page keeps it while the names stay): not named again.
    rerender(view(names))
    expect(fake.viewer.label).toHaveBeenCalledTimes(calls)
    // No names: those drawn go.
    rerender(view())
    await waitFor(() => expect(fake.viewer.label).toHaveBeenLastCalledWith([]))
  })

  it('does not highlight again for the same handles in a new array', async () => {
    const { highlight } = renderView({ highlighted: ['1C8'] })
    await ready()
    await waitFor(() => expect(fake.viewer.highlight).toHaveBeenCalledTimes(1))
    highlight(['1C8'])
    highlight(['1C8'])
    expect(fake.viewer.highlight).toHaveBeenCalledTimes(1)
  })

  it('zooms with + and -, fits with 0, when the drawing has the focus; the buttons do the same', async () => {
    const user = userEvent.setup()
    renderView({})
    await ready()
    drawing().focus()
    await user.keyboard('+')
    expect(fake.viewer.zoom).toHaveBeenLastCalledWith(1.25)
    await user.keyboard('-')
    expect(fake.viewer.zoom).toHaveBeenLastCalledWith(0.8)
    await user.keyboard('0')
    expect(fake.viewer.fit).toHaveBeenCalledTimes(1)
    await user.keyboard('a')
    expect(fake.viewer.zoom).toHaveBeenCalledTimes(2)

    await user.click(screen.getByRole('button', { name: 'Zoom in' }))
    await user.click(screen.getByRole('button', { name: 'Zoom out' }))
    await user.click(screen.getByRole('button', { name: 'Fit to view' }))
    expect(vi.mocked(fake.viewer.zoom).mock.calls.slice(2)).toEqual([[1.25], [0.8]])
    expect(fake.viewer.fit).toHaveBeenCalledTimes(2)
  })

  it('calls onPick with the handle under a click, but not after a drag (a pan)', async () => {
    const user = userEvent.setup()
    const onPick = vi.fn()
    renderView({ onPick })
    await ready()
    await user.pointer({
      keys: '[MouseLeft]',
      target: drawing(),
      coords: { clientX: 40, clientY: 50 },
    })
    expect(fake.viewer.handleAt).toHaveBeenLastCalledWith(40, 50)
    expect(onPick).toHaveBeenCalledExactlyOnceWith('1C8')

    await user.pointer([
      { keys: '[MouseLeft>]', target: drawing(), coords: { clientX: 40, clientY: 50 } },
      { target: drawing(), coords: { clientX: 90, clientY: 80 } },
      { keys: '[/MouseLeft]', target: drawing(), coords: { clientX: 90, clientY: 80 } },
    ])
    expect(onPick).toHaveBeenCalledTimes(1)

    // A click on empty paper picks nothing.
    vi.mocked(fake.viewer.handleAt).mockReturnValue(undefined)
    await user.pointer({
      keys: '[MouseLeft]',
      target: drawing(),
      coords: { clientX: 5, clientY: 5 },
    })
    expect(onPick).toHaveBeenCalledTimes(1)
  })

  it("shows the server's reason when the drawing cannot be loaded", async () => {
    renderView({ jobId: 'job-2' })
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The drawing could not be loaded: There is no such job.',
    )
    expect(fake.created).toHaveLength(0)
  })

  it("shows the viewer's reason when the drawing cannot be read", async () => {
    vi.mocked(fake.viewer.open).mockRejectedValueOnce(new Error('This drawing could not be read.'))
    renderView({})
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The drawing could not be shown: This drawing could not be read.',
    )
    expect(screen.getByRole('button', { name: 'Fit to view' })).toBeDisabled()
  })

  it('lets go of the viewer when it goes away', async () => {
    const { unmount } = renderView({})
    await ready()
    unmount()
    expect(fake.viewer.destroy).toHaveBeenCalledTimes(1)
  })
})
