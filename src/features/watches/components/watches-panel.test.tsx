// The list of watched folders beside the jobs: each watch's state, what waits, Allow, Stop watching.
import type { Query } from '@tanstack/react-query'
import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { browser } from '../../../lib/browser'
import { fakeApi, requestsTo } from '../../../testing/fake-api'
import { WATCH_CONSENT_URL, watch } from '../../../testing/fixtures'
import { server } from '../../../testing/msw-server'
import { renderApp } from '../../../testing/render-app'
import { WAITING_POLL_MS, type Watch, watchesQueries } from '../api/watches-api'

const panel = () => screen.findByRole('region', { name: 'Watched folders' })
const watchItem = async (text: string) => {
  const items = await within(await panel()).findAllByRole('listitem')
  const found = items.find((li) => li.textContent?.includes(text))
  if (!found) throw new Error(`No watch shows "${text}".`)
  return found
}

// Whole-app tests: generous time on a shared machine.
describe('watched folders list', { timeout: 20_000 }, () => {
  it("lists the user's watches: the folder's name (else its id) and the state", async () => {
    fakeApi.watches = [
      watch({ id: 'a', folder: { name: 'Plans', hubId: null, path: null } }),
      watch({
        id: 'b',
        fileFolderId: 'urn:adsk.wipprod:fs.folder:co.unnamed',
        folder: { name: null, hubId: null, path: null },
      }),
    ]
    renderApp('/')
    const named = await watchItem('Plans')
    expect(within(named).getByText('Watched')).toBeInTheDocument()
    expect(named).not.toHaveTextContent('waiting')
    expect(within(named).queryByRole('button', { name: 'Allow' })).toBeNull()
    expect(await watchItem('urn:adsk.wipprod:fs.folder:co.unnamed')).toBeInTheDocument()
  })

  it('says when there are none, and how to watch one', async () => {
    renderApp('/')
    expect(await within(await panel()).findByText(/^None\. Select a folder/)).toBeInTheDocument()
  })

  it('shows why a watch is paused, and Allow sends the browser to give permission', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {})
    fakeApi.watches = [
      watch({
        state: 'paused',
        pausedReason: 'Autodesk no longer lets BOQ act for you while you are away.',
        consentUrl: WATCH_CONSENT_URL,
      }),
    ]
    const { user } = renderApp('/')
    const paused = await watchItem('Plans')
    expect(within(paused).getByText('Watch paused')).toBeInTheDocument()
    expect(paused).toHaveTextContent('Autodesk no longer lets BOQ act for you while you are away.')
    await user.click(within(paused).getByRole('button', { name: 'Allow' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith(fakeApi.loginUrl))
    const asked = requestsTo('/api/aps/auth/login')
    expect(asked).toHaveLength(1)
    expect(asked[0]?.url.searchParams.get('for')).toBe('watches')
  })

  it('says so when permission cannot be asked for', async () => {
    server.use(http.get('*/api/aps/auth/login', () => new HttpResponse('down', { status: 503 })))
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {})
    fakeApi.watches = [
      watch({ state: 'paused', pausedReason: 'Allow.', consentUrl: WATCH_CONSENT_URL }),
    ]
    const { user } = renderApp('/')
    await user.click(within(await watchItem('Plans')).getByRole('button', { name: 'Allow' }))
    expect(await within(await watchItem('Plans')).findByRole('alert')).toHaveTextContent(
      'Could not ask Autodesk for permission: down',
    )
    expect(assign).not.toHaveBeenCalled()
  })

  it('a paused watch without a consent URL shows its reason alone', async () => {
    fakeApi.watches = [watch({ state: 'paused', pausedReason: 'The folder is gone.' })]
    renderApp('/')
    const paused = await watchItem('Plans')
    expect(paused).toHaveTextContent('The folder is gone.')
    expect(within(paused).queryByRole('button', { name: 'Allow' })).toBeNull()
  })

  it('counts the versions waiting for a free place', async () => {
    fakeApi.watches = [watch({ waiting: 3 })]
    renderApp('/')
    expect(within(await watchItem('Plans')).getByText('3 waiting')).toBeInTheDocument()
  })

  it('asks again every few seconds while versions wait, and only then', () => {
    const interval = watchesQueries.list().refetchInterval
    const withWatches = (watches: Watch[]) =>
      ({ state: { data: { data: watches } } }) as unknown as Query<
        { data: Watch[] },
        Error,
        { data: Watch[] },
        readonly ['watches', 'list']
      >
    expect(typeof interval).toBe('function')
    if (typeof interval !== 'function') return
    expect(interval(withWatches([watch(), watch({ waiting: 1 })]))).toBe(WAITING_POLL_MS)
    expect(interval(withWatches([watch({ state: 'paused' })]))).toBe(false)
    expect(interval(withWatches([]))).toBe(false)
    expect(watchesQueries.list().refetchOnWindowFocus).toBe(true)
  })

  it('stops watching from the list, and the list is asked again', async () => {
    fakeApi.watches = [
      watch({ id: 'w1' }),
      watch({ id: 'w2', folder: { name: 'Level 1', hubId: null, path: null } }),
    ]
    const { user } = renderApp('/')
    await user.click(
      within(await watchItem('Level 1')).getByRole('button', { name: 'Stop watching' }),
    )
    await waitFor(() => expect(requestsTo('/api/boq/watches/w2', 'DELETE')).toHaveLength(1))
    await waitFor(async () =>
      expect(within(await panel()).getAllByRole('listitem')).toHaveLength(1),
    )
    expect(await watchItem('Plans')).toBeInTheDocument()
    await waitFor(() => expect(requestsTo('/api/boq/watches').length).toBeGreaterThan(1))
  })

  it("shows the server's words when a watch cannot be stopped", async () => {
    server.use(
      http.delete(
        '*/api/boq/watches/:id',
        () => new HttpResponse('There is no such watch.', { status: 404 }),
      ),
    )
    fakeApi.watches = [watch({ id: 'w1' })]
    const { user } = renderApp('/')
    await user.click(
      within(await watchItem('Plans')).getByRole('button', { name: 'Stop watching' }),
    )
    expect(await within(await watchItem('Plans')).findByRole('alert')).toHaveTextContent(
      'Could not stop watching: There is no such watch.',
    )
  })

  it('says so when the list cannot be loaded', async () => {
    server.use(
      http.get('*/api/boq/watches', () => new HttpResponse('Internal error', { status: 500 })),
    )
    renderApp('/')
    expect(
      await within(await panel()).findByText('The watched folders could not be loaded.'),
    ).toBeInTheDocument()
  })
})
