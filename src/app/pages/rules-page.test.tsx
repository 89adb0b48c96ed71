import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import type { TakeoffRule } from '#contract/takeoff-rules.ts'
import { formatDateTime } from '../../lib/format-date'
import { fakeApi, ids, requestsTo } from '../../testing/fake-api'
import { fakePricing, succeededJob, takeoffRule } from '../../testing/fixtures'
import { server } from '../../testing/msw-server'
import { renderApp } from '../../testing/render-app'
import { confirmImport } from '../../testing/table-editor-helpers'
import { clickPath } from '../../testing/tree-helpers'

const RULES_PATH = `/api/boq/projects/${ids.tower}/rules`
const page = `/projects/${ids.tower}/rules`

const ROLES: Record<string, 'combobox' | 'spinbutton'> = { Match: 'combobox', Rate: 'spinbutton' }
const rule = (n: number) => screen.getByRole('row', { name: `Rule ${n}` })
const cell = (label: string, n: number) =>
  within(rule(n)).getByRole(ROLES[label] ?? 'textbox', {
    name: `${label}, row ${n}`,
  })
/** The block cells top to bottom: the table's order. */
const blocks = () =>
  screen
    .getAllByRole('textbox', { name: /^Block, row \d+$/ })
    .map((input) => (input as HTMLInputElement).value)

function savedRules(rules: TakeoffRule[], version = 1, savedBy = 'Charles Babbage') {
  fakeApi.rules[ids.tower] = { version, savedBy, savedAt: '2024-05-01T10:00:00.000Z', rules }
}

async function openRules(path = page) {
  const app = renderApp(path)
  await screen.findByRole('heading', { name: 'Takeoff rules' })
  return app
}

