import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi, ids, requestsTo } from '../../testing/fake-api'
import {
  assembledBill,
  billDrawing,
  measuredLine,
  projectItem,
} from '../../testing/project-bill-fixtures'
import { renderApp } from '../../testing/render-app'
import { clickPath } from '../../testing/tree-helpers'

const billsPath = `/api/boq/projects/${ids.tower}/bills`

/** A bill of three drawings: L1 and L2 billed, Roof with no bill yet. */
function keptBill() {
  const l1 = billDrawing({
    fileName: 'L1.dwg',
    versionNumber: 2,
    newestVersionNumber: 2,
    jobId: 'job-l1',
  })
  const l2 = billDrawing({ fileName: 'L2.dwg', jobId: 'job-l2' })
  const roof = billDrawing({
    fileName: 'Roof.dwg',
    state: 'no-bill',
    versionNumber: null,
    jobId: null,
    newestStorageId: 'urn:adsk.objects:os.object:wip.dm.prod/roof.dwg',
  })
  const bill = assembledBill({
    projectId: ids.tower,
    name: 'Plans',
    drawings: [l1, l2, roof],
    priced: {
      units: { length: 'm', area: 'm²' },
      items: [
        projectItem({ code: '22.10', description: 'Pipe', unit: 'm', rate: 20 }, [
          { drawing: l1, quantity: 12.5, amount: 250 },
          { drawing: l2, quantity: 3, amount: 60 },
        ]),
        projectItem({ code: '23.10', description: 'Doors', unit: 'nr', rate: 150 }, [
          { drawing: l2, quantity: 4, amount: 600 },
        ]),
      ],
      sections: [
        { code: '22', title: 'Services' },
        { code: '23', title: '' },
      ],
      total: 910,
    },
  })
  fakeApi.projectBills.bills.push(bill)
  return { bill, l1, l2, roof }
}

async function openBill(billId: string) {
  const app = renderApp(`/projects/${ids.tower}/bills/${billId}`)
  await screen.findByRole('heading', { name: 'Plans', level: 1 })
  expect(screen.getByRole('link', { name: 'Back to the drawings' })).toHaveAttribute('href', '/')
  return app
}

