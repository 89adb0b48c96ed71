import { type Context, Hono } from 'hono'
import {
  type AssembledBill,
  type BillIssue,
  type IssueDetail,
  type IssuedBill,
  NewBillIssueSchema,
  NewProjectBillSchema,
  type ProjectBill,
  ProjectBillPatchSchema,
  type ProjectChangeBill,
  type ProjectFigures,
} from '#contract/project-bills.ts'
import type { WithCloud } from '../auth/cloud-access.ts'
import type { CloudBackend, CloudContext } from '../cloud/types.ts'
import { AppError } from '../errors.ts'
import { checkedBody, limitBody } from '../http/body.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import type { JobStore } from '../jobs/types.ts'
import type { RulesStore } from '../rules/store/types.ts'
import { assembleBill } from './assemble.ts'
import { checkSources } from './bill-drawings.ts'
import {
  billFile,
  billFileName,
  changesFile,
  type Download,
  formatOf,
  issueFiles,
  sendFile,
} from './downloads.ts'
import { type KeptPricings, keptPricings } from './kept-pricings.ts'
import { compareFigures } from './project-figures.ts'
import type { ProjectPlace } from './project-place.ts'
import type { BillStore, IssueRecord } from './types.ts'

export interface BillRoutesOptions {
  bills: BillStore
  jobs: JobStore
  rules: RulesStore
  cloud: Pick<CloudBackend, 'contents' | 'versions' | 'upload'>
  pool: BillPool
  projectPlace: ProjectPlace
  /** The drawings' pricings kept between requests (one for the server; a fresh one else). */
  kept?: KeptPricings
  withCloud: WithCloud
}

const MAX_BODY_BYTES = 256 * 1024

/**
 * The project bills under /projects/{projectId}/bills: made, listed, read assembled, changed,
 * deleted, issued and compared, by anyone who can see the project (404 else, as the rules
 * routes answer). A folder or item the person cannot see is a 404, and nothing is made.
 */
export function billRoutes(options: BillRoutesOptions): Hono {
  const { bills, withCloud, projectPlace } = options
  const routes = new Hono()
  const limited = limitBody(MAX_BODY_BYTES, 'The request body is too large for a project bill.')
  const parts = {
    store: options.jobs,
    bills,
    rules: options.rules,
    cloud: options.cloud,
    pool: options.pool,
    kept: options.kept ?? keptPricings(),
  }

  routes.post('/projects/:projectId/bills', limited, async (c) => {
    const projectId = c.req.param('projectId')
    const text = await c.req.text()
    const bill = await withCloud(c, async (ctx) => {
      // Who first (401), then which project (404), then what is asked (400, 404).
      const place = await projectPlace(ctx, projectId)
      const asked = checkedBody(NewProjectBillSchema, text)
      await checkSources(options.cloud, ctx, { ...place, projectId }, asked)
      return bills.create({
        projectId,
        name: asked.name,
        folderIds: unique(asked.folderIds),
        itemIds: unique(asked.itemIds),
        createdBy: personOf(ctx),
      })
    })
    noStore(c)
    return c.json(bill, 201)
  })

  routes.get('/projects/:projectId/bills', async (c) => {
    const projectId = c.req.param('projectId')
    const list = await withCloud(c, async (ctx) => {
      await projectPlace(ctx, projectId)
      return bills.list(projectId)
    })
    noStore(c)
    return c.json(list)
  })

  routes.get('/projects/:projectId/bills/:billId', async (c) => {
    const format = formatOf(c)
    const answer = await withCloud(c, async (ctx): Promise<Download | { json: AssembledBill }> => {
      const { bill, place } = await billOf(c, ctx)
      const assembled = await assembleBill(parts, ctx, place, bill, {
        withPricedBills: format === 'xlsx',
      })
      if (format === 'json') return { json: assembled.answer }
      const bytes = await billFile(options.pool, format, assembled, null)
      return { file: { bytes, name: bill.name, format } }
    })
    if ('file' in answer) {
      const { bytes, name, format } = answer.file
      return sendFile(c, bytes, format, billFileName(name, format))
    }
    noStore(c)
    return c.json(answer.json)
  })

  routes.patch('/projects/:projectId/bills/:billId', limited, async (c) => {
    const text = await c.req.text()
    const patched = await withCloud(c, async (ctx) => {
      const { bill, place } = await billOf(c, ctx)
      const patch = checkedBody(ProjectBillPatchSchema, text)
      await checkSources(options.cloud, ctx, { ...place, projectId: bill.projectId }, patch)
      const folderIds = patch.folderIds && unique(patch.folderIds)
      const itemIds = patch.itemIds && unique(patch.itemIds)
      if ((folderIds ?? bill.folderIds).length + (itemIds ?? bill.itemIds).length === 0) {
        throw new AppError(400, 'A bill needs at least one folder or item.')
      }
      const changed = await bills.patch(bill.projectId, bill.id, {
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(folderIds ? { folderIds } : {}),
        ...(itemIds ? { itemIds } : {}),
      })
      return changed ?? noSuchBill()
    })
    noStore(c)
    return c.json(patched)
  })

  routes.delete('/projects/:projectId/bills/:billId', async (c) => {
    await withCloud(c, async (ctx) => {
      const { bill } = await billOf(c, ctx)
      if (!(await bills.delete(bill.projectId, bill.id))) noSuchBill()
    })
    return c.body(null, 204)
  })

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

  /** The bill of the path, in a project the person sees (404 for either). */
  async function billOf(
    c: Context,
    ctx: CloudContext,
  ): Promise<{ bill: ProjectBill; place: { hubId: string } }> {
    const projectId = c.req.param('projectId') ?? ''
    const place = await projectPlace(ctx, projectId)
    const bill = await bills.get(projectId, c.req.param('billId') ?? '')
    return { bill: bill ?? noSuchBill(), place }
  }

  return routes
}

function noSuchBill(): never {
  throw new AppError(404, 'There is no such project bill.')
}

function issueNumber(text: string | undefined, name: string): number {
  const number = Number(text)
  if (!text || !/^\d+$/.test(text) || !Number.isSafeInteger(number) || number < 1) {
    throw new AppError(
      400,
      `${name} must be an issue number (1, 2, …)${name === 'to' ? ' or current' : ''}.`,
    )
  }
  return number
}

function issueNamed(issues: IssueRecord[], number: number): IssueRecord {
  const issue = issues.find((one) => one.number === number)
  if (!issue) throw new AppError(404, `This bill has no issue ${number}.`)
  return issue
}

function sideOf(issue: IssueRecord): ProjectChangeBill['from'] {
  return { number: issue.number, name: issue.name, issuedAt: issue.issuedAt }
}

/** An issue as it is answered: without the figures it froze. */
function issueOf({ figures: _figures, ...issue }: IssueRecord): BillIssue {
  return issue
}

function personOf(ctx: CloudContext): string {
  return ctx.user.name || ctx.user.userId
}

function unique(ids: string[] | undefined): string[] {
  return [...new Set(ids ?? [])]
}

function noStore(c: Context): void {
  c.header('Cache-Control', 'no-store')
}
