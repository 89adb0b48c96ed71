import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { NotClassified, TakeoffRule } from '#contract/takeoff-rules.ts'
import { exampleBoq, pastedBlocksBoq } from '#contract/testing/boq.ts'
import { fakeApi, ids, requestsTo } from '../../testing/fake-api'
import {
  fakePricing,
  notClassifiedLine,
  pricedBill,
  succeededJob,
  takeoffRule,
} from '../../testing/fixtures'
import { renderApp } from '../../testing/render-app'

// The drawing beside the bill is the drawing feature's to test.
vi.mock('../../features/drawing/components/drawing-view', () => ({
  DrawingView: () => <p>Drawing</p>,
}))
vi.mock('../../features/drawing/viewer/load-viewer', () => {
  const load = async () => async () => {
    throw new Error('No renderer in jsdom.')
  }
  return { loadGeometryViewer: load }
})

const PRICE_PATH = '/api/boq/jobs/j1/price'

const totalRow = (table: HTMLElement) =>
  within(table).getByRole('rowheader', { name: 'Total' }).closest('tr')

/** A finished job; its bill of record priced with `rules` (version `rulesVersion`), or none. */
function keptBill(rules: TakeoffRule[] = [], rulesVersion = 0) {
  fakeApi.jobs = [
    succeededJob({
      id: 'j1',
      fileName: 'plan.dwg',
      fileVersionNumber: 3,
      pricedWith: { rulesVersion, classificationVersion: 0 },
    }),
  ]
  const bill = exampleBoq()
  fakeApi.results.j1 = {
    status: 200,
    body: rules.length > 0 ? { ...bill, priced: fakePricing(rules) } : bill,
  }
}

/** Opens the preview with the project's rules today, from the notice saying they are newer. */
async function openPreview(user: { click: (element: Element) => Promise<void> }) {
  await user.click(await screen.findByRole('button', { name: 'Preview with today’s rules' }))
  return screen.findByRole('region', { name: 'Preview with today’s rules' })
}

async function openPriced() {
  const app = renderApp('/jobs/j1')
  await app.user.click(await screen.findByRole('tab', { name: 'Priced' }))
  return app
}

