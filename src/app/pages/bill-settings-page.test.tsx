import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import type { BillSettingsDocument } from '#contract/bill-settings.ts'
import { billSettingsDocument, eurWithPreliminaries } from '../../testing/bill-settings-fixtures'
import { fakeApi, ids, requestsTo } from '../../testing/fake-api'
import { server } from '../../testing/msw-server'
import { renderApp } from '../../testing/render-app'
import { clickPath } from '../../testing/tree-helpers'

const SETTINGS_PATH = `/api/boq/projects/${ids.tower}/bill-settings`
const page = `/projects/${ids.tower}/bill-settings`

function saved(...documents: BillSettingsDocument[]) {
  fakeApi.billSettings.versions[ids.tower] = documents
}

async function openSettings() {
  const app = renderApp(page)
  await screen.findByRole('heading', { name: 'Bill settings' })
  await screen.findByRole('button', { name: 'Save' })
  return app
}

const field = (name: string) => screen.getByRole('textbox', { name })
const number = (name: string) => screen.getByRole('spinbutton', { name })
const select = (name: string) => screen.getByRole('combobox', { name }) as HTMLSelectElement
const puts = () => requestsTo(SETTINGS_PATH, 'PUT')

describe('the bill settings page', { timeout: 20_000 }, () => {
  it('opens on the saved version, its fields as saved and the currency’s symbol and decimals', async () => {
    saved(
      billSettingsDocument({
        settings: eurWithPreliminaries({
          title: 'Tender bill',
          reference: 'T-42',
          decimals: { m: 3 },
          adjustments: [
            { kind: 'percent', name: 'Preliminaries', percent: 10 },
            { kind: 'item', name: 'Skip hire', quantity: 2, unit: 'week', rate: 150, omit: true },
            { kind: 'tax', name: 'VAT', percent: 20 },
          ],
        }),
      }),
    )
    const { user } = await openSettings()
    expect(screen.getByText(/^Version 1, saved by Ada Lovelace/)).toBeInTheDocument()
    expect(select('Currency').value).toBe('EUR')
    expect(screen.getByText(/Symbol €, 2 decimals: amounts show as €1,234\.56/)).toBeInTheDocument()
    expect(field('Title')).toHaveValue('Tender bill')
    expect(field('Client')).toHaveValue('Acme Estates')
    expect(field('Reference')).toHaveValue('T-42')
    expect(field('Unit, row 1')).toHaveValue('m')
    expect(number('Decimals, row 1')).toHaveValue(3)
    const rows = within(screen.getByRole('table', { name: 'Adjustments' })).getAllByRole('row')
    expect(rows).toHaveLength(4)
    expect(select('Kind, adjustment 1').value).toBe('percent')
    expect(number('Percent, adjustment 1')).toHaveValue(10)
    expect(select('Kind, adjustment 2').value).toBe('item')
    expect(field('Name, adjustment 2')).toHaveValue('Skip hire')
    expect(number('Quantity, adjustment 2')).toHaveValue(2)
    expect(field('Unit, adjustment 2')).toHaveValue('week')
    expect(number('Rate, adjustment 2')).toHaveValue(150)
    expect(select('Add or omit, adjustment 2').value).toBe('omit')
    expect(select('Kind, adjustment 3').value).toBe('tax')
    // A currency of no decimals says so.
    await user.selectOptions(select('Currency'), 'JPY')
    expect(screen.getByText(/Symbol ¥, 0 decimals: amounts show as ¥1,235/)).toBeInTheDocument()
  })

  it('saves a currency, a client and 10 % preliminaries as version 1, and History lists it', async () => {
    const { user } = await openSettings()
    expect(screen.getByText(/^Never saved/)).toBeInTheDocument()
    expect(screen.getByText(/No adjustments/)).toBeInTheDocument()
    await user.selectOptions(select('Currency'), 'EUR')
    await user.type(field('Client'), 'Acme Estates')
    await user.click(screen.getByRole('button', { name: 'Add an adjustment' }))
    // The new row's name takes the focus.
    await waitFor(() => expect(field('Name, adjustment 1')).toHaveFocus())
    await user.keyboard('Preliminaries')
    await user.clear(number('Percent, adjustment 1'))
    await user.type(number('Percent, adjustment 1'), '10')
    await user.click(screen.getByRole('button', { name: 'Add an adjustment' }))
    await user.selectOptions(select('Kind, adjustment 2'), 'sum')
    await user.type(field('Name, adjustment 2'), 'Provisional sum: lift')
    await user.clear(number('Amount, adjustment 2'))
    await user.type(number('Amount, adjustment 2'), '5000')
    await user.click(screen.getByRole('button', { name: 'Add a unit' }))
    await user.type(field('Unit, row 1'), 'm²')
    await user.clear(number('Decimals, row 1'))
    await user.type(number('Decimals, row 1'), '1')
    expect(screen.getByText(/Unsaved changes/)).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Saved as version 1.')).toBeInTheDocument()
    expect(puts()).toHaveLength(1)
    expect(puts()[0]?.headers.get('If-Match')).toBe('"0"')
    expect(puts()[0]?.body).toEqual({
      settings: {
        currency: 'EUR',
        client: 'Acme Estates',
        decimals: { 'm²': 1 },
        adjustments: [
          { kind: 'percent', name: 'Preliminaries', percent: 10 },
          { kind: 'sum', name: 'Provisional sum: lift', amount: 5000 },
        ],
      },
    })
    expect(screen.getByText(/^Version 1, saved by Ada Lovelace/)).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'History' }))
    const popover = await screen.findByRole('dialog', { name: 'History' })
    const list = await within(popover).findByRole('list', { name: 'Saved versions' })
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringMatching(/^Version 1, saved by Ada Lovelace on .+ \(on the page\)$/)])
  })

  it('adds, reorders and removes adjustments from the keyboard, the focus staying on the row’s buttons', async () => {
    saved(
      billSettingsDocument({
        settings: {
          adjustments: [
            { kind: 'percent', name: 'Preliminaries', percent: 10 },
            { kind: 'percent', name: 'Contingency', percent: 5 },
            { kind: 'percent', name: 'Overheads and profit', percent: 12.5 },
          ],
        },
      }),
    )
    const { user } = await openSettings()
    const names = () =>
      screen
        .getAllByRole('textbox', { name: /^Name, adjustment \d+$/ })
        .map((input) => (input as HTMLInputElement).value)
    screen.getByRole('button', { name: 'Move adjustment 1 down' }).focus()
    await user.keyboard('{Enter}')
    expect(names()).toEqual(['Contingency', 'Preliminaries', 'Overheads and profit'])
    expect(screen.getByRole('button', { name: 'Move adjustment 2 down' })).toHaveFocus()
    await user.keyboard('{Enter}')
    expect(names()).toEqual(['Contingency', 'Overheads and profit', 'Preliminaries'])
    // At the bottom its down button is disabled: the up button has the focus.
    expect(screen.getByRole('button', { name: 'Move adjustment 3 up' })).toHaveFocus()
    screen.getByRole('button', { name: 'Remove adjustment 1' }).focus()
    await user.keyboard('{Enter}')
    expect(names()).toEqual(['Overheads and profit', 'Preliminaries'])
    expect(screen.getByRole('button', { name: 'Remove adjustment 1' })).toHaveFocus()

    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Saved as version 2.')).toBeInTheDocument()
    expect(puts()[0]?.body).toEqual({
      settings: {
        adjustments: [
          { kind: 'percent', name: 'Overheads and profit', percent: 12.5 },
          { kind: 'percent', name: 'Preliminaries', percent: 10 },
        ],
      },
    })
  })

  it('checks the fields with the contract’s schema before sending: each problem beside its field and named beside Save', async () => {
    const { user } = await openSettings()
    await user.click(screen.getByRole('button', { name: 'Add an adjustment' }))
    await user.type(field('Name, adjustment 1'), 'Contingency')
    // A tax before another adjustment: taxes come last.
    await user.click(screen.getByRole('button', { name: 'Add an adjustment' }))
    await user.selectOptions(select('Kind, adjustment 2'), 'tax')
    await user.click(screen.getByRole('button', { name: 'Add an adjustment' }))
    expect(screen.getByRole('button', { name: 'Add an adjustment' })).toHaveAccessibleDescription(
      'Taxes come last: a tax is of the total before tax.',
    )
    expect(screen.getByText(/^1 field needs fixing:/)).toHaveTextContent(
      '1 field needs fixing: Adjustments',
    )
    await user.click(screen.getByRole('button', { name: 'Remove adjustment 3' }))
    expect(screen.queryByText(/fields? needs? fixing/)).not.toBeInTheDocument()

    await user.clear(number('Percent, adjustment 1'))
    await user.type(number('Percent, adjustment 1'), '2000')
    expect(number('Percent, adjustment 1')).toHaveAttribute('aria-invalid', 'true')
    expect(number('Percent, adjustment 1')).toHaveAccessibleDescription(
      'Must be from -100 to 1000.',
    )
    await user.clear(number('Percent, adjustment 2'))
    expect(number('Percent, adjustment 2')).toHaveAccessibleDescription('Must be a number.')
    await user.click(screen.getByRole('button', { name: 'Add a unit' }))
    await user.type(field('Unit, row 1'), 'm')
    await user.click(screen.getByRole('button', { name: 'Add a unit' }))
    await user.type(field('Unit, row 2'), 'm')
    expect(field('Unit, row 2')).toHaveAccessibleDescription('Named twice.')
    expect(field('Unit, row 1')).not.toHaveAttribute('aria-invalid')

    expect(screen.getByText(/^3 fields need fixing:/)).toHaveTextContent(
      '3 fields need fixing: Decimals of m, Adjustment 1 (Contingency), percent, Adjustment 2, percent',
    )
    await user.click(screen.getByRole('button', { name: 'Save' }))
    // Nothing is sent; the first field to fix has the focus.
    expect(puts()).toHaveLength(0)
    expect(field('Unit, row 2')).toHaveFocus()
    await user.click(screen.getByRole('button', { name: 'Adjustment 1 (Contingency), percent' }))
    expect(number('Percent, adjustment 1')).toHaveFocus()

    await user.clear(field('Unit, row 2'))
    await user.type(field('Unit, row 2'), 'nr')
    await user.clear(number('Percent, adjustment 1'))
    await user.type(number('Percent, adjustment 1'), '5')
    await user.type(number('Percent, adjustment 2'), '20')
    expect(screen.queryByText(/fields? needs? fixing/)).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Saved as version 1.')).toBeInTheDocument()
  })

  it('shows the server’s refusal (400) beside the fields its lines name, summed up beside Save', async () => {
    // The server knows its own list of currencies (this browser's may be longer).
    fakeApi.billSettings.check = () =>
      [
        'Currency: "EUR" is not an ISO 4217 currency code (EUR, USD, GBP…).',
        'Adjustment 1 (Preliminaries: site), percent: must be from -100 to 1000.',
        'Bill settings: the server is in a mood.',
      ].join('\n')
    const { user } = await openSettings()
    await user.selectOptions(select('Currency'), 'EUR')
    await user.click(screen.getByRole('button', { name: 'Add an adjustment' }))
    await user.type(field('Name, adjustment 1'), 'Preliminaries: site')
    await user.click(screen.getByRole('button', { name: 'Save' }))

    await waitFor(() =>
      expect(select('Currency')).toHaveAccessibleDescription(
        '"EUR" is not an ISO 4217 currency code (EUR, USD, GBP…).',
      ),
    )
    expect(select('Currency')).toHaveAttribute('aria-invalid', 'true')
    expect(number('Percent, adjustment 1')).toHaveAccessibleDescription(
      'Must be from -100 to 1000.',
    )
    expect(screen.getByText(/^2 fields need fixing:/)).toHaveTextContent(
      '2 fields need fixing: Currency, Adjustment 1 (Preliminaries: site), percent',
    )
    expect(screen.getByRole('alert')).toHaveTextContent('Bill settings: the server is in a mood.')
    expect(screen.queryByText(/^Saved as/)).not.toBeInTheDocument()
    expect(screen.getByText(/^Never saved/)).toBeInTheDocument()

    // An edit: the refusal named the fields as they were.
    await user.type(field('Client'), 'A')
    expect(select('Currency')).not.toHaveAttribute('aria-invalid')
    expect(screen.queryByText(/fields? needs? fixing/)).not.toBeInTheDocument()
  })

  it('meets a colleague’s save (412): shows what they changed, then Keep mine saves after theirs', async () => {
    const first = billSettingsDocument({ savedBy: 'Charles Babbage' })
    saved(first)
    const { user } = await openSettings()
    // Meanwhile a colleague saves version 2: another client and a contingency.
    saved(
      first,
      billSettingsDocument({
        version: 2,
        savedBy: 'Grace Hopper',
        settings: eurWithPreliminaries({
          client: 'Globex',
          adjustments: [
            { kind: 'percent', name: 'Preliminaries', percent: 10 },
            { kind: 'percent', name: 'Contingency', percent: 5 },
          ],
        }),
      }),
    )
    await user.type(field('Reference'), 'T-7')
    await user.click(screen.getByRole('button', { name: 'Save' }))

    const conflict = await screen.findByRole('alert')
    expect(conflict).toHaveTextContent('Someone saved these settings since you opened them.')
    expect(conflict).toHaveTextContent(/Saved by Grace Hopper/)
    const changes = await within(conflict).findByRole('list', { name: 'Their changes' })
    expect(
      within(changes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Client: Acme Estates → Globex',
      'Adjustment 2 added: Contingency: 5% of the running total',
    ])
    await user.click(within(conflict).getByRole('button', { name: 'Keep mine' }))
    expect(await screen.findByText('Saved as version 3.')).toBeInTheDocument()
    expect(puts().map((put) => put.headers.get('If-Match'))).toEqual(['"1"', '"2"'])
    expect(puts()[1]?.body).toEqual({
      settings: { ...eurWithPreliminaries(), reference: 'T-7' },
    })
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('after a colleague’s save, Reload theirs puts their version on the page', async () => {
    const first = billSettingsDocument()
    saved(first)
    const { user } = await openSettings()
    saved(
      first,
      billSettingsDocument({
        version: 2,
        savedBy: 'Grace Hopper',
        settings: eurWithPreliminaries({ client: 'Globex' }),
      }),
    )
    await user.clear(field('Client'))
    await user.type(field('Client'), 'Initech')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    const conflict = await screen.findByRole('alert')
    await within(conflict).findByRole('list', { name: 'Their changes' })
    await user.click(within(conflict).getByRole('button', { name: 'Reload theirs' }))
    expect(await screen.findByText('Version 2 loaded.')).toBeInTheDocument()
    expect(field('Client')).toHaveValue('Globex')
    expect(screen.getByText(/^Version 2, saved by Grace Hopper/)).toBeInTheDocument()
    expect(puts()).toHaveLength(1)
  })

  it('opens an earlier version read-only from History and restores it as the next version', async () => {
    saved(
      billSettingsDocument({
        settings: { currency: 'GBP', client: 'Acme Estates', decimals: { m: 3 } },
      }),
      billSettingsDocument({
        version: 2,
        savedBy: 'Grace Hopper',
        savedAt: '2024-05-02T10:00:00.000Z',
        settings: eurWithPreliminaries(),
      }),
    )
    const { user } = await openSettings()
    await user.click(screen.getByRole('button', { name: 'History' }))
    const popover = await screen.findByRole('dialog', { name: 'History' })
    await user.click(await within(popover).findByRole('button', { name: /^Version 1, saved by/ }))

    const opened = await screen.findByRole('region', { name: 'Version 1' })
    const list = await within(opened).findByLabelText('Version 1 settings')
    expect(list.textContent).toContain('CurrencyGBP, British Pound (£, 2 decimals)')
    expect(list.textContent).toContain('ClientAcme Estates')
    expect(list.textContent).toContain('Decimals of m3')
    expect(list.textContent).toContain('Adjustmentsnone')
    // Read-only: the version has no fields of its own.
    expect(within(opened).queryByRole('textbox')).not.toBeInTheDocument()
    // The page's fields are still version 2's.
    expect(select('Currency').value).toBe('EUR')

    await user.click(within(opened).getByRole('button', { name: 'Restore as version 3' }))
    expect(await screen.findByText('Version 1 restored as version 3.')).toBeInTheDocument()
    expect(puts()).toHaveLength(1)
    expect(puts()[0]?.headers.get('If-Match')).toBe('"2"')
    expect(puts()[0]?.body).toEqual({
      settings: { currency: 'GBP', client: 'Acme Estates', decimals: { m: 3 } },
    })
    expect(select('Currency').value).toBe('GBP')
    expect(field('Unit, row 1')).toHaveValue('m')
    expect(screen.queryByRole('table', { name: 'Adjustments' })).not.toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Version 1' })).not.toBeInTheDocument()
  })

  it('says the server’s words when the settings cannot be read', async () => {
    server.use(
      http.get(
        `*${SETTINGS_PATH}`,
        () => new HttpResponse('The rules store is down.', { status: 500 }),
      ),
    )
    renderApp(page)
    expect(await screen.findByRole('alert')).toHaveTextContent('The rules store is down.')
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument()
  })

  it('is reached from the tree, beside Rules…, and from the rules and classification pages', async () => {
    const { user, router } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower'])
    await user.click(await screen.findByRole('link', { name: 'Bill settings…' }))
    await screen.findByRole('heading', { name: 'Bill settings' })
    expect(router.state.location.pathname).toBe(page)
    await user.click(screen.getByRole('link', { name: 'Classification' }))
    await screen.findByRole('heading', { name: 'Classification' })
    await user.click(screen.getByRole('link', { name: 'Bill settings' }))
    await screen.findByRole('heading', { name: 'Bill settings' })
    await user.click(screen.getByRole('link', { name: 'Takeoff rules' }))
    await screen.findByRole('heading', { name: 'Takeoff rules' })
    await user.click(screen.getByRole('link', { name: 'Bill settings' }))
    await screen.findByRole('heading', { name: 'Bill settings' })
    expect(router.state.location.pathname).toBe(page)
  })
})
