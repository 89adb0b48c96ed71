import type { MiddlewareHandler } from 'hono'
import { Hono } from 'hono'
import {
  type AssembledBill,
  type IssueDetail,
  type IssuedBill,
  NewBillIssueSchema,
  type ProjectBill,
  type ProjectChangeBill,
  type ProjectFigures,
} from '#contract/project-bills.ts'
import type { CloudContext } from '../cloud/types.ts'
import { AppError } from '../errors.ts'
import { checkedBody } from '../http/body.ts'
import { noStore } from '../http/response-headers.ts'
import { type AssembleParts, assembleBill } from './assemble.ts'
import {
  billFileName,
  changesFile,
  type Download,
  formatOf,
  issueFiles,
  sendFile,
} from './downloads.ts'
import { compareFigures } from './project-figures.ts'
import {
  type BillOf,
  type BillRoutesOptions,
  issueNamed,
  issueNumber,
  issueOf,
  noSuchBill,
  personOf,
  sideOf,
} from './route-parts.ts'

/**
 * A project bill's issues and comparisons: issued (frozen, its workbook written back into the
 * cloud), listed, read as issued, and any two (or one and now) compared.
 */
export function issueRoutes(
  options: BillRoutesOptions,
  shared: { parts: AssembleParts; billOf: BillOf; limited: MiddlewareHandler },
): Hono {
  const { bills, withCloud } = options
  const { parts, billOf, limited } = shared
  const routes = new Hono()

  routes.post('/projects/:projectId/bills/:billId/issues', limited, async (c) => {
    const text = await c.req.text()
    const issued = await withCloud(c, async (ctx): Promise<IssuedBill> => {
      const { bill, place } = await billOf(c, ctx)
      const { name } = checkedBody(NewBillIssueSchema, text)
      const assembled = await assembleBill(parts, ctx, place, bill, { withPricedBills: true })
      const made: { workbook?: Uint8Array } = {}
      const kept = await bills.issue(bill.projectId, bill.id, {
        name,
        issuedBy: personOf(ctx),
        versions: assembled.versions,
        figures: assembled.answer.priced,
        files: async (issue) => {
          const files = await issueFiles(options.pool, assembled, issue)
          made.workbook = files.xlsx
          return files
        },
      })
      if (!kept || !made.workbook) return noSuchBill()
      return { ...issueOf(kept), ...(await writeBack(ctx, bill, assembled.answer, made.workbook)) }
    })
    noStore(c)
    return c.json(issued, 201)
  })

  routes.get('/projects/:projectId/bills/:billId/issues/:number', async (c) => {
    const number = issueNumber(c.req.param('number'), 'number')
    const format = formatOf(c)
    const answer = await withCloud(c, async (ctx): Promise<Download | { json: IssueDetail }> => {
      const { bill } = await billOf(c, ctx)
      if (format !== 'json') {
        const bytes = await bills.issueFile(bill.projectId, bill.id, number, format)
        if (!bytes) throw new AppError(404, `This bill has no issue ${number}.`)
        return { file: { bytes, name: bill.name, format } }
      }
      const { figures, ...said } = issueNamed(await bills.issues(bill.projectId, bill.id), number)
      return { json: { ...said, priced: figures } }
    })
    if ('file' in answer) {
      const { bytes, name, format } = answer.file
      return sendFile(c, bytes, format, billFileName(name, format, `issue ${number}`))
    }
    noStore(c)
    return c.json(answer.json)
  })

  routes.get('/projects/:projectId/bills/:billId/issues', async (c) => {
    const issues = await withCloud(c, async (ctx) => {
      const { bill } = await billOf(c, ctx)
      return bills.issues(bill.projectId, bill.id)
    })
    noStore(c)
    return c.json(issues.map(issueOf))
  })

  routes.get('/projects/:projectId/bills/:billId/compare', async (c) => {
    const from = issueNumber(c.req.query('from'), 'from')
    const toText = c.req.query('to') ?? 'current'
    const to = toText === 'current' ? 'current' : issueNumber(toText, 'to')
    const format = formatOf(c)
    let billName = ''
    const answer = await withCloud(c, async (ctx): Promise<ProjectChangeBill> => {
      const { bill, place } = await billOf(c, ctx)
      billName = bill.name
      const issues = await bills.issues(bill.projectId, bill.id)
      const before = issueNamed(issues, from)
      let after: { side: ProjectChangeBill['to']; figures: ProjectFigures }
      if (to === 'current') {
        const { answer } = await assembleBill(parts, ctx, place, bill)
        after = { side: { number: null, name: 'Now', issuedAt: null }, figures: answer.priced }
      } else {
        const issue = issueNamed(issues, to)
        after = { side: sideOf(issue), figures: issue.figures }
      }
      return {
        from: sideOf(before),
        to: after.side,
        ...compareFigures(before.figures, after.figures),
      }
    })
    if (format !== 'json') {
      const bytes = await changesFile(options.pool, format, answer, billName)
      const what = `changes ${from} to ${to === 'current' ? 'now' : to}`
      return sendFile(c, bytes, format, billFileName(billName, format, what))
    }
    noStore(c)
    return c.json(answer)
  })

  /**
   * An issue's workbook written into the cloud, in the bill's first folder (else its first
   * drawing's) as `<bill name> BOQ.xlsx`: a new version each issue. A write the cloud refuses
   * is said beside the issue, which stands.
   */
  async function writeBack(
    ctx: CloudContext,
    bill: ProjectBill,
    answer: AssembledBill,
    bytes: Uint8Array,
  ): Promise<Pick<IssuedBill, 'written' | 'writeBackError'>> {
    const folderId = bill.folderIds[0] ?? answer.drawings.find((one) => one.folderId)?.folderId
    if (!folderId) {
      return { written: null, writeBackError: 'The bill has no folder to write its workbook to.' }
    }
    const fileName = billFileName(bill.name, 'xlsx')
    try {
      const written = await options.cloud.upload(ctx, {
        projectId: bill.projectId,
        folderId,
        fileName,
        bytes,
      })
      return { written: { fileName, itemId: written.itemId, versionNumber: written.versionNumber } }
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error
      return {
        written: null,
        writeBackError: `The workbook was not written back: ${error.message}`,
      }
    }
  }

  return routes
}
