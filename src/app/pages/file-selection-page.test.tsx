// The tree after a job succeeds: the folder it wrote into is reloaded and merged into the tree,
// so what the user had open and selected stays. And the tree after a result page: back by the
// page's link or the browser's, it shows what it showed.
import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { exampleBoq } from '#contract/testing/boq.ts'
import { POLL_INTERVAL_MS } from '../../features/jobs/api/jobs-api'
import { fakeApi, ids, requestsTo } from '../../testing/fake-api'
import { item, job, succeededJob, version } from '../../testing/fixtures'
import { server } from '../../testing/msw-server'
import { renderApp } from '../../testing/render-app'
import { clickPath, fileTree, findRow } from '../../testing/tree-helpers'

// The result page's drawing: a stand-in (its renderer is the drawing feature's to test).
vi.mock('../../features/drawing/components/drawing-view', () => ({
  DrawingView: () => <p>Drawing</p>,
}))
vi.mock('../../features/drawing/viewer/load-viewer', () => {
  const load = async () => async () => {
    throw new Error('No renderer in jsdom.')
  }
  return { loadGeometryViewer: load }
})

const base = `/api/aps/hubs/${ids.hub}/projects/${ids.tower}/contents`
const versionsOf = (itemId: string) => requestsTo(`${base}/${itemId}/versions`)
const plansLoads = () =>
  requestsTo(base).filter((r) => r.url.searchParams.get('folder_id') === ids.plans)
const extractButton = () => screen.getByRole('button', { name: 'Extract BOQ' })
const row = (title: string | RegExp) => within(fileTree()).queryByRole('treeitem', { name: title })
const selectedRows = () =>
  within(fileTree())
    .queryAllByRole('treeitem')
    .filter((r) => r.getAttribute('aria-selected') === 'true')
const BOQ_ITEM = 'urn:adsk.wipprod:dm.lineage:boq'

/** A job in Plans that the server is running, so the panel polls it. */
function runningJob(id = 'r') {
  fakeApi.jobs = [
    job({
      id,
      status: 'running',
      fileName: 'floor.dwg',
      fileFolderId: ids.plans,
      projectId: ids.tower,
    }),
    ...fakeApi.jobs,
  ]
}

/** The server finishes job `id`: the written file is already in the folder. */
async function finishJob(id = 'r') {
  fakeApi.jobs = fakeApi.jobs.map((j) =>
    j.id === id
      ? succeededJob({ id, fileName: 'floor.dwg', fileFolderId: ids.plans, projectId: ids.tower })
      : j,
  )
  const panel = await screen.findByRole('region', { name: 'Extraction jobs' })
  await waitFor(
    () => {
      const done = within(panel)
        .getAllByRole('listitem')
        .filter((li) => li.textContent?.includes('Done'))
      expect(done.length).toBeGreaterThan(0)
    },
    { timeout: POLL_INTERVAL_MS * 4 },
  )
}

/** The Plans folder's answer from now on, with the BOQ written beside the drawing. */
function writeBoq() {
  fakeApi.contents[ids.plans]?.push(item('floor BOQ.xlsx', BOQ_ITEM))
}

