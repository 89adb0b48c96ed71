import { screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { fakeApi } from '../../../testing/fake-api'
import { changeBill, succeededJob } from '../../../testing/fixtures'
import { renderApp } from '../../../testing/render-app'
import type { ChangeItem } from '../api/compare-api'
import type { ChangeDrawingProps } from './drawing-slot'

// The drawing feature's view stands in as the agreed props describe it (its renderer is its own
// feature's to test): which job it draws and what it colours.
vi.mock('../../drawing/components/drawing-view', () => ({
  DrawingView: ({ jobId, marked }: ChangeDrawingProps) => (
    <p>
      Drawing of {jobId}: added {marked.added.join(' ') || 'none'}; removed{' '}
      {marked.removed.join(' ') || 'none'}
    </p>
  ),
}))

const bill = () => screen.findByRole('region', { name: 'Change bill' })
const rowOf = async (name: string) =>
  within(await bill()).findByRole('row', { name: new RegExp(name) })

/** A priced item of both bills at 10 m and a rate of 40 unless told otherwise. */
const item = (ref: string, change: Partial<ChangeItem>): ChangeItem => ({
  ref,
  code: '22.10',
  description: 'Walls',
  unit: 'm',
  before: { quantity: 10, rate: 40, amount: 400 },
  after: { quantity: 10, rate: 40, amount: 400 },
  amountChange: 0,
  state: 'unchanged',
  ...change,
})

// Whole-app tests: generous time on a shared machine.
describe('the change bill', { timeout: 20_000 }, () => {
  it('shows what changed, item by item, and hides the unchanged until asked', async () => {
    fakeApi.changeBills['v1:v2'] = {
      status: 200,
      body: changeBill('v1', 'v2', [
        { description: 'Door - Imperial', before: 12, after: 14 },
        {
          ref: 'B1',
          kind: 'length',
          description: 'Walls',
          unit: 'm',
          before: 84.2,
          after: 91.7,
          change: 7.5,
          changePercent: 8.907,
        },
        { description: 'Window', before: 5, after: 5 },
      ]),
    }
    const { user } = renderApp('/compare?from=v1&to=v2')
    expect(
      await screen.findByRole('heading', {
        name: 'Changes from plan.dwg, version 1 to plan.dwg, version 2',
      }),
    ).toBeInTheDocument()
    const doors = await rowOf('Door - Imperial')
    expect(
      within(doors)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['A1', '12', '14', '+2', '+16.7%', 'nr', 'changed'])
    const walls = await rowOf('Walls')
    expect(walls).toHaveTextContent('84.20')
    expect(walls).toHaveTextContent('91.70')
    expect(walls).toHaveTextContent('+7.50')
    expect(within(await bill()).queryByRole('row', { name: /Window/ })).toBeNull()

    await user.click(screen.getByRole('checkbox', { name: 'Show unchanged (1)' }))
    expect(await rowOf('Window')).toHaveTextContent('unchanged')
    const xlsx = screen.getByRole('link', { name: 'Download XLSX' })
    expect(xlsx.getAttribute('href')).toMatch(/\/api\/boq\/compare\?from=v1&to=v2&format=xlsx$/)
  })

  it('shows each line under its own item number: a removed one marked, an added one new', async () => {
    fakeApi.changeBills['v1:v2'] = {
      status: 200,
      body: changeBill('v1', 'v2', [
        { ref: 'A3', description: 'SINK', before: 0, after: 1 },
        { ref: 'A1 (removed)', description: 'DOOR', before: 12, after: 0 },
        { ref: 'A2', description: 'WINDOW', before: 5, after: 7 },
      ]),
    }
    renderApp('/compare?from=v1&to=v2')
    const cells = async (name: string) =>
      within(await rowOf(name))
        .getAllByRole('cell')
        .map((cell) => cell.textContent)
    expect(await cells('DOOR')).toEqual([
      'A1 (removed)',
      '12',
      '0',
      '−12',
      '−100%',
      'nr',
      'removed',
    ])
    expect(await cells('SINK')).toEqual(['A3', '0', '1', '+1', '–', 'nr', 'added'])
    expect((await cells('WINDOW'))[0]).toBe('A2')
  })

  it('says above the change bill when the two jobs are of two different drawings', async () => {
    const notice = 'These are two different drawings: plan.dwg and survey.dwg.'
    const changes = changeBill('v1', 'v9', [{ description: 'Door', before: 12, after: 14 }])
    fakeApi.changeBills['v1:v9'] = {
      status: 200,
      body: {
        ...changes,
        to: { ...changes.to, fileName: 'survey.dwg', versionNumber: 1 },
        differentDrawings: notice,
      },
    }
    fakeApi.changeBills['v1:v2'] = {
      status: 200,
      body: changeBill('v1', 'v2', [{ description: 'Door', before: 12, after: 14 }]),
    }
    const { unmount } = renderApp('/compare?from=v1&to=v9')
    const said = await within(await bill()).findByText(notice)
    const table = within(await bill()).getByRole('table')
    expect(said.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    unmount()

    // Two versions of one drawing: nothing said.
    renderApp('/compare?from=v1&to=v2')
    expect(await rowOf('Door')).toBeInTheDocument()
    expect(within(await bill()).queryByText(/different drawings/)).toBeNull()
  })

  it('shows beside it the newer drawing with the entities added, or the older with those removed', async () => {
    fakeApi.changeBills['v1:v2'] = {
      status: 200,
      body: changeBill('v1', 'v2', [{ description: 'Door', before: 12, after: 14 }], [], {
        added: ['2A0', '2A1', '3F'],
        removed: ['1B'],
      }),
    }
    // Each drawing is drawn from the geometry its Job names.
    fakeApi.jobs = [succeededJob({ id: 'v2' }), succeededJob({ id: 'v1' })]
    const { user } = renderApp('/compare?from=v1&to=v2')
    const drawings = await screen.findByRole('complementary', { name: 'Drawing changes' })
    expect(drawings).toHaveTextContent('3 added, 1 removed')
    const after = within(drawings).getByRole('button', { name: 'After' })
    expect(after).toHaveAttribute('aria-pressed', 'true')
    expect(
      await within(drawings).findByText('Drawing of v2: added 2A0 2A1 3F; removed none'),
    ).toBeInTheDocument()
    expect(drawings).toHaveTextContent('plan.dwg, version 2')

    await user.click(within(drawings).getByRole('button', { name: 'Before' }))
    expect(
      await within(drawings).findByText('Drawing of v1: added none; removed 1B'),
    ).toBeInTheDocument()
    expect(within(drawings).getByRole('button', { name: 'Before' })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
    expect(after).toHaveAttribute('aria-pressed', 'false')
    expect(drawings).toHaveTextContent('plan.dwg, version 1')
    expect(within(drawings).queryByText(/Drawing of v2/)).toBeNull()
  })

  it('shows the priced items above the measured lines, with their amounts and the total change', async () => {
    fakeApi.changeBills['v1:v2'] = {
      status: 200,
      body: {
        ...changeBill('v1', 'v2', [
          { description: 'DOOR', before: 11, after: 12 },
          { description: 'WINDOW', before: 2, after: 2 },
        ]),
        items: [
          item('4 (removed)', {
            code: '23.20',
            description: 'Windows',
            unit: 'nr',
            before: { quantity: 2, rate: 300, amount: 600 },
            after: { quantity: 0, rate: null, amount: 0 },
            amountChange: -600,
            state: 'removed',
          }),
          item('3', {
            code: '23.10',
            description: 'Doors',
            unit: 'nr',
            before: { quantity: 11, rate: 150, amount: 1650 },
            after: { quantity: 11, rate: 1750, amount: 19250 },
            amountChange: 17600,
            state: 'changed',
          }),
          item('5', {
            code: '24.10',
            description: 'Chairs',
            unit: 'nr',
            before: { quantity: 0, rate: null, amount: 0 },
            after: { quantity: 6, rate: null, amount: null },
            state: 'added',
          }),
          item('1', {}),
        ],
        total: { before: 2650, after: 19650, change: 17000 },
      },
    }
    const { user } = renderApp('/compare?from=v1&to=v2')
    const items = await within(await bill()).findByRole('table', { name: 'Items' })
    const lines = within(await bill()).getByRole('table', { name: 'Measured lines' })
    expect(items.compareDocumentPosition(lines) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    const cells = (name: string) =>
      within(within(items).getByRole('row', { name: new RegExp(name) }))
        .getAllByRole('cell')
        .map((cell) => cell.textContent)
    expect(cells('Doors')).toEqual([
      '3',
      '23.10',
      'nr',
      '11',
      '11',
      '150.00',
      '1,750.00',
      '1,650.00',
      '19,250.00',
      '+17,600.00',
      'changed',
    ])
    // Not in the newer bill: no rate after. In it without a rate: a dash for its amount.
    expect(cells('Windows').slice(5, 10)).toEqual(['300.00', '—', '600.00', '0.00', '−600.00'])
    expect(cells('Chairs').slice(5, 10)).toEqual(['—', '—', '0.00', '—', '0.00'])
    const total = within(items).getByRole('row', { name: /Total/ })
    expect(
      within(total)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['2,650.00', '19,650.00', '+17,000.00', ''])
    // The unchanged item and line are hidden until asked, as one.
    expect(within(items).queryByRole('row', { name: /Walls/ })).toBeNull()
    await user.click(screen.getByRole('checkbox', { name: 'Show unchanged (2)' }))
    expect(within(items).getByRole('row', { name: /Walls/ })).toHaveTextContent('unchanged')
    expect(within(lines).getByRole('row', { name: /WINDOW/ })).toHaveTextContent('unchanged')
  })

  it('says under a line and an item which zone gained what another lost', async () => {
    const moved = [
      { zone: 'Level 1 › Kitchen', before: 2, after: 1 },
      { zone: 'Level 1 › Living', before: 1, after: 2 },
      { zone: null, before: 1, after: 1 },
    ]
    const [line] = changeBill('v1', 'v2', [{ description: 'CHAIR', before: 4, after: 4 }]).lines
    fakeApi.changeBills['v1:v2'] = {
      status: 200,
      body: {
        ...changeBill('v1', 'v2', []),
        // The same four chairs, one moved from the kitchen to the living room: changed.
        lines: [{ ...line, state: 'changed', byZone: moved }],
        items: [item('1', { description: 'Chairs', unit: 'nr', state: 'changed', byZone: moved })],
        total: { before: 400, after: 400, change: 0 },
      },
    }
    renderApp('/compare?from=v1&to=v2')
    const words = 'By zone: Level 1 › Kitchen: 2 → 1; Level 1 › Living: 1 → 2'
    const items = await within(await bill()).findByRole('table', { name: 'Items' })
    expect(within(items).getByRole('rowheader', { name: /Chairs/ })).toHaveTextContent(words)
    const lines = within(await bill()).getByRole('table', { name: 'Measured lines' })
    expect(within(lines).getByRole('rowheader', { name: /CHAIR/ })).toHaveTextContent(words)
  })

  it('shows no items when the bills are not both priced, and says which is not', async () => {
    const note = 'The earlier bill was not priced: its items and amounts are not compared.'
    fakeApi.changeBills['v1:v2'] = {
      status: 200,
      body: changeBill('v1', 'v2', [{ description: 'Door', before: 12, after: 14 }], [note]),
    }
    renderApp('/compare?from=v1&to=v2')
    expect(await within(await bill()).findByText(note)).toBeInTheDocument()
    expect(
      within(await bill())
        .getAllByRole('table')
        .map((t) => t.getAttribute('aria-label')),
    ).toEqual(['Measured lines'])
  })

  it('says the server’s reason when the bills cannot be compared', async () => {
    fakeApi.changeBills['v1:v3'] = {
      status: 409,
      body: 'The extraction of plan.dwg has not finished yet; compare once it has.',
    }
    renderApp('/compare?from=v1&to=v3')
    expect(await screen.findByRole('alert')).toHaveTextContent('has not finished yet')
  })

  it('opens from the job that has an earlier version, and lets any two finished jobs be chosen', async () => {
    const first = succeededJob({ id: 'v1', fileName: 'plan.dwg', fileVersionNumber: 1 })
    const second = succeededJob({ id: 'v2', fileName: 'plan.dwg', fileVersionNumber: 2 })
    second.result = second.result && {
      ...second.result,
      comparedWith: { jobId: 'v1', fileName: 'plan.dwg', versionNumber: 1 },
    }
    fakeApi.jobs = [second, first]
    fakeApi.changeBills['v1:v2'] = {
      status: 200,
      body: changeBill('v1', 'v2', [{ description: 'Door - Imperial', before: 12, after: 14 }]),
    }
    fakeApi.changeBills['v2:v1'] = {
      status: 200,
      body: changeBill('v2', 'v1', [{ description: 'Door - Imperial', before: 14, after: 12 }]),
    }
    const { user, router } = renderApp('/')
    await user.click(await screen.findByRole('link', { name: 'Changes since version 1' }))
    expect(await rowOf('Door - Imperial')).toHaveTextContent('+2')
    expect(router.state.location.search).toEqual({ from: 'v1', to: 'v2' })

    const picker = screen.getByRole('form', { name: 'Compare two bills' })
    const [before, after] = within(picker).getAllByRole('combobox')
    await user.selectOptions(before as HTMLElement, 'v2')
    await user.selectOptions(after as HTMLElement, 'v1')
    await user.click(within(picker).getByRole('button', { name: 'Compare' }))
    expect(await rowOf('Door - Imperial')).toHaveTextContent('−2')
  })
})
