// "Show in tree" on a job card: the page hands the job's location (jobs feature) to the tree's
// openPath (files feature), which opens hub → project → folders through the tree's own queries
// and selects the written item.
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi, ids, requestsTo } from '../../testing/fake-api'
import { item, writtenJob } from '../../testing/fixtures'
import { renderApp } from '../../testing/render-app'
import { clickPath, fileTree, findRow } from '../../testing/tree-helpers'

const BOQ_ITEM = 'urn:adsk.wipprod:dm.lineage:stair-boq'
const contents = `/api/aps/hubs/${ids.hub}/projects/${ids.tower}/contents`
const folderLoads = (folderId: string) =>
  requestsTo(contents).filter((r) => r.url.searchParams.get('folder_id') === folderId)
const row = (title: string | RegExp) => within(fileTree()).queryByRole('treeitem', { name: title })
const extractButton = () => screen.getByRole('button', { name: 'Extract BOQ' })

/** The BOQ of stair.dwg, written into Plans / Level 1, and its job as the server tells it. */
function stairJob(folder: Partial<ReturnType<typeof writtenJob>['folder']>) {
  fakeApi.contents[ids.level1]?.push(item('stair BOQ.xlsx', BOQ_ITEM))
  fakeApi.jobs = [
    writtenJob({
      id: 'stair',
      fileName: 'stair.dwg',
      read: 1,
      projectId: ids.tower,
      fileFolderId: ids.level1,
      folder,
      itemId: BOQ_ITEM,
    }),
  ]
}

async function showInTree(user: ReturnType<typeof renderApp>['user']) {
  const panel = await screen.findByRole('region', { name: 'Extraction jobs' })
  await user.click(await within(panel).findByRole('button', { name: 'Show in tree' }))
}

// Whole-app tests: generous time on a shared machine.
describe('Show in tree', { timeout: 20_000 }, () => {
  it('opens hub, project and folders down to the written file, and selects it', async () => {
    stairJob({ name: 'Level 1', hubId: ids.hub, path: [ids.plans, ids.level1] })
    const { user } = renderApp('/')
    await findRow('Demo Hub')
    expect(row('Tower')).toBeNull()

    await showInTree(user)
    await waitFor(() => expect(row('stair BOQ.xlsx')).toHaveAttribute('aria-selected', 'true'))
    for (const title of ['Demo Hub', 'Tower', 'Plans', 'Level 1']) {
      expect(row(title)).toHaveAttribute('aria-expanded', 'true')
    }
    // Each level loaded once, through the tree's own queries.
    expect(requestsTo(`/api/aps/hubs/${ids.hub}/projects`)).toHaveLength(1)
    expect(requestsTo(contents).filter((r) => !r.url.searchParams.has('folder_id'))).toHaveLength(1)
    expect(folderLoads(ids.plans)).toHaveLength(1)
    expect(folderLoads(ids.level1)).toHaveLength(1)
    // The written file is the selection now: not a version, so Extract says why it waits.
    expect(extractButton()).toBeDisabled()
    expect(extractButton()).toHaveAccessibleDescription(
      'Select a version of a drawing (expand the item to see its versions).',
    )
  })

  it('reopens what the user closed without loading it again', async () => {
    stairJob({ name: 'Level 1', hubId: ids.hub, path: [ids.plans, ids.level1] })
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans', 'Level 1'])
    await findRow('stair BOQ.xlsx')
    await clickPath(user, ['Tower'])
    await waitFor(() => expect(row('Plans')).toBeNull())

    await showInTree(user)
    await waitFor(() => expect(row('stair BOQ.xlsx')).toHaveAttribute('aria-selected', 'true'))
    expect(folderLoads(ids.plans)).toHaveLength(1)
    expect(folderLoads(ids.level1)).toHaveLength(1)
  })

  it('without the folder chain, opens the way the tree has loaded', async () => {
    stairJob({ hubId: ids.hub })
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans', 'Level 1'])
    await findRow('stair BOQ.xlsx')
    await clickPath(user, ['Demo Hub'])
    await waitFor(() => expect(row('Tower')).toBeNull())

    await showInTree(user)
    await waitFor(() => expect(row('stair BOQ.xlsx')).toHaveAttribute('aria-selected', 'true'))
    expect(row('Level 1')).toHaveAttribute('aria-expanded', 'true')
  })

  it('without the chain nor a loaded folder, opens the hub and the project', async () => {
    stairJob({ hubId: ids.hub })
    const { user } = renderApp('/')
    await findRow('Demo Hub')
    await showInTree(user)
    await waitFor(() => expect(row('Tower')).toHaveAttribute('aria-expanded', 'true'))
    expect(await findRow('Plans')).toHaveAttribute('aria-expanded', 'false')
    expect(folderLoads(ids.level1)).toHaveLength(0)
  })

  it('without the chain, opens a top folder that comes with the project', async () => {
    const written = 'urn:adsk.wipprod:dm.lineage:floor-boq'
    fakeApi.contents[ids.plans]?.push(item('floor BOQ.xlsx', written))
    fakeApi.jobs = [
      writtenJob({
        projectId: ids.tower,
        fileFolderId: ids.plans,
        folder: { hubId: ids.hub },
        itemId: written,
      }),
    ]
    const { user } = renderApp('/')
    await findRow('Demo Hub')
    await showInTree(user)
    await waitFor(() => expect(row('floor BOQ.xlsx')).toHaveAttribute('aria-selected', 'true'))
    expect(row('Plans')).toHaveAttribute('aria-expanded', 'true')
  })

  it('loads the folder again when the written file is not in its cached answer yet', async () => {
    stairJob({ name: 'Level 1', hubId: ids.hub, path: [ids.plans, ids.level1] })
    const written = fakeApi.contents[ids.level1]?.pop()
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans', 'Level 1'])
    await findRow('stair.dwg')
    expect(row('stair BOQ.xlsx')).toBeNull()
    if (written) fakeApi.contents[ids.level1]?.push(written)

    await showInTree(user)
    await waitFor(() => expect(row('stair BOQ.xlsx')).toHaveAttribute('aria-selected', 'true'))
    expect(folderLoads(ids.level1)).toHaveLength(2)
  })
})