// Whole-app tests with job polling: generous time on a shared machine.
describe('the tree after a job succeeds', { timeout: 20_000 }, () => {
  it('keeps the open item with its versions and the selected version (Extract stays enabled)', async () => {
    runningJob()
    const { user, container } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans', 'floor.dwg', /^2 /])
    await waitFor(() => expect(extractButton()).toBeEnabled())
    const versionHref = container
      .querySelector('[data-selected-href]')
      ?.getAttribute('data-selected-href')
    expect(versionHref).toMatch(/^https:\/\/cloud\.test\/versions\//)

    writeBoq()
    await finishJob()
    expect(await findRow('floor BOQ.xlsx')).toBeInTheDocument()
    expect(plansLoads()).toHaveLength(2)

    // Still open, with the versions it had (not loaded again), and the selection kept.
    expect(await findRow('floor.dwg')).toHaveAttribute('aria-expanded', 'true')
    expect(row(/^2 /)).toHaveAttribute('aria-selected', 'true')
    expect(row(/^1 /)).toBeInTheDocument()
    expect(versionsOf(ids.floor)).toHaveLength(1)
    expect(extractButton()).toBeEnabled()
    expect(container.querySelector('[data-selected-href]')).toHaveAttribute(
      'data-selected-href',
      versionHref as string,
    )
    // The kept selection is the one Extract sends.
    await user.click(extractButton())
    const [post] = requestsTo('/api/boq/extract', 'POST')
    expect(post?.body).toMatchObject({
      fileName: 'floor.dwg',
      fileStorageId: 'urn:adsk.objects:os.object:wip.dm.prod/floor-v2.dwg',
      fileFolderId: ids.plans,
      projectId: ids.tower,
    })
  })

  it('clears the selection and disables Extract when the selected node is gone', async () => {
    runningJob()
    const { user, container } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans', 'floor.dwg', /^2 /])
    await waitFor(() => expect(extractButton()).toBeEnabled())

    // The drawing was deleted meanwhile; the BOQ was written.
    const plans = fakeApi.contents[ids.plans] ?? []
    fakeApi.contents[ids.plans] = plans.filter((r) => r.id !== ids.floor)
    writeBoq()
    await finishJob()
    expect(await findRow('floor BOQ.xlsx')).toBeInTheDocument()
    await waitFor(() => expect(row('floor.dwg')).toBeNull())
    expect(row(/^2 /)).toBeNull()
    expect(selectedRows()).toEqual([])
    expect(extractButton()).toBeDisabled()
    expect(container.querySelector('[data-selected-href]')).toBeNull()
  })

  it('keeps a selected item that is still there, with its fresh title', async () => {
    runningJob()
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans', 'README'])
    expect(await findRow('README')).toHaveAttribute('aria-selected', 'true')
    const readme = fakeApi.contents[ids.plans]?.find((r) => r.id === ids.readme)
    if (readme?.attributes) readme.attributes.displayName = 'README.txt'
    writeBoq()
    await finishJob()
    expect(await findRow('README.txt')).toHaveAttribute('aria-selected', 'true')
    expect(extractButton()).toBeDisabled()
  })

  it('keeps what a closed folder had open: its items open with their versions on the next expand', async () => {
    runningJob()
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans', 'floor.dwg', /^2 /])
    await clickPath(user, ['Plans'])
    await waitFor(() => expect(row('floor.dwg')).toBeNull())

    writeBoq()
    await finishJob()
    await clickPath(user, ['Plans'])
    expect(await findRow('floor BOQ.xlsx')).toBeInTheDocument()
    expect(await findRow('floor.dwg')).toHaveAttribute('aria-expanded', 'true')
    expect(row(/^2 /)).toBeInTheDocument()
    expect(versionsOf(ids.floor)).toHaveLength(1)
    expect(plansLoads()).toHaveLength(2)
  })

  it('never leaves an open node without children: a node that comes back open is loaded', async () => {
    runningJob('a')
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans', 'floor.dwg'])
    await findRow(/^2 /)
    await clickPath(user, ['Level 1'])
    await findRow('stair.dwg')

    // First job: the drawing is gone. Second job: it is back.
    const floor = fakeApi.contents[ids.plans]?.find((r) => r.id === ids.floor)
    const plans = fakeApi.contents[ids.plans] ?? []
    fakeApi.contents[ids.plans] = plans.filter((r) => r.id !== ids.floor)
    runningJob('b')
    await finishJob('a')
    await waitFor(() => expect(row('floor.dwg')).toBeNull())
    expect(row(/^2 /)).toBeNull()

    if (floor) fakeApi.contents[ids.plans]?.push(floor)
    await finishJob('b')
    const back = await findRow('floor.dwg')
    await waitFor(() => expect(row(/^2 /)).toBeInTheDocument())
    expect(back).toHaveAttribute('aria-expanded', 'true')
    expect(row(/^1 /)).toBeInTheDocument()
    // The open subfolder kept its children throughout.
    expect(row('stair.dwg')).toBeInTheDocument()
  })

  it('shows the new version of a written file whose versions were open', async () => {
    writeBoq()
    fakeApi.versions[BOQ_ITEM] = [version({ displayName: 'floor BOQ.xlsx', versionNumber: 1 })]
    runningJob()
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans', 'floor BOQ.xlsx'])
    await findRow(/^1 /)

    fakeApi.versions[BOQ_ITEM]?.unshift(
      version({ displayName: 'floor BOQ.xlsx', versionNumber: 2, user: 'Grace Hopper' }),
    )
    await finishJob()
    expect(await findRow(/^2 .*Grace Hopper$/)).toBeInTheDocument()
    expect(row(/^1 /)).toBeInTheDocument()
    expect(versionsOf(BOQ_ITEM)).toHaveLength(2)
  })

  it('loads a folder again when its job succeeds while its first load is still running', async () => {
    runningJob()
    const { user, queryClient } = renderApp('/')
    const invalidated = vi.spyOn(queryClient, 'invalidateQueries')
    await clickPath(user, ['Demo Hub', 'Tower'])
    await findRow('Plans')
    // The first load of Plans answers what the folder held when it was asked, once let go; the
    // loads after it go to the fake server as usual.
    let firstLoads = 0
    let letGo = () => {}
    const held = new Promise<void>((resolve) => {
      letGo = resolve
    })
    server.use(
      http.get(`*${base}`, async ({ request }) => {
        if (new URL(request.url).searchParams.get('folder_id') !== ids.plans) return undefined
        if (firstLoads > 0) return undefined
        firstLoads += 1
        const before = [...(fakeApi.contents[ids.plans] ?? [])]
        await held
        return HttpResponse.json(before)
      }),
    )
    await clickPath(user, ['Plans'])
    await waitFor(() => expect(firstLoads).toBe(1))

    writeBoq()
    await finishJob()
    // The folder is refreshed while its first load is still held.
    await waitFor(() =>
      expect(invalidated).toHaveBeenCalledWith(
        expect.objectContaining({
          queryKey: expect.arrayContaining([expect.objectContaining({ folderId: ids.plans })]),
        }),
      ),
    )
    letGo()
    expect(await findRow('floor BOQ.xlsx')).toBeInTheDocument()
    expect(row('floor.dwg')).toBeInTheDocument()
    // The load after the held one reached the fake server (the held one never did).
    expect(plansLoads()).toHaveLength(1)
  })

  it('keeps the tree as it was when the reload fails (and logs it)', async () => {
    runningJob()
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans', 'floor.dwg', /^2 /])
    await waitFor(() => expect(extractButton()).toBeEnabled())
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    server.use(
      http.get(`*${base}`, ({ request }) =>
        new URL(request.url).searchParams.get('folder_id') === ids.plans
          ? new HttpResponse('down', { status: 503 })
          : undefined,
      ),
    )
    await finishJob()
    await waitFor(() => expect(logged).toHaveBeenCalled())
    expect(row('floor.dwg')).toHaveAttribute('aria-expanded', 'true')
    expect(row('Level 1')).toBeInTheDocument()
    expect(row(/^2 /)).toHaveAttribute('aria-selected', 'true')
    expect(extractButton()).toBeEnabled()
  })
})

/** Requests for the tree's lists (hubs, projects, contents, versions) so far. */
const treeLoads = () =>
  fakeApi.requests.filter((r) => r.method === 'GET' && r.url.pathname.startsWith('/api/aps/hubs'))

/**
 * A finished job of floor.dwg with its bill; the tree opened down to floor.dwg's version 2 (Level 1
 * opened and closed again on the way), then the job's result page opened from its card.
 */
async function leaveForResult() {
  fakeApi.jobs = [succeededJob({ id: 'j1', fileName: 'floor.dwg', fileVersionNumber: 2 })]
  fakeApi.results.j1 = { status: 200, body: exampleBoq() }
  const app = renderApp('/')
  await clickPath(app.user, ['Demo Hub', 'Tower', 'Plans', 'Level 1'])
  await findRow('stair.dwg')
  await clickPath(app.user, ['Level 1', 'floor.dwg', /^2 /])
  await waitFor(() => expect(extractButton()).toBeEnabled())
  const loads = treeLoads().length

  const panel = await screen.findByRole('region', { name: 'Extraction jobs' })
  await app.user.click(await within(panel).findByRole('link', { name: 'Open result' }))
  await screen.findByRole('heading', { name: 'Bill of floor.dwg, version 2' })
  expect(screen.queryByRole('tree')).toBeNull()
  return { ...app, loads }
}

/** The tree as it was left: the way to floor.dwg open, Level 1 closed, version 2 selected. */
async function expectTreeAsLeft() {
  await waitFor(() => expect(row(/^2 /)).toHaveAttribute('aria-selected', 'true'))
  for (const title of ['Demo Hub', 'Tower', 'Plans', 'floor.dwg']) {
    expect(row(title), title).toHaveAttribute('aria-expanded', 'true')
  }
  expect(row('Level 1')).toHaveAttribute('aria-expanded', 'false')
  expect(row('stair.dwg')).toBeNull()
  expect(row(/^1 /)).toBeInTheDocument()
  expect(selectedRows()).toHaveLength(1)
  // The page has the selection too: Extract sends that version.
  await waitFor(() => expect(extractButton()).toBeEnabled())
}

describe('the tree after a result page', { timeout: 20_000 }, () => {
  it('shows the same nodes open and the same version selected, back by the page’s link', async () => {
    const { user, router, loads } = await leaveForResult()
    await user.click(screen.getByRole('link', { name: 'Back to the drawings' }))
    await findRow('Demo Hub')
    expect(router.state.location.pathname).toBe('/')
    await expectTreeAsLeft()
    // What each node had is shown again, not loaded again.
    expect(treeLoads()).toHaveLength(loads)
    await user.click(extractButton())
    const [post] = requestsTo('/api/boq/extract', 'POST')
    expect(post?.body).toMatchObject({
      fileName: 'floor.dwg',
      fileStorageId: 'urn:adsk.objects:os.object:wip.dm.prod/floor-v2.dwg',
    })
  })

  it('shows them again back by the browser’s Back button', async () => {
    const { router, loads } = await leaveForResult()
    router.history.back()
    await findRow('Demo Hub')
    await expectTreeAsLeft()
    expect(treeLoads()).toHaveLength(loads)
  })

  it('shows them again at /home, back by the header’s Home button', async () => {
    const { user, router, loads } = await leaveForResult()
    await user.click(screen.getByRole('button', { name: 'Home' }))
    await findRow('Demo Hub')
    expect(router.state.location.pathname).toBe('/home')
    await expectTreeAsLeft()
    expect(treeLoads()).toHaveLength(loads)
  })

  it('loads the open nodes again when the cache let their lists go, then selects the version', async () => {
    const { user, queryClient, loads } = await leaveForResult()
    // Minutes on the result page: nothing watches the lists, and the cache drops them.
    queryClient.removeQueries({ queryKey: ['tree', 'children'] })
    await user.click(screen.getByRole('link', { name: 'Back to the drawings' }))
    await expectTreeAsLeft()
    // Hubs, projects, top contents, Plans and floor.dwg's versions, once each; not Level 1 (closed).
    const again = treeLoads()
      .slice(loads)
      .map((r) =>
        `${decodeURIComponent(r.url.pathname)} ${r.url.searchParams.get('folder_id') ?? ''}`.trim(),
      )
    expect(again.sort()).toEqual(
      [
        '/api/aps/hubs',
        `/api/aps/hubs/${ids.hub}/projects`,
        base,
        `${base} ${ids.plans}`,
        `${base}/${ids.floor}/versions`,
      ].sort(),
    )
  })
})
