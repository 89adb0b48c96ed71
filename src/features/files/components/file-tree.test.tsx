import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeApi, ids, LIST_FORMS, requestsTo } from '../../../testing/fake-api'
import { hub, version } from '../../../testing/fixtures'
import { server } from '../../../testing/msw-server'
import { assembledBill } from '../../../testing/project-bill-fixtures'
import { renderApp } from '../../../testing/render-app'
import { clickPath, fileTree, findRow, rowTitles } from '../../../testing/tree-helpers'
import { treeQueries } from '../api/tree-queries'

const contentsPath = `/api/aps/hubs/${ids.hub}/projects/${ids.tower}/contents`

// Whole-app tests: generous time on a shared machine. Every test runs with each form of the lists
// (a bare array, `{data}`, `{data, links}`).
describe.each(LIST_FORMS)('file tree, lists answered as %s', { timeout: 20_000 }, (form) => {
  const tz = process.env.TZ
  beforeEach(() => {
    fakeApi.listForm = form
  })
  afterEach(() => {
    process.env.TZ = tz
  })

  it('is a tree named "ACC files", 65vh high, with the hubs loaded on mount', async () => {
    renderApp('/')
    expect(await findRow('Demo Hub')).toBeInTheDocument()
    expect(fileTree().closest('.h-\\[65vh\\]')).not.toBeNull()
    expect(requestsTo('/api/aps/hubs')).toHaveLength(1)
    expect(requestsTo(`/api/aps/hubs/${ids.hub}/projects`)).toHaveLength(0)
  })

  it('loads each level when its node opens: hub → projects → top contents → folder → versions', async () => {
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub'])
    expect(await findRow('Tower')).toBeInTheDocument()
    expect(requestsTo(`/api/aps/hubs/${ids.hub}/projects`)).toHaveLength(1)

    await clickPath(user, ['Tower'])
    expect(await findRow('Plans')).toBeInTheDocument()
    const top = requestsTo(contentsPath)
    expect(top).toHaveLength(1)
    expect(top[0]?.url.searchParams.has('folder_id')).toBe(false)

    await clickPath(user, ['Plans'])
    expect(await findRow('floor.dwg')).toBeInTheDocument()
    const inFolder = requestsTo(contentsPath)
    expect(inFolder).toHaveLength(2)
    expect(inFolder[1]?.url.searchParams.get('folder_id')).toBe(ids.plans)

    await clickPath(user, ['floor.dwg'])
    await findRow(/^2 /)
    expect(
      requestsTo(`/api/aps/hubs/${ids.hub}/projects/${ids.tower}/contents/${ids.floor}/versions`),
    ).toHaveLength(1)
  })

  it('keeps one query key per node, general → specific', async () => {
    const { user, queryClient } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans', 'floor.dwg'])
    await findRow(/^2 /)
    const keys = queryClient
      .getQueryCache()
      .findAll({ queryKey: treeQueries.all() })
      .map((q) => q.queryKey)
    expect(keys).toEqual(
      expect.arrayContaining([
        ['tree', 'children', { kind: 'root' }],
        ['tree', 'children', { kind: 'hub', hubId: ids.hub }],
        ['tree', 'children', { kind: 'project', hubId: ids.hub, projectId: ids.tower }],
        [
          'tree',
          'children',
          { kind: 'folder', hubId: ids.hub, projectId: ids.tower, folderId: ids.plans },
        ],
        [
          'tree',
          'children',
          { kind: 'item', hubId: ids.hub, projectId: ids.tower, itemId: ids.floor },
        ],
      ]),
    )
    expect(keys).toHaveLength(5)
  })

  it('never reloads a node that already has children', async () => {
    const { user, queryClient } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans'])
    await findRow('floor.dwg')
    expect(requestsTo(contentsPath)).toHaveLength(2)
    // Even with every cached answer out of date, closing and opening again asks nobody.
    await queryClient.invalidateQueries({ queryKey: treeQueries.all(), refetchType: 'none' })
    await clickPath(user, ['Plans'])
    await waitFor(() => expect(screen.queryByRole('treeitem', { name: 'floor.dwg' })).toBeNull())
    await clickPath(user, ['Plans'])
    expect(await findRow('floor.dwg')).toBeInTheDocument()
    await clickPath(user, ['Tower', 'Tower'])
    expect(await findRow('Plans')).toBeInTheDocument()
    expect(requestsTo(contentsPath)).toHaveLength(2)
  })

  it('titles folders by name, items by displayName, versions by number, local time and user', async () => {
    process.env.TZ = 'Asia/Tokyo'
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans', 'floor.dwg'])
    await findRow(/^2 /)
    const titles = rowTitles()
    expect(titles).toContain('Plans')
    expect(titles).not.toContain('Plans (display)')
    expect(titles).toContain('Level 1')
    expect(titles).toContain('floor.dwg')
    expect(titles).not.toContain('floor.dwg (name)')
    // 2024-03-04T05:06:07Z in Tokyo (UTC+9).
    expect(titles).toContain('2 2024-03-04 14:06:07 Ada Lovelace')
    expect(titles).toContain('1 2024-01-02 12:04:05 Charles Babbage')
  })

  it('formats version times in the browser time zone', async () => {
    process.env.TZ = 'America/New_York'
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans', 'floor.dwg'])
    expect(await findRow('2 2024-03-04 00:06:07 Ada Lovelace')).toBeInTheDocument()
  })

  it('shows versions as leaves', async () => {
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans', 'floor.dwg'])
    const v2 = await findRow(/^2 /)
    expect(v2).toHaveAttribute('aria-expanded', 'false')
    const before = fakeApi.requests.length
    await user.click(v2)
    expect(fakeApi.requests).toHaveLength(before)
  })

  it('logs a failed node load and shows it empty', async () => {
    server.use(
      http.get('*/api/aps/hubs/:hubId/projects', () => new HttpResponse('down', { status: 503 })),
    )
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub'])
    await waitFor(() => expect(logged).toHaveBeenCalled())
    await waitFor(() => expect(rowTitles()).toEqual(['Demo Hub']))
  })

  it('logs a failed hub list and shows an empty tree', async () => {
    server.use(http.get('*/api/aps/hubs', () => new HttpResponse('down', { status: 500 })))
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    renderApp('/')
    expect(await screen.findByRole('tree', { name: 'ACC files' })).toBeInTheDocument()
    expect(rowTitles()).toEqual([])
    expect(logged).toHaveBeenCalled()
  })

  it('renders only the visible rows of a big list (virtualized)', async () => {
    fakeApi.hubs = Array.from({ length: 2000 }, (_, i) => hub(`Hub ${i}`))
    renderApp('/')
    await findRow('Hub 0')
    const rows = within(fileTree()).getAllByRole('treeitem')
    expect(rows.length).toBeGreaterThan(5)
    expect(rows.length).toBeLessThan(60)
  })

  it('moves with the arrows, opens with ArrowRight, selects with Enter or Space', async () => {
    fakeApi.versions[ids.stair] = [
      version({ displayName: 'stair.dwg', versionNumber: 3, user: 'Grace Hopper' }),
    ]
    const { user } = renderApp('/')
    await findRow('Demo Hub')
    fileTree().focus()
    await user.keyboard('{ArrowRight}') // open Demo Hub
    await findRow('Tower')
    await user.keyboard('{ArrowDown}{ArrowRight}') // open Tower
    await findRow('Plans')
    await user.keyboard('{ArrowDown}{ArrowRight}') // open Plans
    await findRow('Level 1')
    await user.keyboard('{ArrowDown}{Enter}') // select Level 1
    expect(await findRow('Level 1')).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByRole('button', { name: 'Extract BOQ' })).toBeDisabled()
    await user.keyboard('{ArrowRight}') // open Level 1
    await findRow('stair.dwg')
    await user.keyboard('{ArrowDown}{ArrowRight}') // open stair.dwg
    const v3 = await findRow(/^3 /)
    await user.keyboard('{ArrowDown} ') // select the version with Space
    await waitFor(() => expect(v3).toHaveAttribute('aria-selected', 'true'))
    expect(screen.getByRole('button', { name: 'Extract BOQ' })).toBeEnabled()
    // ArrowLeft closes an open node and moves to the parent.
    await user.keyboard('{ArrowLeft}{ArrowLeft}')
    await waitFor(() => expect(screen.queryByRole('treeitem', { name: /^3 / })).toBeNull())
  })

  it('keeps the href of any selected node', async () => {
    const { user, container } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower'])
    await waitFor(() =>
      expect(container.querySelector('[data-selected-href]')).toHaveAttribute(
        'data-selected-href',
        `https://cloud.test/projects/${ids.tower}`,
      ),
    )
  })
})

