// The fake server's project bills (MSW handlers over fakeApi.projectBills), as the server answers.
import { HttpResponse, http } from 'msw'
import type {
  AssembledBill,
  BillIssue,
  ProjectChangeBill,
  ProjectFigures,
} from '#contract/project-bills.ts'
import { fakeApi } from './fake-api'
import { assembledBill } from './project-bill-fixtures'

const plain = (status: number, body: string) =>
  new HttpResponse(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })

const noSuchBill = () => plain(404, 'There is no such project bill.')

function billOf(projectId: string, billId: string): AssembledBill | undefined {
  return fakeApi.projectBills.bills.find(
    (bill) => bill.id === billId && bill.bill.projectId === projectId,
  )
}

/** Items matched by code, before and after; which drawings moved them is the test's to say. */
function compared(
  from: BillIssue & { priced: ProjectFigures },
  to: { side: ProjectChangeBill['to']; priced: ProjectFigures },
): ProjectChangeBill {
  const codes = [...new Set([...from.priced.items, ...to.priced.items].map((item) => item.code))]
  const items = codes.map((code) => {
    const was = from.priced.items.find((item) => item.code === code)
    const now = to.priced.items.find((item) => item.code === code)
    const item = now ?? was
    const figure = (one: typeof was) => ({
      quantity: one?.quantity ?? 0,
      amount: one?.amount ?? null,
    })
    return {
      section: item?.section ?? '',
      code,
      description: item?.description ?? '',
      unit: item?.unit ?? '',
      before: figure(was),
      after: figure(now),
      change: {
        quantity: (now?.quantity ?? 0) - (was?.quantity ?? 0),
        amount: (now?.amount ?? 0) - (was?.amount ?? 0),
      },
      drivenBy: [],
    }
  })
  return {
    from: { number: from.number, name: from.name, issuedAt: from.issuedAt },
    to: to.side,
    items,
    total: {
      before: from.priced.total,
      after: to.priced.total,
      change: to.priced.total - from.priced.total,
    },
  }
}

export const projectBillHandlers = [
  http.get('*/api/boq/projects/:projectId/bills', ({ params }) =>
    HttpResponse.json(
      fakeApi.projectBills.bills
        .filter((bill) => bill.bill.projectId === params.projectId)
        .map((bill) => bill.bill),
    ),
  ),
  http.post('*/api/boq/projects/:projectId/bills', async ({ request, params }) => {
    const body = (await request.json()) as { name?: string; folderIds?: string[] }
    if (!body.name) return plain(400, 'name: a name is needed.')
    const folderIds = body.folderIds ?? []
    if (folderIds.some((id) => !fakeApi.contents[id])) return plain(404, 'There is no such folder.')
    const made = assembledBill({ name: body.name, projectId: String(params.projectId) })
    made.bill.folderIds = folderIds
    fakeApi.projectBills.bills.push(made)
    return HttpResponse.json(made.bill, { status: 201 })
  }),
  http.get('*/api/boq/projects/:projectId/bills/:billId', ({ params }) => {
    const bill = billOf(String(params.projectId), String(params.billId))
    return bill ? HttpResponse.json(bill) : noSuchBill()
  }),
  http.get('*/api/boq/projects/:projectId/bills/:billId/issues', ({ params }) => {
    const bill = billOf(String(params.projectId), String(params.billId))
    if (!bill) return noSuchBill()
    const issues = fakeApi.projectBills.issues[bill.id] ?? []
    return HttpResponse.json(issues.map(({ priced: _priced, ...issue }) => issue))
  }),
  http.post('*/api/boq/projects/:projectId/bills/:billId/issues', async ({ request, params }) => {
    const bill = billOf(String(params.projectId), String(params.billId))
    if (!bill) return noSuchBill()
    const { name } = (await request.json()) as { name?: string }
    if (!name) return plain(400, 'name: a name is needed.')
    fakeApi.projectBills.issues[bill.id] ??= []
    const issues = fakeApi.projectBills.issues[bill.id]
    const issue: BillIssue = {
      number: issues.length + 1,
      name,
      issuedAt: '2024-06-07T08:09:10.000Z',
      issuedBy: fakeApi.profile.name,
      versions: bill.drawings.flatMap((drawing) =>
        drawing.versionNumber !== null && drawing.jobId
          ? [
              {
                itemId: drawing.itemId,
                fileName: drawing.fileName,
                versionNumber: drawing.versionNumber,
                jobId: drawing.jobId,
              },
            ]
          : [],
      ),
    }
    issues.push({ ...issue, priced: structuredClone(bill.priced) })
    const written = {
      fileName: `${bill.name} BOQ.xlsx`,
      itemId: 'urn:written',
      versionNumber: issue.number,
    }
    return HttpResponse.json({ ...issue, written }, { status: 201 })
  }),
  http.get('*/api/boq/projects/:projectId/bills/:billId/compare', ({ request, params }) => {
    const bill = billOf(String(params.projectId), String(params.billId))
    if (!bill) return noSuchBill()
    const query = new URL(request.url).searchParams
    const from = query.get('from')
    const to = query.get('to') ?? 'current'
    const kept = fakeApi.projectBills.changeBills[`${bill.id}:${from}:${to}`]
    if (kept) return HttpResponse.json(kept)
    const issues = fakeApi.projectBills.issues[bill.id] ?? []
    const before = issues.find((issue) => String(issue.number) === from)
    if (!before) return plain(404, `This bill has no issue ${from}.`)
    if (to === 'current') {
      return HttpResponse.json(
        compared(before, {
          side: { number: null, name: 'Now', issuedAt: null },
          priced: bill.priced,
        }),
      )
    }
    const after = issues.find((issue) => String(issue.number) === to)
    if (!after) return plain(404, `This bill has no issue ${to}.`)
    return HttpResponse.json(
      compared(before, {
        side: { number: after.number, name: after.name, issuedAt: after.issuedAt },
        priced: after.priced,
      }),
    )
  }),
]
