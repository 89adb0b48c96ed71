import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { PricedWith } from '#contract/jobs.ts'
import type { TakeoffRule } from '#contract/takeoff-rules.ts'
import { exampleBoq } from '#contract/testing/boq.ts'
import { fakeApi, ids, requestsTo } from '../../../testing/fake-api'
import { fakePricing, succeededJob, takeoffRule } from '../../../testing/fixtures'
import { renderApp } from '../../../testing/render-app'

// The drawing beside the bill is the drawing feature's to test.
vi.mock('../../drawing/components/drawing-view', () => ({
  DrawingView: () => <p>Drawing</p>,
}))
vi.mock('../../drawing/viewer/load-viewer', () => {
  const load = async () => async () => {
    throw new Error('No renderer in jsdom.')
  }
  return { loadGeometryViewer: load }
})

const desks = (rate: number): TakeoffRule[] => [
  takeoffRule({ block: 'bloko', code: 'F.10', description: 'Desk', rate }),
]

/** The project's rules saved as `version`, desks at `rate`. */
function savedRules(version: number, rate: number) {
  fakeApi.rules[ids.tower] = {
    version,
    savedBy: 'Ada Lovelace',
    savedAt: '2024-05-01T10:00:00.000Z',
    rules: desks(rate),
  }
}

/** A finished job whose bill of record was priced with desks at `rate`, as `pricedWith` says. */
function keptBill(
  rate: number,
  pricedWith: PricedWith | null = { rulesVersion: 1, classificationVersion: 0 },
) {
  fakeApi.jobs = [
    succeededJob({ id: 'j1', fileName: 'plan.dwg', fileVersionNumber: 3, pricedWith }),
  ]
  fakeApi.results.j1 = { status: 200, body: { ...exampleBoq(), priced: fakePricing(desks(rate)) } }
}

async function openPriced() {
  const app = renderApp('/jobs/j1')
  await app.user.click(await screen.findByRole('tab', { name: 'Priced' }))
  return app
}

const totalOf = (table: HTMLElement) =>
  within(table).getByRole('rowheader', { name: 'Total' }).closest('tr')
const PRICE = '/api/boq/jobs/j1/price'
const REPRICE = '/api/boq/jobs/j1/reprice'
const NOTICE = 'Older than the project’s rules'

describe('the bill of record on the Priced tab', { timeout: 20_000 }, () => {
  it('shows the bill the job keeps, naming what priced it, and prices nothing', async () => {
    keptBill(1000)
    savedRules(1, 1000)
    await openPriced()
    const record = await screen.findByRole('region', { name: 'Bill of record' })
    expect(record).toHaveTextContent(
      'Bill of record, priced with rules version 1 and no classification. The downloads hold this bill.',
    )
    expect(totalOf(within(record).getByRole('table', { name: 'Priced bill' }))).toHaveTextContent(
      /^Total2,000\.00$/,
    )
    // The project's rules are those it was priced with: nothing to say, nothing to price.
    await waitFor(() => expect(requestsTo(`/api/boq/projects/${ids.tower}/rules`)).toHaveLength(1))
    expect(screen.queryByRole('region', { name: NOTICE })).not.toBeInTheDocument()
    expect(requestsTo(PRICE, 'POST')).toHaveLength(0)
  })

  it('says when the project’s rules are newer, and previews today’s rules labelled as a preview', async () => {
    keptBill(1000)
    savedRules(3, 1250)
    const { user } = await openPriced()
    const notice = await screen.findByRole('region', { name: NOTICE })
    expect(notice).toHaveTextContent(
      'Priced with rules version 1; the project’s rules are now version 3.',
    )
    // The bill of record is still what shows first.
    const record = screen.getByRole('region', { name: 'Bill of record' })
    expect(totalOf(within(record).getByRole('table', { name: 'Priced bill' }))).toHaveTextContent(
      /^Total2,000\.00$/,
    )

    await user.click(within(notice).getByRole('button', { name: 'Preview with today’s rules' }))
    const preview = await screen.findByRole('region', { name: 'Preview with today’s rules' })
    expect(preview).toHaveTextContent(
      'Preview with today’s rules (rules version 3): not the bill of record.',
    )
    const table = await within(preview).findByRole('table', { name: 'Preview of the priced bill' })
    expect(totalOf(table)).toHaveTextContent(/^Total2,500\.00$/)
    expect(screen.queryByRole('region', { name: 'Bill of record' })).not.toBeInTheDocument()
    expect(screen.queryByRole('table', { name: 'Priced bill' })).not.toBeInTheDocument()
    expect(requestsTo(PRICE, 'POST')).toHaveLength(1)
    // Nothing was kept: the job is as it was.
    expect(requestsTo(REPRICE, 'POST')).toHaveLength(0)

    await user.click(within(preview).getByRole('button', { name: 'Back to the bill of record' }))
    expect(screen.getByRole('region', { name: 'Bill of record' })).toBeInTheDocument()
  })

  it('re-prices with one click: a new bill of record, written back, and the page shows it', async () => {
    keptBill(1000)
    savedRules(3, 1250)
    const { user } = await openPriced()
    const notice = await screen.findByRole('region', { name: NOTICE })
    await user.click(within(notice).getByRole('button', { name: 'Re-price' }))

    expect(
      await screen.findByText(
        'Re-priced with rules version 3: written back as plan BOQ.xlsx version 2.',
      ),
    ).toBeInTheDocument()
    const posts = requestsTo(REPRICE, 'POST')
    expect(posts).toHaveLength(1)
    expect(posts[0]?.body).toEqual({ writeBack: true })
    // The page reads the job and its bill again: priced with today's rules, nothing to say.
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Bill of record' })).toHaveTextContent(
        'priced with rules version 3',
      ),
    )
    const record = screen.getByRole('region', { name: 'Bill of record' })
    expect(totalOf(within(record).getByRole('table', { name: 'Priced bill' }))).toHaveTextContent(
      /^Total2,500\.00$/,
    )
    expect(screen.queryByRole('region', { name: NOTICE })).not.toBeInTheDocument()
  })

  it('says why a re-pricing was refused, and keeps the bill of record shown', async () => {
    keptBill(1000)
    savedRules(2, 1250)
    fakeApi.reprice = () => ({ status: 502, body: 'The cloud refused the workbook.' })
    const { user } = await openPriced()
    const notice = await screen.findByRole('region', { name: NOTICE })
    await user.click(within(notice).getByRole('button', { name: 'Re-price' }))
    expect(await within(notice).findByRole('alert')).toHaveTextContent(
      'Could not re-price: The cloud refused the workbook.',
    )
    expect(within(notice).getByRole('button', { name: 'Re-price' })).toBeEnabled()
    expect(screen.getByRole('region', { name: 'Bill of record' })).toBeInTheDocument()
  })

  it('offers to price a bill extracted before the project had rules', async () => {
    fakeApi.jobs = [
      succeededJob({
        id: 'j1',
        fileName: 'plan.dwg',
        pricedWith: { rulesVersion: 0, classificationVersion: 0 },
      }),
    ]
    fakeApi.results.j1 = { status: 200, body: exampleBoq() }
    savedRules(1, 1250)
    await openPriced()
    expect(await screen.findByRole('region', { name: NOTICE })).toHaveTextContent(
      'Priced with no rules; the project’s rules are now version 1.',
    )
    expect(screen.getByText(/This bill of record is not priced/)).toBeInTheDocument()
  })
})