describe('the rules page', { timeout: 20_000 }, () => {
  it('adds, reorders and removes rows, by buttons the keyboard reaches', async () => {
    savedRules([takeoffRule({ block: 'A' }), takeoffRule({ block: 'B' })])
    const { user } = await openRules()
    await screen.findByRole('table', { name: 'Takeoff rules' })
    expect(blocks()).toEqual(['A', 'B'])
    expect(screen.getByText(/Version 1, saved by Charles Babbage/)).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Add a row' }))
    await user.selectOptions(cell('Match', 3), 'count')
    await user.type(cell('Block', 3), 'C')
    expect(blocks()).toEqual(['A', 'B', 'C'])

    // The keyboard: the moved row keeps the focus, so Enter moves it again.
    screen.getByRole('button', { name: 'Move row 3 up' }).focus()
    await user.keyboard('{Enter}')
    expect(blocks()).toEqual(['A', 'C', 'B'])
    expect(screen.getByRole('button', { name: 'Move row 2 up' })).toHaveFocus()
    await user.keyboard('{Enter}')
    expect(blocks()).toEqual(['C', 'A', 'B'])
    // At the top it can only go down: that button has the focus.
    expect(screen.getByRole('button', { name: 'Move row 1 up' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Move row 1 down' })).toHaveFocus()
    await user.click(screen.getByRole('button', { name: 'Move row 1 down' }))
    expect(blocks()).toEqual(['A', 'C', 'B'])

    await user.click(screen.getByRole('button', { name: 'Remove row 1' }))
    expect(blocks()).toEqual(['C', 'B'])
    expect(screen.getByRole('button', { name: 'Remove row 1' })).toHaveFocus()
    await user.click(screen.getByRole('button', { name: 'Remove row 2' }))
    expect(screen.getByRole('button', { name: 'Remove row 1' })).toHaveFocus()
    await user.keyboard('{Enter}')
    expect(screen.queryByRole('table', { name: 'Takeoff rules' })).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Add a row' }))
    await user.selectOptions(cell('Match', 1), 'count')
    await user.type(cell('Block', 1), 'C')
    await user.click(screen.getByRole('button', { name: 'Add a row' }))
    await user.selectOptions(cell('Match', 2), 'count')
    await user.type(cell('Block', 2), 'B')
    expect(blocks()).toEqual(['C', 'B'])
    expect(screen.getByText(/Unsaved changes/)).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Saved as version 2.')).toBeInTheDocument()
    const put = requestsTo(RULES_PATH, 'PUT')
    expect(put).toHaveLength(1)
    expect(put[0]?.headers.get('If-Match')).toBe('"1"')
    expect(put[0]?.body).toEqual({
      rules: [
        { match: 'count', block: 'C' },
        { match: 'count', block: 'B' },
      ],
    })
  })

  it('shows what is wrong on its row: an empty match at once, the server’s 400 on the row it names', async () => {
    const { user } = await openRules()
    expect(await screen.findByText(/No rules yet/)).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Add a row' }))
    expect(cell('Match', 1)).toHaveAccessibleDescription('Choose what the row matches.')
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled()
    await user.selectOptions(cell('Match', 1), 'count')
    await user.click(screen.getByRole('button', { name: 'Add a row' }))
    await user.selectOptions(cell('Match', 2), 'length')
    await user.type(cell('Quantity', 2), 'lenght * 2')

    server.use(
      http.put(
        `*${RULES_PATH}`,
        () => new HttpResponse("row 2: unknown variable 'lenght' in quantity", { status: 400 }),
      ),
    )
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(cell('Match', 2)).toHaveAccessibleDescription("unknown variable 'lenght' in quantity"),
    )
    expect(cell('Match', 1)).not.toHaveAccessibleDescription(/unknown variable/)
    expect(cell('Match', 2)).toHaveAttribute('aria-invalid', 'true')
    // Fixing the row clears what the server said of the old table.
    await user.clear(cell('Quantity', 2))
    expect(cell('Match', 2)).not.toHaveAccessibleDescription(/unknown variable/)
  })

  it('on a colleague’s save in between, keeps mine: saved again over theirs', async () => {
    savedRules([takeoffRule({ block: 'Mine*' })])
    const { user } = await openRules()
    await screen.findByRole('table', { name: 'Takeoff rules' })
    await user.type(cell('Code', 1), 'M1')
    // A colleague saves version 2 meanwhile.
    savedRules([takeoffRule({ block: 'Theirs*' })], 2, 'Grace Hopper')

    await user.click(screen.getByRole('button', { name: 'Save' }))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Someone saved these rules since you opened them')
    expect(alert).toHaveTextContent('Grace Hopper')
    expect(blocks()).toEqual(['Mine*'])

    await user.click(within(alert).getByRole('button', { name: 'Keep mine' }))
    expect(await screen.findByText('Saved as version 3.')).toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    const puts = requestsTo(RULES_PATH, 'PUT')
    expect(puts.map((put) => put.headers.get('If-Match'))).toEqual(['"1"', '"2"'])
    expect(fakeApi.rules[ids.tower]?.rules).toEqual([
      { match: 'count', block: 'Mine*', code: 'M1' },
    ])
  })

  it('on a colleague’s save in between, reloads theirs: mine are dropped', async () => {
    savedRules([takeoffRule({ block: 'Mine*' })])
    const { user } = await openRules()
    await screen.findByRole('table', { name: 'Takeoff rules' })
    await user.type(cell('Code', 1), 'M1')
    savedRules(
      [takeoffRule({ block: 'Theirs*' }), takeoffRule({ block: 'Too' })],
      2,
      'Grace Hopper',
    )

    await user.click(screen.getByRole('button', { name: 'Save' }))
    await user.click(await screen.findByRole('button', { name: 'Reload theirs' }))
    await waitFor(() => expect(blocks()).toEqual(['Theirs*', 'Too']))
    expect(screen.getByText(/Version 2, saved by Grace Hopper/)).toBeInTheDocument()
    expect(screen.queryByText(/Unsaved changes/)).not.toBeInTheDocument()
    expect(requestsTo(RULES_PATH, 'PUT')).toHaveLength(1)
    expect(fakeApi.rules[ids.tower]?.version).toBe(2)
  })

  it('imports a file as the next version and links the exports', async () => {
    savedRules([takeoffRule({ block: 'Old' })], 4)
    fakeApi.rulesFile = (body) =>
      body.startsWith('match,')
        ? { status: 200, body: { rules: [takeoffRule({ block: 'FromFile', rate: 3 })] } }
        : { status: 400, body: 'row 1: unknown column' }
    const { user } = await openRules()
    await screen.findByRole('table', { name: 'Takeoff rules' })

    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      expect.stringMatching(new RegExp(`${RULES_PATH}\\?format=csv$`)),
    )
    expect(screen.getByRole('link', { name: 'Export XLSX' })).toHaveAttribute(
      'href',
      expect.stringMatching(new RegExp(`${RULES_PATH}\\?format=xlsx$`)),
    )

    const input = screen.getByLabelText('Import CSV or XLSX')
    await user.upload(input, new File(['match,block\ncount,FromFile\n'], 'rules.csv'))
    await confirmImport(user)
    expect(await screen.findByText('Imported rules.csv. Saved as version 5.')).toBeInTheDocument()
    expect(blocks()).toEqual(['FromFile'])
    const put = requestsTo(RULES_PATH, 'PUT')[0]
    expect(put?.headers.get('Content-Type')).toBe('text/csv')
    expect(put?.headers.get('If-Match')).toBe('"4"')

    await user.upload(input, new File(['nonsense'], 'bad.csv'))
    await confirmImport(user)
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'bad.csv was not imported: row 1: unknown column',
    )
    expect(blocks()).toEqual(['FromFile'])
  })

  it('lists the saved versions in History: number, who, when, rows; a save adds its own', async () => {
    savedRules([takeoffRule({ block: 'A' }), takeoffRule({ block: 'B' })], 3)
    fakeApi.earlierVersions[`rules:${ids.tower}`] = [
      { version: 2, savedBy: 'Grace Hopper', savedAt: '2024-04-01T09:00:00.000Z', rows: 1 },
      { version: 1, savedBy: 'Grace Hopper', savedAt: '2024-03-01T09:00:00.000Z', rows: 4 },
    ]
    const { user } = await openRules()
    await screen.findByRole('table', { name: 'Takeoff rules' })
    // Asked for only when wanted.
    expect(requestsTo(`${RULES_PATH}/history`)).toHaveLength(0)
    const lines = async () => {
      await user.click(screen.getByRole('button', { name: 'History' }))
      const popover = await screen.findByRole('dialog', { name: 'History' })
      const list = await within(popover).findByRole('list', { name: 'Saved versions' })
      return within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent)
    }
    expect(await lines()).toEqual([
      `Version 3, saved by Charles Babbage on ${formatDateTime('2024-05-01T10:00:00.000Z')}, 2 rows (in the table)`,
      `Version 2, saved by Grace Hopper on ${formatDateTime('2024-04-01T09:00:00.000Z')}, 1 row`,
      `Version 1, saved by Grace Hopper on ${formatDateTime('2024-03-01T09:00:00.000Z')}, 4 rows`,
    ])
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())

    await user.click(screen.getByRole('button', { name: 'Remove row 2' }))
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Saved as version 4.')).toBeInTheDocument()
    const after = await lines()
    expect(after).toHaveLength(4)
    expect(after[0]).toBe(
      `Version 4, saved by Ada Lovelace on ${formatDateTime('2024-06-07T08:09:10.000Z')}, 1 row (in the table)`,
    )
    expect(after[1]).toMatch(/^Version 3, saved by Charles Babbage on /)
  })

  it('previews the unsaved table against a finished job of the project: items and the total', async () => {
    fakeApi.jobs = [
      succeededJob({ id: 'other', projectId: 'b.elsewhere', fileName: 'other.dwg' }),
      succeededJob({ id: 'j1', fileName: 'plan.dwg', fileVersionNumber: 3 }),
    ]
    savedRules([takeoffRule({ block: 'bloko', code: 'D1', description: 'Desk', rate: 10 })])
    const { user } = await openRules()
    const preview = await screen.findByRole('region', { name: 'Preview' })
    expect(within(preview).getByRole('combobox', { name: 'Preview against' })).toHaveDisplayValue(
      /^plan\.dwg, version 3/,
    )
    expect(within(preview).queryByRole('option', { name: /other\.dwg/ })).not.toBeInTheDocument()
    expect(await within(preview).findByText('Total 20.00')).toBeInTheDocument()
    expect(within(preview).getByRole('list', { name: 'Not classified' })).toHaveTextContent(
      'A2 CIRKLO_PUNKTOJ: 8 nr',
    )

    await user.clear(cell('Rate', 1))
    await user.type(cell('Rate', 1), '12.5')
    expect(await within(preview).findByText('Total 25.00')).toBeInTheDocument()
    const last = requestsTo('/api/boq/jobs/j1/price', 'POST').at(-1)
    expect(last?.body).toEqual({
      rules: [{ match: 'count', block: 'bloko', code: 'D1', description: 'Desk', rate: 12.5 }],
    })
    // Typing is debounced: not one request per key.
    expect(requestsTo('/api/boq/jobs/j1/price', 'POST').length).toBeLessThan(4)
  })

  it('shows the preview’s refusal on the row it names', async () => {
    fakeApi.jobs = [succeededJob({ id: 'j1' })]
    savedRules([takeoffRule({ block: 'bloko' }), takeoffRule({ match: 'length' })])
    fakeApi.price = (_jobId, request) =>
      request.rules?.[1]?.quantity
        ? { status: 400, body: "Row 2: unknown variable 'lenght' in quantity." }
        : {
            status: 200,
            body: {
              jobId: 'j1',
              rulesVersion: null,
              classificationVersion: null,
              priced: fakePricing(request.rules ?? []),
            },
          }
    const { user } = await openRules()
    expect(await screen.findByText('Total 0.00')).toBeInTheDocument()
    await user.type(cell('Quantity', 2), 'lenght')
    await waitFor(() =>
      expect(cell('Match', 2)).toHaveAccessibleDescription(
        "unknown variable 'lenght' in quantity.",
      ),
    )
    expect(cell('Match', 1)).not.toHaveAccessibleDescription(/unknown variable/)
  })

  it('says the server’s words when the rules cannot be read', async () => {
    server.use(
      http.get(`*${RULES_PATH}`, () => new HttpResponse('The job store is down.', { status: 500 })),
    )
    await openRules()
    expect(await screen.findByRole('alert')).toHaveTextContent('The job store is down.')
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument()
  })

  it('is reached from the tree: a node of a project links to its rules', async () => {
    const { user, router } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower'])
    await user.click(await screen.findByRole('link', { name: 'Rules…' }))
    await screen.findByRole('heading', { name: 'Takeoff rules' })
    expect(router.state.location.pathname).toBe(page)
  })
})
