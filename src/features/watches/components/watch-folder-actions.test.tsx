// Watching a folder from the file tree: the folder selected, "Watch this folder" under the tree.
import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import { fakeApi, ids, requestsTo } from '../../../testing/fake-api'
import { watch } from '../../../testing/fixtures'
import { server } from '../../../testing/msw-server'
import { renderApp } from '../../../testing/render-app'
import { clickPath, findRow } from '../../../testing/tree-helpers'

const watchedList = () => screen.getByRole('region', { name: 'Watched folders' })
const underTree = () => screen.findByRole('group', { name: 'Watching the selected folder' })

// Whole-app tests: generous time on a shared machine.
describe('watching a folder from the tree', { timeout: 20_000 }, () => {
  it('posts the folder and its project, then shows the folder watched', async () => {
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans'])
    await user.click(await screen.findByRole('button', { name: 'Watch this folder' }))

    await waitFor(() => expect(requestsTo('/api/boq/watches', 'POST')).toHaveLength(1))
    expect(requestsTo('/api/boq/watches', 'POST')[0]?.body).toEqual({
      projectId: ids.tower,
      fileFolderId: ids.plans,
    })
    // Under the tree, on the folder's row, and in the list beside the jobs.
    const actions = await underTree()
    expect(await within(actions).findByRole('button', { name: 'Stop watching' })).toBeEnabled()
    expect(within(actions).getByText('Watched')).toBeInTheDocument()
    expect(within(actions).queryByRole('button', { name: 'Watch this folder' })).toBeNull()
    expect(await findRow(/^Plans\s*Watched$/)).toBeInTheDocument()
    expect(await within(watchedList()).findByText('Plans')).toBeInTheDocument()
    expect(within(watchedList()).getByText('Watched')).toBeInTheDocument()
  })

  it('makes the bills in the units chosen for Extract BOQ', async () => {
    const { user } = renderApp('/')
    await user.selectOptions(await screen.findByLabelText('Units'), 'metric')
    await user.selectOptions(screen.getByLabelText('If the drawing has no units'), 'mm')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans', 'Level 1'])
    await user.click(await screen.findByRole('button', { name: 'Watch this folder' }))

    await waitFor(() => expect(requestsTo('/api/boq/watches', 'POST')).toHaveLength(1))
    expect(requestsTo('/api/boq/watches', 'POST')[0]?.body).toEqual({
      projectId: ids.tower,
      fileFolderId: ids.level1,
      units: { system: 'metric', drawingUnits: 'mm' },
    })
  })

  it('offers no watch for what is not a folder', async () => {
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans', 'floor.dwg'])
    expect(await screen.findByRole('link', { name: 'Rules…' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Watch this folder' })).toBeNull()
  })

  it('stops watching a watched folder, and the list goes without it', async () => {
    fakeApi.watches = [watch({ id: 'w1', state: 'paused', pausedReason: 'Allow BOQ.' })]
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower'])
    // A paused watch reads so on its folder's row.
    await user.click(await findRow(/^Plans\s*Watch paused$/))
    const actions = await underTree()
    expect(within(actions).getByText('Watch paused')).toBeInTheDocument()
    await user.click(within(actions).getByRole('button', { name: 'Stop watching' }))

    await waitFor(() => expect(requestsTo('/api/boq/watches/w1', 'DELETE')).toHaveLength(1))
    expect(await screen.findByRole('button', { name: 'Watch this folder' })).toBeInTheDocument()
    expect(await findRow('Plans')).toBeInTheDocument()
    expect(within(watchedList()).queryByRole('listitem')).toBeNull()
  })

  it('says why a folder could not be watched, in the server words', async () => {
    server.use(
      http.post(
        '*/api/boq/watches',
        () =>
          new HttpResponse('There is no such folder, or you cannot see it.', {
            status: 404,
            headers: { 'Content-Type': 'text/plain; charset=utf-8' },
          }),
      ),
    )
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans'])
    await user.click(await screen.findByRole('button', { name: 'Watch this folder' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not watch this folder: There is no such folder, or you cannot see it.',
    )
    expect(screen.getByRole('button', { name: 'Watch this folder' })).toBeEnabled()
    expect(await findRow('Plans')).toBeInTheDocument()
  })
})
