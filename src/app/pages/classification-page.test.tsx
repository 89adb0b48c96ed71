import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import type { ClassificationEntry } from '#contract/takeoff-rules.ts'
import { formatDateTime } from '../../lib/format-date'
import { fakeApi, ids, requestsTo } from '../../testing/fake-api'
import { classificationEntry, succeededJob, takeoffRule } from '../../testing/fixtures'
import { server } from '../../testing/msw-server'
import { renderApp } from '../../testing/render-app'
import { confirmImport } from '../../testing/table-editor-helpers'

const CLASSIFICATION_PATH = `/api/boq/projects/${ids.tower}/classification`
const page = `/projects/${ids.tower}/classification`

const entry = (n: number) => screen.getByRole('row', { name: `Entry ${n}` })
const cell = (label: 'Code' | 'Title' | 'Parent', n: number) =>
  within(entry(n)).getByRole('textbox', { name: `${label}, row ${n}` })
/** The code cells top to bottom: the table's order. */
const codes = () =>
  screen
    .getAllByRole('textbox', { name: /^Code, row \d+$/ })
    .map((input) => (input as HTMLInputElement).value)

function savedClassification(
  entries: ClassificationEntry[],
  version = 1,
  savedBy = 'Charles Babbage',
) {
  fakeApi.classification[ids.tower] = {
    version,
    savedBy,
    savedAt: '2024-05-01T10:00:00.000Z',
    entries,
  }
}

async function openClassification(path = page) {
  const app = renderApp(path)
  await screen.findByRole('heading', { name: 'Classification' })
  return app
}

/** The History popover's list of saved versions, one line each. */
async function history(user: ReturnType<typeof renderApp>['user']) {
  await user.click(screen.getByRole('button', { name: 'History' }))
  const popover = await screen.findByRole('dialog', { name: 'History' })
  const list = await within(popover).findByRole('list', { name: 'Saved versions' })
  return within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent)
}