describe('file tree, an answer that is no list', { timeout: 20_000 }, () => {
  it('logs what is wrong with it and shows the node empty', async () => {
    server.use(
      http.get('*/api/aps/hubs/:hubId/projects', () => HttpResponse.json({ projects: [] })),
    )
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub'])
    await waitFor(() => expect(logged).toHaveBeenCalled())
    const [, , error] = logged.mock.calls[0] ?? []
    expect(String(error)).toMatch(/Expected a list of resources .*got an object without "data"/)
    await waitFor(() => expect(rowTitles()).toEqual(['Demo Hub']))
  })

  it('logs a resource without an id, naming where it is', async () => {
    server.use(
      http.get('*/api/aps/hubs/:hubId/projects', () =>
        HttpResponse.json({ data: [{ type: 'projects', attributes: { name: 'No id' } }] }),
      ),
    )
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub'])
    await waitFor(() => expect(logged).toHaveBeenCalled())
    expect(String(logged.mock.calls[0]?.[2])).toMatch(/data\.0\.id/)
    expect(rowTitles()).toEqual(['Demo Hub'])
  })
})

describe('file tree, a project’s bills under its node', { timeout: 20_000 }, () => {
  const billsPath = `/api/boq/projects/${ids.tower}/bills`
  const keep = (name: string) => {
    const bill = assembledBill({ projectId: ids.tower, name })
    fakeApi.projectBills.bills.push(bill)
    return bill
  }

  it('lists them after the project’s folders, loaded when opened; a bill opens its page', async () => {
    keep('Structure')
    const services = keep('Services')
    const { user, router } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower'])
    // Tower's folders, then its bills, then the hub's next project.
    await findRow('Project bills')
    const titles = rowTitles()
    const at = titles.indexOf('Project bills')
    expect(titles.indexOf('Plans')).toBeLessThan(at)
    expect(titles[at + 1]).toBe('Empty project')
    expect(requestsTo(billsPath)).toHaveLength(0)
    await clickPath(user, ['Project bills'])
    expect(await findRow('Services')).toBeInTheDocument()
    expect(rowTitles().slice(at, at + 4)).toEqual([
      'Project bills',
      'Structure',
      'Services',
      'Empty project',
    ])
    expect(requestsTo(billsPath)).toHaveLength(1)
    await clickPath(user, ['Services'])
    await screen.findByRole('heading', { name: 'Services', level: 1 })
    expect(router.state.location.pathname).toBe(`/projects/${ids.tower}/bills/${services.id}`)
  })

  it('is reached and opened from the keyboard, a bill opened with Enter', async () => {
    const structure = keep('Structure')
    const { user, router } = renderApp('/')
    await findRow('Demo Hub')
    await user.click(await findRow('Demo Hub'))
    await clickPath(user, ['Tower'])
    await findRow('Project bills')
    await user.click(await findRow('Project bills'))
    await findRow('Structure')
    expect(await findRow('Project bills')).toHaveAttribute('aria-selected', 'true')
    // Selecting the bills' node is no cloud selection: nothing to extract, the project's links.
    expect(screen.getByRole('button', { name: 'Extract BOQ' })).toBeDisabled()
    expect(screen.getByRole('link', { name: 'Project bills…' })).toBeInTheDocument()
    await user.keyboard('{ArrowDown}{Enter}')
    await screen.findByRole('heading', { name: 'Structure', level: 1 })
    expect(router.state.location.pathname).toBe(`/projects/${ids.tower}/bills/${structure.id}`)
  })

  it('shows a bill made since, when the tree is shown again', async () => {
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Project bills'])
    await waitFor(() => expect(requestsTo(billsPath)).toHaveLength(1))
    // None yet: the project's next row is the hub's next project.
    const titles = rowTitles()
    expect(titles[titles.indexOf('Project bills') + 1]).toBe('Empty project')
    await clickPath(user, ['Plans'])
    await user.click(await screen.findByRole('link', { name: 'New project bill…' }))
    await user.clear(await screen.findByLabelText('Bill name'))
    await user.type(screen.getByLabelText('Bill name'), 'Tender')
    await user.click(screen.getByRole('button', { name: 'Make the bill' }))
    await screen.findByRole('heading', { name: 'Tender', level: 1 })
    await user.click(screen.getByRole('button', { name: 'Home' }))
    expect(await findRow('Tender')).toBeInTheDocument()
  })
})