describe('the priced bill on the result page', { timeout: 20_000 }, () => {
  it('shows sections, items, amounts and the total of the bill of record', async () => {
    const rules = [
      takeoffRule({ block: 'bloko', code: 'F.10', description: 'Desk', rate: 1250 }),
      takeoffRule({ match: 'length', layer: 'Tavolo 2', code: 'W.1', unit: 'm', rate: 4.2 }),
    ]
    keptBill(rules, 7)
    fakeApi.rules[ids.tower] = {
      version: 7,
      savedBy: 'Ada Lovelace',
      savedAt: '2024-05-01T10:00:00.000Z',
      rules,
    }
    const { user } = await openPriced()
    const table = await screen.findByRole('table', { name: 'Priced bill' })
    const furniture = within(table).getByRole('rowgroup', { name: 'Section F Section F' })
    expect(furniture).toHaveTextContent('F.10Desk2nr1,250.002,500.00')
    expect(furniture).toHaveTextContent('Subtotal F2,500.00')
    expect(within(table).getByRole('rowgroup', { name: 'Section W Section W' })).toHaveTextContent(
      'W.1Linework on layer Tavolo 212.50m4.2052.50',
    )
    expect(totalRow(table)).toHaveTextContent(/^Total2,552\.50$/)
    expect(screen.getByText(/priced with rules version 7/)).toBeInTheDocument()
    // The bill the job keeps: nothing is priced to show it, nor shown again.
    await user.click(screen.getByRole('tab', { name: /^Bill/ }))
    await user.click(screen.getByRole('tab', { name: 'Priced' }))
    await screen.findByRole('table', { name: 'Priced bill' })
    expect(requestsTo(PRICE_PATH, 'POST')).toHaveLength(0)
    // What no rule took is listed, never dropped.
    expect(screen.getByRole('region', { name: 'Not classified' })).toHaveTextContent(
      'A2CIRKLO_PUNKTOJ8nr',
    )
  })

  it('links the job’s project’s rules page from the result page', async () => {
    keptBill()
    const { user, router } = renderApp('/jobs/j1')
    await user.click(await screen.findByRole('link', { name: 'Takeoff rules of this project' }))
    await screen.findByRole('heading', { name: 'Takeoff rules' })
    expect(router.state.location.pathname).toBe(`/projects/${ids.tower}/rules`)
    expect(router.state.location.search).toEqual({ job: 'j1' })
  })

  it('says when the project has no rules yet, with the way to its rules page', async () => {
    keptBill()
    const { user, router } = await openPriced()
    expect(await screen.findByText(/No takeoff rules for this project yet/)).toBeInTheDocument()
    expect(screen.queryByRole('table', { name: 'Priced bill' })).not.toBeInTheDocument()
    await user.click(screen.getByRole('link', { name: 'Write the project’s rules' }))
    await screen.findByRole('heading', { name: 'Takeoff rules' })
    expect(router.state.location.pathname).toBe(`/projects/${ids.tower}/rules`)
  })

  it('shows the server’s words when the preview cannot be priced', async () => {
    keptBill([takeoffRule({ code: 'A', rate: 1 })], 1)
    fakeApi.rules[ids.tower] = { version: 2, savedBy: 'Ada', savedAt: null, rules: [] }
    fakeApi.price = () => ({ status: 500, body: 'The rules could not be read.' })
    const { user } = await openPriced()
    const preview = await openPreview(user)
    expect(await within(preview).findByRole('alert')).toHaveTextContent(
      'The rules could not be read.',
    )
  })

  it('“Make a rule…” opens the rules page with a row from the line; once saved, today’s rules price it in a preview', async () => {
    keptBill()
    fakeApi.price = (jobId, request) => {
      const rules = request.rules ?? fakeApi.rules[ids.tower]?.rules ?? []
      return {
        status: 200,
        body: {
          jobId,
          rulesVersion: 0,
          classificationVersion: null,
          priced:
            rules.length === 0
              ? pricedBill({
                  notClassified: [
                    {
                      line: 'B1',
                      match: 'length',
                      description: 'Linework on layer Tavolo 2',
                      layer: 'Tavolo 2',
                      kind: 'arc,polyline',
                      unit: 'm',
                      quantity: 12.5,
                      count: 5,
                      handles: [],
                    },
                  ],
                })
              : pricedBill({
                  sections: [{ code: 'W', title: 'Walls', items: ['1'], subtotal: 50 }],
                  items: [
                    {
                      ref: '1',
                      section: 'W',
                      code: 'W.1',
                      description: 'Walls',
                      unit: 'm',
                      quantity: 12.5,
                      measuredQuantity: 12.5,
                      decimals: 2,
                      rate: 4,
                      amount: 50,
                      rules: [1],
                      sources: [],
                      flags: [],
                    },
                  ],
                  total: 50,
                }),
        },
      }
    }
    const { user, router } = await openPriced()
    await user.click(
      await screen.findByRole('link', { name: 'Make a rule for B1 Linework on layer Tavolo 2' }),
    )
    await screen.findByRole('heading', { name: 'Takeoff rules' })
    expect(router.state.location.search).toMatchObject({
      job: 'j1',
      match: 'length',
      layer: 'Tavolo 2',
      kind: 'arc,polyline',
      description: 'Linework on layer Tavolo 2',
    })
    const row = await screen.findByRole('row', { name: 'Rule 1' })
    expect(within(row).getByRole('combobox', { name: 'Match, row 1' })).toHaveValue('length')
    expect(within(row).getByRole('textbox', { name: 'Layer, row 1' })).toHaveValue('Tavolo 2')
    expect(within(row).getByRole('textbox', { name: 'Kind, row 1' })).toHaveValue('arc,polyline')
    expect(within(row).getByRole('textbox', { name: 'Block, row 1' })).toHaveValue('')
    expect(within(row).getByRole('textbox', { name: 'Description, row 1' })).toHaveValue(
      'Linework on layer Tavolo 2',
    )
    // The preview is of the job the line came from.
    expect(screen.getByRole('combobox', { name: 'Preview against' })).toHaveValue('j1')

    await user.type(within(row).getByRole('textbox', { name: 'Code, row 1' }), 'W.1')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Saved as version 1.')).toBeInTheDocument()
    // Saved: the address no longer asks for the row, so a reload does not add it again.
    await waitFor(() => expect(router.state.location.search).toEqual({ job: 'j1' }))
    expect(screen.getByRole('row', { name: 'Rule 1' })).toBeInTheDocument()
    expect(screen.queryByRole('row', { name: 'Rule 2' })).not.toBeInTheDocument()
    const before = requestsTo(PRICE_PATH, 'POST').filter((r) => r.body === '').length

    await user.click(screen.getByRole('link', { name: 'Back to the result' }))
    await user.click(await screen.findByRole('tab', { name: 'Priced' }))
    // The bill of record is the extraction's, priced with none: today's rules are a preview.
    expect(
      await screen.findByText('Priced with no rules; the project’s rules are now version 1.'),
    ).toBeInTheDocument()
    const preview = await openPreview(user)
    const table = await within(preview).findByRole('table', { name: 'Preview of the priced bill' })
    expect(totalRow(table)).toHaveTextContent(/^Total50\.00$/)
    await waitFor(() =>
      expect(requestsTo(PRICE_PATH, 'POST').filter((r) => r.body === '').length).toBe(before + 1),
    )
  })

  describe('making rules for several lines at once', () => {
    /** A kept bill of pasted blocks, priced with no rules: its lines, and the blocks, not classified. */
    function unclassified() {
      fakeApi.jobs = [
        succeededJob({
          id: 'j1',
          fileName: 'plan.dwg',
          pricedWith: { rulesVersion: 0, classificationVersion: 0 },
        }),
      ]
      const boq = pastedBlocksBoq(3)
      const pasted: NotClassified[] = boq.bill
        .filter((line) => line.block?.startsWith('A$C'))
        .map((line) =>
          notClassifiedLine({
            line: line.ref,
            match: 'count',
            description: line.description,
            block: line.block,
            layer: '0',
            kind: undefined,
            unit: 'nr',
            quantity: line.quantity,
          }),
        )
      const notClassified = [
        notClassifiedLine({
          line: 'A1',
          match: 'count',
          description: 'bloko',
          block: 'bloko',
          layer: 'Tavolo 3',
          kind: undefined,
          unit: 'nr',
          quantity: 2,
        }),
        ...pasted,
        notClassifiedLine({ line: 'B1', description: 'Arcs on layer Tavolo 2', kind: 'arc' }),
        notClassifiedLine({
          line: 'B2',
          description: 'Polylines on layer Tavolo 2',
          kind: 'polyline',
        }),
        notClassifiedLine({ line: 'B3', description: 'Splines on layer Tavolo 2', kind: 'spline' }),
      ]
      fakeApi.results.j1 = { status: 200, body: { ...boq, priced: pricedBill({ notClassified }) } }
    }

    const box = (name: string) => screen.getByRole('checkbox', { name: `Select ${name}` })

    it('a shift-click selects the lines between; one rule for a layer’s linework, opened on the rules page', async () => {
      unclassified()
      const { user, router } = await openPriced()
      const list = await screen.findByRole('region', { name: 'Not classified' })
      expect(within(list).getByRole('heading')).toHaveTextContent('Not classified (7)')
      await user.click(box('B1 Arcs on layer Tavolo 2'))
      await user.keyboard('{Shift>}')
      await user.click(box('B3 Splines on layer Tavolo 2'))
      await user.keyboard('{/Shift}')
      expect(box('B2 Polylines on layer Tavolo 2')).toBeChecked()
      expect(box('A1 bloko')).not.toBeChecked()
      expect(within(list).getByRole('status')).toHaveTextContent('3 lines selected: a rule')
      await user.click(box('A1 bloko'))
      await user.click(within(list).getByRole('link', { name: 'Make 2 rules…' }))
      await screen.findByRole('heading', { name: 'Takeoff rules' })
      expect(router.state.location.search).toEqual({
        job: 'j1',
        rules: [
          { match: 'count', block: 'bloko', description: 'bloko' },
          {
            match: 'length',
            layer: 'Tavolo 2',
            kind: 'arc,polyline,spline',
            description: 'Arcs, polylines and splines on layer Tavolo 2',
          },
        ],
      })
      const first = await screen.findByRole('row', { name: 'Rule 1' })
      expect(within(first).getByRole('textbox', { name: 'Block, row 1' })).toHaveValue('bloko')
      const second = screen.getByRole('row', { name: 'Rule 2' })
      expect(within(second).getByRole('combobox', { name: 'Match, row 2' })).toHaveValue('length')
      expect(within(second).getByRole('textbox', { name: 'Kind, row 2' })).toHaveValue(
        'arc,polyline,spline',
      )
      expect(within(second).getByRole('textbox', { name: 'Layer, row 2' })).toHaveValue('Tavolo 2')
    })

    it('pasted blocks are one line that opens onto them; its box selects them all, one rule for them', async () => {
      unclassified()
      const { user, router } = await openPriced()
      const list = await screen.findByRole('region', { name: 'Not classified' })
      const toggle = within(list).getByRole('button', { name: 'Pasted blocks: 3 lines' })
      expect(within(list).getByText('Pasted blocks (3 kinds, 4 placed)')).toBeInTheDocument()
      expect(within(list).queryByRole('checkbox', { name: /A\$C00294820/ })).toBeNull()
      await user.click(toggle)
      expect(toggle).toHaveAttribute('aria-expanded', 'true')
      await user.click(box('A4 A$C00294821'))
      const group = box('Pasted blocks')
      expect(group).not.toBeChecked()
      expect((group as HTMLInputElement).indeterminate).toBe(true)
      await user.click(group)
      expect(group).toBeChecked()
      expect(box('A3 A$C00294820')).toBeChecked()
      expect(within(list).getByRole('status')).toHaveTextContent('3 lines selected: a rule')
      await user.click(within(list).getByRole('link', { name: 'Make a rule for them…' }))
      await screen.findByRole('heading', { name: 'Takeoff rules' })
      expect(router.state.location.search).toEqual({
        job: 'j1',
        rules: [{ match: 'count', block: 'A$C*', description: 'Pasted blocks' }],
      })
      expect(
        within(await screen.findByRole('row', { name: 'Rule 1' })).getByRole('textbox', {
          name: 'Block, row 1',
        }),
      ).toHaveValue('A$C*')
    })

    it('an address asking for rules that are not rules opens the page without them', async () => {
      unclassified()
      const { router } = renderApp(
        '/projects/b.tower/rules?rules=%5B%7B%22match%22%3A%22nope%22%7D%5D',
      )
      await screen.findByRole('heading', { name: 'Takeoff rules' })
      expect(router.state.location.search).toEqual({})
      expect(
        await screen.findByText('No rules yet: add a row or import a file.'),
      ).toBeInTheDocument()
    })
  })
})