describe('the classification page', { timeout: 20_000 }, () => {
  it('types codes, titles and parents, saves them as version 1, and lists the save in History', async () => {
    const { user } = await openClassification()
    expect(await screen.findByText(/No codes yet/)).toBeInTheDocument()
    expect(screen.getByText(/Never saved\./)).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Add a row' }))
    // A row without a code or a title can be no part of a system: said at once, Save waits.
    expect(cell('Code', 1)).toHaveAccessibleDescription('Give the row a code.')
    expect(cell('Code', 1)).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled()
    await user.type(cell('Code', 1), 'E')
    expect(cell('Code', 1)).toHaveAccessibleDescription('Give the code a title.')
    await user.type(cell('Title', 1), 'Electrical')
    await user.click(screen.getByRole('button', { name: 'Add a row' }))
    await user.type(cell('Code', 2), ' E.1 ')
    await user.type(cell('Title', 2), 'Points')
    await user.type(cell('Parent', 2), 'E')
    expect(screen.getByText(/Unsaved changes/)).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Saved as version 1.')).toBeInTheDocument()
    const put = requestsTo(CLASSIFICATION_PATH, 'PUT')
    expect(put).toHaveLength(1)
    expect(put[0]?.headers.get('If-Match')).toBe('"0"')
    expect(put[0]?.body).toEqual({
      entries: [
        { code: 'E', title: 'Electrical' },
        { code: 'E.1', title: 'Points', parent: 'E' },
      ],
    })
    expect(screen.getByText(/Version 1, saved by Ada Lovelace/)).toBeInTheDocument()

    expect(await history(user)).toEqual([
      `Version 1, saved by Ada Lovelace on ${formatDateTime('2024-06-07T08:09:10.000Z')}, 2 rows (in the table)`,
    ])
  })

  it('lists every saved version in History, newest first, asked again after each save', async () => {
    savedClassification([classificationEntry()], 1, 'Charles Babbage')
    const { user } = await openClassification()
    await screen.findByRole('table', { name: 'Classification' })
    expect(await history(user)).toEqual([
      `Version 1, saved by Charles Babbage on ${formatDateTime('2024-05-01T10:00:00.000Z')}, 1 row (in the table)`,
    ])
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())

    await user.click(screen.getByRole('button', { name: 'Add a row' }))
    await user.type(cell('Code', 2), 'F')
    await user.type(cell('Title', 2), 'Finishes')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Saved as version 2.')).toBeInTheDocument()
    expect(await history(user)).toEqual([
      `Version 2, saved by Ada Lovelace on ${formatDateTime('2024-06-07T08:09:10.000Z')}, 2 rows (in the table)`,
      `Version 1, saved by Charles Babbage on ${formatDateTime('2024-05-01T10:00:00.000Z')}, 1 row`,
    ])
    expect(requestsTo(`${CLASSIFICATION_PATH}/history`)).toHaveLength(2)
  })

  it('shows the server’s 400 on the row it names, and clears it once the rows change', async () => {
    savedClassification([classificationEntry({ code: 'E', title: 'Electrical' })])
    const { user } = await openClassification()
    await screen.findByRole('table', { name: 'Classification' })
    await user.click(screen.getByRole('button', { name: 'Add a row' }))
    await user.type(cell('Code', 2), 'E.1')
    await user.type(cell('Title', 2), 'Points')
    await user.type(cell('Parent', 2), 'X')

    server.use(
      http.put(
        `*${CLASSIFICATION_PATH}`,
        () => new HttpResponse("Row 2: parent 'X' is not a code of the system.", { status: 400 }),
      ),
    )
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(cell('Code', 2)).toHaveAccessibleDescription(
        "parent 'X' is not a code of the system.",
      ),
    )
    expect(cell('Code', 1)).not.toHaveAccessibleDescription(/not a code/)
    expect(cell('Code', 2)).toHaveAttribute('aria-invalid', 'true')

    await user.clear(cell('Parent', 2))
    expect(cell('Code', 2)).not.toHaveAccessibleDescription(/not a code/)
  })

  it('removes and reorders codes: the order is the sections’ order', async () => {
    savedClassification([
      classificationEntry({ code: 'A', title: 'First' }),
      classificationEntry({ code: 'B', title: 'Second' }),
      classificationEntry({ code: 'C', title: 'Third' }),
    ])
    const { user } = await openClassification()
    await screen.findByRole('table', { name: 'Classification' })
    await user.click(screen.getByRole('button', { name: 'Move row 3 up' }))
    expect(codes()).toEqual(['A', 'C', 'B'])
    await user.click(screen.getByRole('button', { name: 'Remove row 1' }))
    expect(codes()).toEqual(['C', 'B'])
    expect(screen.getByRole('button', { name: 'Remove row 1' })).toHaveFocus()
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Saved as version 2.')).toBeInTheDocument()
    expect(fakeApi.classification[ids.tower]?.entries).toEqual([
      { code: 'C', title: 'Third' },
      { code: 'B', title: 'Second' },
    ])
  })

  it('on a colleague’s save in between, keeps mine or reloads theirs', async () => {
    savedClassification([classificationEntry({ code: 'Mine' })])
    const { user } = await openClassification()
    await screen.findByRole('table', { name: 'Classification' })
    await user.clear(cell('Title', 1))
    await user.type(cell('Title', 1), 'My title')
    savedClassification([classificationEntry({ code: 'Theirs' })], 2, 'Grace Hopper')

    await user.click(screen.getByRole('button', { name: 'Save' }))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Someone saved this classification since you opened it')
    expect(alert).toHaveTextContent('Grace Hopper')
    await user.click(within(alert).getByRole('button', { name: 'Keep mine' }))
    expect(await screen.findByText('Saved as version 3.')).toBeInTheDocument()
    expect(
      requestsTo(CLASSIFICATION_PATH, 'PUT').map((put) => put.headers.get('If-Match')),
    ).toEqual(['"1"', '"2"'])
    expect(fakeApi.classification[ids.tower]?.entries).toEqual([
      { code: 'Mine', title: 'My title' },
    ])

    // Another colleague's save: this time theirs is loaded, mine dropped.
    await user.clear(cell('Title', 1))
    await user.type(cell('Title', 1), 'Dropped')
    savedClassification([classificationEntry({ code: 'Theirs' })], 4, 'Grace Hopper')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await user.click(await screen.findByRole('button', { name: 'Reload theirs' }))
    await waitFor(() => expect(codes()).toEqual(['Theirs']))
    expect(screen.getByText(/Version 4, saved by Grace Hopper/)).toBeInTheDocument()
    expect(requestsTo(CLASSIFICATION_PATH, 'PUT')).toHaveLength(3)
  })

  it('imports a file as the next version and links the exports', async () => {
    savedClassification([classificationEntry({ code: 'Old' })], 2)
    fakeApi.rulesFile = (body) =>
      body.startsWith('code,')
        ? {
            status: 200,
            body: { entries: [classificationEntry({ code: 'E.1', title: 'Points' })] },
          }
        : { status: 400, body: 'Row 3: title is empty.' }
    const { user } = await openClassification()
    await screen.findByRole('table', { name: 'Classification' })
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      expect.stringMatching(new RegExp(`${CLASSIFICATION_PATH}\\?format=csv$`)),
    )
    expect(screen.getByRole('link', { name: 'Export XLSX' })).toHaveAttribute(
      'href',
      expect.stringMatching(new RegExp(`${CLASSIFICATION_PATH}\\?format=xlsx$`)),
    )

    const input = screen.getByLabelText('Import CSV or XLSX')
    await user.upload(input, new File(['code,title\nE.1,Points\n'], 'codes.csv'))
    await confirmImport(user)
    expect(await screen.findByText('Imported codes.csv. Saved as version 3.')).toBeInTheDocument()
    expect(codes()).toEqual(['E.1'])
    const put = requestsTo(CLASSIFICATION_PATH, 'PUT')[0]
    expect(put?.headers.get('Content-Type')).toBe('text/csv')
    expect(put?.headers.get('If-Match')).toBe('"2"')

    await user.upload(input, new File(['nonsense'], 'bad.xlsx'))
    await confirmImport(user)
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'bad.xlsx was not imported: Row 3: title is empty.',
    )
    expect(requestsTo(CLASSIFICATION_PATH, 'PUT')[1]?.headers.get('Content-Type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    )
    expect(codes()).toEqual(['E.1'])
  })

  it('says the server’s words when the classification cannot be read', async () => {
    server.use(
      http.get(
        `*${CLASSIFICATION_PATH}`,
        () => new HttpResponse('The job store is down.', { status: 500 }),
      ),
    )
    await openClassification()
    expect(await screen.findByRole('alert')).toHaveTextContent('The job store is down.')
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument()
  })

  it('is one link from the rules page and back; a save there names the preview’s items by their codes’ titles', async () => {
    fakeApi.jobs = [succeededJob({ id: 'j1', fileName: 'plan.dwg' })]
    fakeApi.rules[ids.tower] = {
      version: 1,
      savedBy: 'Charles Babbage',
      savedAt: '2024-05-01T10:00:00.000Z',
      rules: [takeoffRule({ block: 'CIRKLO_PUNKTOJ', code: 'E.1', rate: 2.5 })],
    }
    savedClassification([classificationEntry({ code: 'E.1', title: 'Points' })])
    const { user, router } = renderApp(`/projects/${ids.tower}/rules?job=j1`)
    const preview = await screen.findByRole('region', { name: 'Preview' })
    const items = await within(preview).findByRole('table', { name: 'Preview items' })
    // The rule gives a code and no description: the item takes the code's title.
    expect(items).toHaveTextContent('E.1Points')

    await user.click(screen.getByRole('link', { name: 'Classification' }))
    await screen.findByRole('table', { name: 'Classification' })
    expect(router.state.location.pathname).toBe(page)
    expect(router.state.location.search).toEqual({ job: 'j1' })
    await user.clear(cell('Title', 1))
    await user.type(cell('Title', 1), 'Light points')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Saved as version 2.')).toBeInTheDocument()

    await user.click(screen.getByRole('link', { name: 'Takeoff rules' }))
    const again = await screen.findByRole('region', { name: 'Preview' })
    // The preview of the same rules was kept; the save dropped it, so it is priced again.
    expect(await within(again).findByText('Light points', { selector: 'td' })).toBeInTheDocument()
    expect(router.state.location.search).toEqual({ job: 'j1' })
  })
})
