import { screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { TakeoffRule } from '#contract/takeoff-rules.ts'
import { exampleBoq } from '#contract/testing/boq.ts'
import { fakeApi, ids } from '../../../testing/fake-api'
import { fakePricing, succeededJob, takeoffRule } from '../../../testing/fixtures'
import { renderApp } from '../../../testing/render-app'

// The drawing beside the bill is the drawing feature's to test.
vi.mock('../../drawing/components/drawing-view', () => ({
  DrawingView: () => <p>Drawing</p>,
}))
vi.mock('../../drawing/viewer/load-viewer', () => ({
  loadGeometryViewer: async () => async () => {
    throw new Error('No renderer in jsdom.')
  },
}))

const desks: TakeoffRule[] = [
  takeoffRule({ block: 'bloko', code: 'F.10', description: 'Desk', rate: 1000 }),
]

describe('a priced bill with bill settings', { timeout: 20_000 }, () => {
  it('names the currency and shows the adjustments between the items’ total and the total', async () => {
    const priced = {
      ...fakePricing(desks),
      currency: { code: 'EUR', symbol: '€', decimals: 2 },
      itemsTotal: 2000,
      adjustments: [
        {
          kind: 'percent' as const,
          name: 'Preliminaries',
          basis: '10% of 2,000.00',
          percent: 10,
          of: 2000,
          amount: 200,
        },
        {
          kind: 'tax' as const,
          name: 'VAT',
          basis: '20% of 2,200.00 (the total before tax)',
          percent: 20,
          of: 2200,
          amount: 440,
        },
      ],
      total: 2640,
    }
    fakeApi.jobs = [
      succeededJob({
        id: 'j1',
        fileName: 'plan.dwg',
        fileVersionNumber: 3,
        pricedWith: { rulesVersion: 1, classificationVersion: 0 },
      }),
    ]
    fakeApi.results.j1 = { status: 200, body: { ...exampleBoq(), priced } }
    fakeApi.rules[ids.tower] = {
      version: 1,
      savedBy: 'Ada Lovelace',
      savedAt: '2024-05-01T10:00:00.000Z',
      rules: desks,
    }
    const { user } = renderApp('/jobs/j1')
    await user.click(await screen.findByRole('tab', { name: 'Priced' }))
    const table = await screen.findByRole('table', { name: 'Priced bill' })
    expect(within(table).getByRole('columnheader', { name: 'Amount (EUR)' })).toBeInTheDocument()
    const row = (name: string | RegExp) =>
      within(table).getByRole('rowheader', { name }).closest('tr')
    expect(row('Items total')).toHaveTextContent(/^Items total2,000\.00$/)
    expect(row(/^Preliminaries/)).toHaveTextContent(/^Preliminaries \(10% of 2,000\.00\)200\.00$/)
    expect(row(/^VAT/)).toHaveTextContent('440.00')
    expect(row('Total')).toHaveTextContent(/^Total€2,640\.00$/)
  })
})