describe('a project bill', { timeout: 20_000 }, () => {
  it('is made from a folder chosen in the tree, and opens', async () => {
    const { user, router } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans'])
    await user.click(await screen.findByRole('link', { name: 'New project bill…' }))
    await screen.findByRole('heading', { name: 'Project bills' })
    expect(screen.getByLabelText('Bill name')).toHaveValue('Plans')
    await user.click(screen.getByRole('button', { name: 'Make the bill' }))
    await screen.findByRole('heading', { name: 'Plans', level: 1 })
    expect(requestsTo(billsPath, 'POST')[0]?.body).toEqual({
      name: 'Plans',
      folderIds: [ids.plans],
    })
    const made = fakeApi.projectBills.bills[0]
    expect(router.state.location.pathname).toBe(`/projects/${ids.tower}/bills/${made?.id}`)
  })

  it('lists the project’s bills, reached from any node of the project', async () => {
    const { bill } = keptBill()
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower'])
    await user.click(await screen.findByRole('link', { name: 'Project bills…' }))
    await user.click(await screen.findByRole('link', { name: 'Plans' }))
    await screen.findByRole('heading', { name: 'Plans', level: 1 })
    expect(screen.getByRole('link', { name: 'Download workbook' })).toHaveAttribute(
      'href',
      expect.stringContaining(`${billsPath}/${bill.id}?format=xlsx`),
    )
  })

  it('shows the summary by drawing, and each drawing’s state, linked to its result', async () => {
    const { bill } = keptBill()
    await openBill(bill.id)
    const summary = screen.getByRole('table', { name: 'Summary' })
    const heads = within(summary)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent)
    expect(heads).toEqual([
      'Code',
      'Description',
      'Unit',
      'L1.dwg v2',
      'L2.dwg v1',
      'Quantity',
      'Rate',
      'Amount',
    ])
    const pipe = within(summary).getByRole('row', { name: /Pipe/ })
    expect(
      within(pipe)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['22.10', 'Pipe', 'm', '12.50', '3', '15.50', '20.00', '310.00'])
    expect(within(summary).getByRole('row', { name: /Total/ })).toHaveTextContent('910.00')
    const drawings = screen.getByRole('table', { name: 'Drawings' })
    expect(within(drawings).getByRole('link', { name: 'L1.dwg' })).toHaveAttribute(
      'href',
      '/jobs/job-l1',
    )
    expect(within(drawings).getByRole('row', { name: /Roof\.dwg/ })).toHaveTextContent(
      'No bill yet',
    )
  })

  it('shows the measured lines summed by drawing, by kind, a hundred at a time', async () => {
    const { bill, l1, l2 } = keptBill()
    bill.measured = [
      measuredLine({ kind: 'count', description: 'Door', unit: 'nr' }, [
        { drawing: l2, quantity: 4 },
      ]),
      ...Array.from({ length: 120 }, (_, i) =>
        measuredLine({ kind: 'length', description: `Pipe on layer P${i}`, unit: 'm' }, [
          { drawing: l1, quantity: 12.5 },
          { drawing: l2, quantity: 3 },
        ]),
      ),
    ]
    const { user } = await openBill(bill.id)
    // The total under the amounts, its label across the columns before them.
    const summary = screen.getByRole('table', { name: 'Summary' })
    // Each section under its title, where the classification gives one.
    expect(
      within(summary)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual(['22 Services', '23'])
    const header = within(summary)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent)
    const total = within(summary).getByRole('row', { name: /^Total/ })
    const cells = within(total).getAllByRole('cell')
    expect(cells.map((cell) => cell.getAttribute('colspan') ?? '1')).toEqual([
      String(header.length - 1),
      '1',
    ])
    expect(cells.at(-1)).toHaveTextContent('910.00')
    const table = screen.getByRole('table', { name: 'Measured lines' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Description', 'Unit', 'L1.dwg v2', 'L2.dwg v1', 'Quantity'])
    expect(within(table).getByRole('rowheader', { name: 'Counts' })).toBeInTheDocument()
    expect(
      within(within(table).getByRole('row', { name: /Door/ }))
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Door', 'nr', '', '4', '4'])
    expect(
      within(within(table).getByRole('row', { name: /layer P0 / }))
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Pipe on layer P0', 'm', '12.50', '3', '15.50'])
    expect(within(table).queryByRole('row', { name: /layer P119 / })).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Show more (100 of 121 lines shown)' }))
    expect(within(table).getByRole('row', { name: /layer P119 / })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Show more/ })).toBeNull()
  })

  it('stays measured when the rules no longer check, saying so', async () => {
    const l1 = billDrawing({ fileName: 'L1.dwg' })
    const warning =
      'Not priced: the project’s rules no longer check (row 1: formula …). Its measured lines are in the bill; it is priced once the rules are corrected.'
    const bill = assembledBill({
      projectId: ids.tower,
      name: 'Plans',
      drawings: [l1],
      measured: [
        measuredLine({ kind: 'length', description: 'Pipe', unit: 'm' }, [
          { drawing: l1, quantity: 12.5 },
        ]),
      ],
      warnings: [{ itemId: l1.itemId, fileName: 'L1.dwg', warning }],
    })
    fakeApi.projectBills.bills.push(bill)
    await openBill(bill.id)
    expect(
      screen.getByText(
        'No priced items: the drawings’ measured lines are below (the warnings say why).',
      ),
    ).toBeInTheDocument()
    expect(screen.getByText(`L1.dwg: ${warning}`)).toBeInTheDocument()
    const table = screen.getByRole('table', { name: 'Measured lines' })
    expect(within(table).getByRole('row', { name: /Pipe/ })).toHaveTextContent('12.50')
    const drawings = screen.getByRole('table', { name: 'Drawings' })
    expect(within(drawings).getByRole('row', { name: /L1\.dwg/ })).toHaveTextContent('Billed')
  })

  it('extracts the drawings with no bill yet in one click', async () => {
    const { bill, roof } = keptBill()
    const { user } = await openBill(bill.id)
    await user.click(
      screen.getByRole('button', { name: 'Extract the drawings with no bill yet (1)' }),
    )
    expect(await screen.findByRole('status')).toHaveTextContent('1 extraction queued.')
    expect(requestsTo('/api/boq/extract', 'POST').map((request) => request.body)).toEqual([
      {
        fileName: 'Roof.dwg',
        fileStorageId: roof.newestStorageId,
        fileFolderId: roof.folderId,
        projectId: ids.tower,
      },
    ])
  })

  it('says what it queued until those drawings are billed, then their states say it', async () => {
    const { bill, roof } = keptBill()
    const { user } = await openBill(bill.id)
    // The server lists Roof.dwg as extracting from the extraction on, then billed.
    roof.state = 'extracting'
    await user.click(
      screen.getByRole('button', { name: 'Extract the drawings with no bill yet (1)' }),
    )
    const said = await screen.findByRole('status')
    await waitFor(() => expect(said).toHaveTextContent('1 extraction queued.'))
    Object.assign(roof, { state: 'billed', versionNumber: 1, jobId: 'job-roof' })
    await waitFor(() => expect(said).not.toHaveTextContent('queued'), { timeout: 8000 })
    const drawings = screen.getByRole('table', { name: 'Drawings' })
    expect(within(drawings).getByRole('row', { name: /Roof\.dwg/ })).toHaveTextContent('Billed')
  })

  it('says which drawings the job limit refused, in the server’s words', async () => {
    const { bill } = keptBill()
    fakeApi.extract = () => ({ status: 429, body: 'You already have 5 extractions queued.' })
    const { user } = await openBill(bill.id)
    await user.click(screen.getByRole('button', { name: /Extract the drawings with no bill yet/ }))
    const said = await screen.findByRole('status')
    expect(said).toHaveTextContent('0 extractions queued.')
    expect(said).toHaveTextContent('Roof.dwg: You already have 5 extractions queued.')
  })

  it('is issued under a name, and compared issue to now with the drawings that moved it', async () => {
    const { bill, l2 } = keptBill()
    const { user } = await openBill(bill.id)
    expect(screen.getByText('Not issued yet.')).toBeInTheDocument()
    await user.type(screen.getByLabelText('Issue name'), 'Tender')
    await user.click(screen.getByRole('button', { name: 'Issue the bill' }))
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Issued as issue 1 (Tender); its workbook written as Plans BOQ.xlsx version 1.',
    )
    expect(requestsTo(`${billsPath}/${bill.id}/issues`, 'POST')[0]?.body).toEqual({
      name: 'Tender',
    })
    expect(await screen.findByText(/Issue 1: Tender, by Ada Lovelace/)).toBeInTheDocument()

    // Weeks later: L2.dwg's version 2 added pipe.
    fakeApi.projectBills.changeBills[`${bill.id}:1:current`] = {
      from: { number: 1, name: 'Tender', issuedAt: '2024-06-07T08:09:10.000Z' },
      to: { number: null, name: 'Now', issuedAt: null },
      items: [
        {
          section: '22',
          code: '22.10',
          description: 'Pipe',
          unit: 'm',
          before: { quantity: 15.5, amount: 310 },
          after: { quantity: 16, amount: 320 },
          change: { quantity: 0.5, amount: 10 },
          drivenBy: [
            {
              itemId: l2.itemId,
              fileName: 'L2.dwg',
              fromVersion: 1,
              toVersion: 2,
              quantity: 0.5,
              amount: 10,
            },
          ],
        },
      ],
      total: { before: 910, after: 920, change: 10 },
    }
    await user.click(screen.getByRole('button', { name: 'Compare' }))
    const table = await screen.findByRole('table', { name: 'Changes from issue 1 (Tender) to now' })
    const pipe = within(table).getByRole('row', { name: /Pipe/ })
    expect(pipe).toHaveTextContent('+0.50 m')
    expect(pipe).toHaveTextContent('L2.dwg v1 → v2: +10.00')
    expect(screen.getByText(/Total 910\.00 → 920\.00 \(\+10\.00\)/)).toBeInTheDocument()
  })

  it('says what came in since the last issue', async () => {
    const { bill, l2 } = keptBill()
    fakeApi.projectBills.issues[bill.id] = [
      {
        number: 1,
        name: 'Tender',
        issuedAt: '2024-06-07T08:09:10.000Z',
        issuedBy: 'Ada Lovelace',
        versions: [],
        priced: bill.priced,
      },
    ]
    fakeApi.projectBills.changeBills[`${bill.id}:1:current`] = {
      from: { number: 1, name: 'Tender', issuedAt: '2024-06-07T08:09:10.000Z' },
      to: { number: null, name: 'Now', issuedAt: null },
      items: [
        {
          section: '22',
          code: '22.10',
          description: 'pipe',
          unit: 'm',
          before: { quantity: 15.5, amount: 310 },
          after: { quantity: 16, amount: 320 },
          change: { quantity: 0.5, amount: 10 },
          drivenBy: [
            {
              itemId: l2.itemId,
              fileName: 'L2.dwg',
              fromVersion: 1,
              toVersion: 2,
              quantity: 0.5,
              amount: 10,
            },
          ],
        },
      ],
      total: { before: 910, after: 920, change: 10 },
    }
    await openBill(bill.id)
    const since = await screen.findByRole('region', { name: 'Since the last issue' })
    expect(since).toHaveTextContent('Since issue 1 (Tender)')
    expect(since).toHaveTextContent('L2.dwg version 2: pipe +0.50 m, +10.00')
  })

  it('says so when there is no such bill', async () => {
    renderApp(`/projects/${ids.tower}/bills/00000000-0000-4000-8000-000000000999`)
    expect(await screen.findByRole('alert')).toHaveTextContent('There is no such project bill.')
  })

  it('offers a new bill only over a folder the tree chose', async () => {
    renderApp(`/projects/${ids.tower}/bills`)
    await screen.findByRole('heading', { name: 'Project bills' })
    expect(screen.queryByRole('button', { name: 'Make the bill' })).not.toBeInTheDocument()
    await waitFor(() =>
      expect(screen.getByText('This project has no bills yet.')).toBeInTheDocument(),
    )
  })
})
